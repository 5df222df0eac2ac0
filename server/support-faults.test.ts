/**
 * `kill -9` while a reply of the support inbox is mailed: the reply is stored in its message's thread
 * with its mail's job in one transaction (nothing to lose after the staff's answer); the job runs in a
 * child process (`support-faults.child.ts`: the scheduler alone, on the embedded database in a data
 * folder) that kills itself with SIGKILL after the mail went out but before it was recorded, then after
 * it was recorded but before the job was marked done. Each start resumes after the dead worker's lease.
 * Then: one reply in the thread, recorded sent once (one audit record), the job done, and every mail
 * the crashes repeated is the same message (one Message-ID), so the sender's mail server keeps one.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import * as s from '../src/lib/db/schema';
import { LEASE_MS } from '../src/lib/jobs/jobs';
import { auditOf } from '../src/lib/privacy';
import { messageRef, replyJobKey, replyMessageId, replyToMessage } from '../src/lib/support';
import { faultTarget, runChild, withDb, type FaultTarget } from '../src/lib/testing/fault-runs';

/** Runs the job runner once: `killed` when it died by SIGKILL at `faultAt`, `done` when it finished. */
async function runJobs(dataDir: string, now: number, faultAt: string): Promise<'killed' | 'done'> {
  const { code, signal, out } = await runChild('support-faults', { DATA_DIR: dataDir, DATABASE_URL: '', FAULT_AT: faultAt, FAULT_NOW: String(now) });
  if (signal === 'SIGKILL') return 'killed';
  if (code === 0 && out.includes('done')) return 'done';
  throw new Error(`the job runner exited with ${code ?? signal}: ${out}`);
}

describe('kill -9 while a support reply is mailed', () => {
  let target: FaultTarget;
  let dataDir: string;
  beforeAll(async () => {
    target = await faultTarget('support-faults');
    dataDir = target.dataDir;
  });
  afterAll(async () => target?.remove());

  it('a reply job killed after sending and after recording is resumed: one reply, recorded sent once, one Message-ID', async () => {
    const start = Date.now() + 1000;
    const { messageId, entryId } = await withDb(target, async (handle) => {
      const [admin] = await handle.db.select({ id: s.users.id }).from(s.users).where(eq(s.users.email, 'admin@academia.example'));
      const [message] = await handle.db
        .insert(s.contactMessages)
        .values({ typeId: 8, name: 'Ana', lastName: 'Pérez', email: 'ana.faults@example.com', countryPhoneCode: '+57', phone: '3001234567', description: 'Hello', countryCode: 'CO', language: 'en', accepts: true })
        .returning({ id: s.contactMessages.id });
      const key = 'fault-test-form-key-0001';
      const outcome = await replyToMessage(handle.db, admin!.id, message!.id, 'Your course is unlocked.', key, new Date(start - 1000));
      // The same form posted again (a double submit) is the same reply.
      expect(await replyToMessage(handle.db, admin!.id, message!.id, 'Your course is unlocked.', key, new Date(start - 1000))).toMatchObject({ status: 'ok', repeated: true });
      return { messageId: message!.id, entryId: (outcome as { entryId: number }).entryId };
    });

    let now = start;
    for (const step of ['mail-sent', 'sent-marked']) {
      expect(await runJobs(dataDir, now, step), `a run dying at ${step}`).toBe('killed');
      now += LEASE_MS + 1000; // the dead worker's lease runs out
    }
    expect(await runJobs(dataDir, now, '')).toBe('done');

    const outbox = join(dataDir, 'outbox');
    const ours = readdirSync(outbox)
      .filter((f) => f.endsWith('.eml'))
      .map((f) => readFileSync(join(outbox, f), 'utf8'))
      .filter((m) => m.includes('ana.faults@example.com'));
    // Killed after sending once: sent again on resuming, as the same message. Never more than one per run.
    expect(ours.length).toBeGreaterThanOrEqual(1);
    expect(ours.length).toBeLessThanOrEqual(2);
    expect(new Set(ours.map((m) => /^Message-ID: (.+)$/im.exec(m)?.[1]))).toEqual(new Set([replyMessageId(entryId)]));
    expect(ours.every((m) => m.replace(/=\r?\n/g, '').includes('Your course is unlocked.'))).toBe(true);
    await withDb(target, async (handle) => {
      const entries = await handle.db.select().from(s.supportEntries).where(eq(s.supportEntries.messageId, messageId));
      expect(entries).toHaveLength(1);
      expect(entries[0]!.sentAt).not.toBeNull();
      expect(await auditOf(handle.db, messageRef(messageId), 'support.reply.sent')).toHaveLength(1);
      expect(await auditOf(handle.db, messageRef(messageId), 'support.reply')).toHaveLength(1);
      const [job] = await handle.db.select().from(s.jobs).where(eq(s.jobs.key, replyJobKey(entryId)));
      expect(job!.doneAt).not.toBeNull();
      const [message] = await handle.db.select().from(s.contactMessages).where(eq(s.contactMessages.id, messageId));
      expect(message!.status).toBe('answered');
    });
  }, 600_000);
});
