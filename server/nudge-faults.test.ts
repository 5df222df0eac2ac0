/**
 * `kill -9` while an IBO nudges one of its people: the nudge and its mail's job are written in one
 * transaction (killed before it commits, nothing is stored and the same form works again; killed after,
 * the same form again answers the nudge already made); the job runs in a child process
 * (`nudge-faults.child.ts`) that kills itself after the mail went out but before it was recorded, then
 * after it was recorded but before the job was marked done. Each start resumes after the dead worker's
 * lease. Then: one nudge, marked sent, its job done, and every mail the crashes repeated is the same
 * message (one Message-ID), so the person's mail server keeps one.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import * as s from '../src/lib/db/schema';
import { LEASE_MS } from '../src/lib/jobs/jobs';
import { faultTarget, runChild, withDb, type FaultTarget } from '../src/lib/testing/fault-runs';

describe('kill -9 while an IBO nudges one of its people', () => {
  let target: FaultTarget;
  beforeAll(async () => {
    target = await faultTarget('nudge-faults');
  });
  afterAll(async () => target?.remove());

  const run = async (env: Record<string, string>) => {
    const { code, signal, out } = await runChild('nudge-faults', { DATA_DIR: target.dataDir, DATABASE_URL: '', ...env });
    if (signal === 'SIGKILL') return 'killed' as const;
    if (code === 0) return out;
    throw new Error(`the nudge child exited with ${code ?? signal}: ${out}`);
  };

  it('a nudge killed before and after its commit, and its mail killed after sending and after recording, end as one nudge sent once', async () => {
    const start = Date.now() + 1000;
    const { iboId, contactId } = await withDb(target, async (handle) => {
      const [ibo] = await handle.db.select({ id: s.ibos.id }).from(s.ibos).where(eq(s.ibos.code, 'HORIZONTE01'));
      const [person] = await handle.db.insert(s.contacts).values({ firstName: 'Nora', lastName: 'Fallo', email: 'nora.faults@example.com', iboId: ibo!.id }).returning({ id: s.contacts.id });
      return { iboId: ibo!.id, contactId: person!.id };
    });
    const nudge = (faultAt: string) => run({ FAULT_MODE: 'nudge', FAULT_IBO: String(iboId), FAULT_CONTACT: String(contactId), FAULT_KEY: 'nudge-fault-form-0001', FAULT_AT: faultAt, FAULT_NOW: String(start) });
    const stored = () => withDb(target, async (handle) => handle.db.select().from(s.nudges).where(eq(s.nudges.contactId, contactId)));

    expect(await nudge('nudge-checked')).toBe('killed');
    expect(await stored()).toEqual([]);
    expect(await nudge('nudge-stored')).toBe('killed');
    expect(await stored()).toHaveLength(1);
    // The same form again (the IBO pressed once more after the crash): the nudge already made.
    expect(JSON.parse(String(await nudge('')))).toMatchObject({ status: 'ok', repeated: true, firstName: 'Nora' });
    const [made] = await stored();

    let now = start;
    for (const step of ['mail-sent', 'sent-marked']) {
      expect(await run({ FAULT_MODE: 'jobs', FAULT_AT: step, FAULT_NOW: String(now) }), `a run dying at ${step}`).toBe('killed');
      now += LEASE_MS + 1000;
    }
    expect(await run({ FAULT_MODE: 'jobs', FAULT_AT: '', FAULT_NOW: String(now) })).toContain('done');

    const outbox = join(target.dataDir, 'outbox');
    const ours = readdirSync(outbox)
      .filter((f) => f.endsWith('.eml'))
      .map((f) => readFileSync(join(outbox, f), 'utf8'))
      .filter((m) => m.includes('nora.faults@example.com'));
    expect(ours.length).toBeGreaterThanOrEqual(1);
    expect(ours.length).toBeLessThanOrEqual(2);
    expect(new Set(ours.map((m) => /^Message-ID: (.+)$/im.exec(m)?.[1]))).toEqual(new Set([`<nudge-${made!.id}@academy>`]));
    await withDb(target, async (handle) => {
      const rows = await handle.db.select().from(s.nudges).where(eq(s.nudges.contactId, contactId));
      expect(rows).toHaveLength(1);
      expect(rows[0]!.sentAt).not.toBeNull();
      const [job] = await handle.db.select().from(s.jobs).where(eq(s.jobs.key, `nudge:${made!.id}`));
      expect(job!.doneAt).not.toBeNull();
    });
  }, 600_000);
});
