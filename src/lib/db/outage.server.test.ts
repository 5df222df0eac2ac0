import { describe, expect, it, vi } from 'vitest';
import { createLogger } from '../http/log.server';
import { watchOutages } from './outage.server';

const refused = () => Object.assign(new Error('Failed query: select 1\nparams: '), { cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }) });

/** A logger at `warn` whose lines are kept. */
function keptLog() {
  const lines: Record<string, unknown>[] = [];
  return { lines, logger: createLogger('warn', { write: (l: string) => void lines.push(JSON.parse(l) as Record<string, unknown>) }) };
}

describe('watchOutages', () => {
  it('writes one warning for a whole outage (no stack), and one line when the database answers again', async () => {
    const { lines, logger } = keptLog();
    let up = false;
    const probe = vi.fn(async () => {
      if (!up) throw refused();
    });
    const watch = watchOutages(logger, probe, 5);
    for (let i = 0; i < 50; i++) expect(watch.report(refused(), `request ${i}`)).toBe(true);
    expect(watch.down).toBe(true);
    await vi.waitFor(() => expect(probe.mock.calls.length).toBeGreaterThan(1));
    up = true;
    await vi.waitFor(() => expect(watch.down).toBe(false));
    expect(lines).toEqual([
      expect.objectContaining({ level: 'warn', where: 'request 0', reason: 'ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:5432', msg: expect.stringMatching(/^database unreachable/) }),
      expect.objectContaining({ level: 'warn', failures: 50, msg: 'database reachable again' }),
    ]);
    expect(lines.some((l) => 'stack' in l)).toBe(false);
    // The next outage is told again.
    up = false;
    watch.report(refused(), 'later');
    expect(lines).toHaveLength(3);
    watch.close();
  });

  it('leaves every other failure to its caller, and a collision is no outage', () => {
    const { lines, logger } = keptLog();
    const watch = watchOutages(logger, async () => undefined, 5);
    expect(watch.report(new TypeError('x is undefined'), 'page')).toBe(false);
    expect(watch.report(Object.assign(new Error('deadlock detected'), { code: '40P01' }), 'page')).toBe(false);
    expect(watch.down).toBe(false);
    expect(lines).toEqual([]);
    watch.close();
  });
});
