/**
 * The video worker with the database out of reach: the failure is handed to the runtime's outage watch
 * (which logs one line per outage), not logged again at every poll.
 */
import { describe, expect, it, vi } from 'vitest';
import type { Db } from '../db/client';
import { createLocalStorage } from '../storage/local.server';
import { startVideoWorker } from './transcode.server';

/** A database whose every call fails as one out of reach does. */
const unreachable = new Proxy(
  {},
  {
    get: (_, property) =>
      property === 'then'
        ? undefined
        : () => {
            throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
          },
  },
) as unknown as Db;

describe('the video worker', () => {
  it('tells the outage watch when it cannot check for queued videos, and logs nothing of its own', async () => {
    const logger = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    const report = vi.fn((_err: unknown, _where: string) => true);
    const worker = startVideoWorker({ db: unreachable, storage: createLocalStorage('/nonexistent'), dataDir: '/nonexistent', workerId: 'w', logger, pollMs: 20, outage: { report } });
    await vi.waitFor(() => expect(report.mock.calls.length).toBeGreaterThanOrEqual(2));
    await worker.stop();
    expect(report).toHaveBeenCalledWith(expect.anything(), 'video worker');
    expect(logger.warn).not.toHaveBeenCalled();
  });

  it('logs the failure itself when the watch does not take it (not an outage)', async () => {
    const logger = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    const worker = startVideoWorker({ db: unreachable, storage: createLocalStorage('/nonexistent'), dataDir: '/nonexistent', workerId: 'w', logger, pollMs: 20, outage: { report: () => false } });
    await vi.waitFor(() => expect(logger.warn).toHaveBeenCalled());
    await worker.stop();
    expect(logger.warn).toHaveBeenCalledWith(expect.anything(), 'video worker: could not check for queued videos');
  });
});
