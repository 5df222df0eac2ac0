/**
 * `kill -9` in the middle of the "My data" jobs: the job that builds and mails an archive, and the job
 * that deletes an account, run in a child process (`privacy-faults.child.ts`: the scheduler alone, on
 * the embedded database in a data folder) that kills itself with SIGKILL at an injected step. The next
 * start resumes after the dead worker's lease; each run dies at the next step, until one finishes. The
 * steps are one per way of resuming (each process start costs seconds): the archive stored but the row
 * not marked ready (built and stored again), the mail sent but not recorded (the same link mailed again, then recorded);
 * inside the deletion's transaction (rolled back, done again whole), after its commit (found done,
 * only the notices again). Then
 * the job is done once: one archive, one link mailed (one Message-ID, one link, however many sends a
 * crash repeated), one audit record; one deletion with its audit record, everything anonymized.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, like } from 'drizzle-orm';
import { openDatabase, type DbHandle } from '../src/lib/db/client';
import { preparedDataFolder } from '../src/lib/db/testing';
import { defaultStorageDir } from '../src/lib/config/storage';
import * as s from '../src/lib/db/schema';
import { LEASE_MS } from '../src/lib/jobs/jobs';
import { auditOf, ExportLinks, exportKey, requestDeletion, requestExport, userRef, zipNames } from '../src/lib/privacy';
import { DEMO_LEARNER_ARCHIVE } from '../src/lib/privacy/archive.testing';
import { childArgs } from '../src/lib/testing/children';

const SECRET = 'privacy faults';
const DAY = 86_400_000;

const children = new Set<ChildProcess>();

/** Runs the child once: `killed` when it died by SIGKILL at `faultAt`, `done` when it finished. */
function runJobs(dataDir: string, now: number, faultAt: string): Promise<'killed' | 'done'> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, childArgs('privacy-faults'), {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', FAULT_AT: faultAt, FAULT_NOW: String(now), FAULT_SECRET: SECRET },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(child);
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.stderr.on('data', (d: Buffer) => (out += d));
    child.on('exit', (code, signal) => {
      children.delete(child);
      if (signal === 'SIGKILL') resolve('killed');
      else if (code === 0 && out.includes('done')) resolve('done');
      else reject(new Error(`the job runner exited with ${code ?? signal}: ${out}`));
    });
  });
}

/** Dies at each step in turn (each run resuming the last one's work), then runs to the end. */
async function crashThrough(dataDir: string, start: number, steps: readonly string[]): Promise<void> {
  let now = start;
  for (const step of steps) {
    expect(await runJobs(dataDir, now, step), `a run dying at ${step}`).toBe('killed');
    now += LEASE_MS + 1000; // the dead worker's lease runs out
  }
  expect(await runJobs(dataDir, now, '')).toBe('done');
}

async function withDb<T>(dataDir: string, fn: (handle: DbHandle) => Promise<T>): Promise<T> {
  const handle = await openDatabase({ databaseUrl: null, dataDir });
  try {
    return await fn(handle);
  } finally {
    await handle.close();
  }
}

const userId = async (handle: DbHandle, email: string) => (await handle.db.select({ id: s.users.id }).from(s.users).where(eq(s.users.email, email)))[0]!.id;

describe('kill -9 in the "My data" jobs', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await preparedDataFolder(mkdtempSync(join(tmpdir(), 'academy-privacy-faults-')));
  });
  afterAll(async () => {
    // A run cut short (a timeout) must not write into the folder as it goes.
    const running = [...children];
    const gone = running.map((c) => new Promise((r) => c.once('exit', r)));
    for (const c of running) c.kill('SIGKILL');
    await Promise.all(gone);
    rmSync(dataDir, { recursive: true, force: true, maxRetries: 3 });
  });

  it('an archive job killed at each step is resumed and mails one link once', async () => {
    const { exportId, learner } = await withDb(dataDir, async (handle) => {
      const learner = await userId(handle, 'learner@academia.example');
      return { learner, ...(await requestExport(handle.db, ExportLinks.fromSecret(SECRET), { userId: learner, locale: 'es', origin: 'https://academy.example' })) };
    });
    await crashThrough(dataDir, Date.now() + 1000, ['archive-written', 'mail-sent']);

    // The archive is in the storage (the local folder of the data folder, as the server's default).
    expect(zipNames(readFileSync(join(defaultStorageDir(dataDir), exportKey(exportId))))).toEqual(DEMO_LEARNER_ARCHIVE);
    const token = ExportLinks.fromSecret(SECRET).token(exportId);
    const mails = readdirSync(join(dataDir, 'outbox')).map((f) => readFileSync(join(dataDir, 'outbox', f), 'utf8'));
    const ours = mails.filter((m) => m.includes(`data-export-${exportId}@`));
    // The crash between sending and recording it sent once more: the same message (Message-ID) with the same link.
    expect(ours.length).toBeGreaterThanOrEqual(1);
    expect(new Set(ours.map((m) => /^Message-ID: (.+)$/im.exec(m)?.[1]))).toEqual(new Set([`<data-export-${exportId}@academy.invalid>`]));
    // The body is quoted-printable: soft line breaks (`=` at a line's end) joined again.
    expect(ours.every((m) => m.replace(/=\r?\n/g, '').includes(`/my-data/download/${token}`))).toBe(true);
    await withDb(dataDir, async (handle) => {
      const [row] = await handle.db.select().from(s.dataExports).where(eq(s.dataExports.id, exportId));
      expect(row!.readyAt).not.toBeNull();
      expect(row!.mailedAt).not.toBeNull();
      expect(await auditOf(handle.db, userRef(learner), 'privacy.export.mailed')).toHaveLength(1);
      const [job] = await handle.db.select().from(s.jobs).where(eq(s.jobs.key, `data-export:${exportId}`));
      expect(job!.doneAt).not.toBeNull();
    });
    // Nothing half-written beside it.
    expect(readdirSync(join(defaultStorageDir(dataDir), 'exports'))).toEqual([`${exportId}.zip`]);
  }, 600_000);

  it('a deletion job killed at each step, in its transaction too, is resumed and deletes once', async () => {
    const start = Date.now();
    const graduate = await withDb(dataDir, async (handle) => {
      const graduate = await userId(handle, 'graduate@academia.example');
      expect((await requestDeletion(handle.db, { userId: graduate, password: 'Gradua2026', now: new Date(start - 14 * DAY - 1000) })).status).toBe('scheduled');
      return graduate;
    });
    await crashThrough(dataDir, start, ['in-transaction', 'committed']);

    await withDb(dataDir, async (handle) => {
      const [user] = await handle.db.select().from(s.users).where(eq(s.users.id, graduate));
      expect(user).toMatchObject({ email: `deleted-user-${graduate}@deleted.invalid`, firstName: '', lastName: '', passwordHash: null });
      expect(await auditOf(handle.db, userRef(graduate), 'privacy.deletion.done')).toHaveLength(1);
      const [certificate] = await handle.db.select().from(s.certificates).where(eq(s.certificates.code, 'ACAD-GRAD-2026-0000-0002'));
      expect(certificate!.holderName).toBe('');
      expect(await handle.db.select().from(s.sessions).where(eq(s.sessions.userId, graduate))).toEqual([]);
      const [job] = await handle.db.select().from(s.jobs).where(like(s.jobs.key, `account-deletion:${graduate}`));
      expect(job!.doneAt).not.toBeNull();
    });
  }, 600_000);
});
