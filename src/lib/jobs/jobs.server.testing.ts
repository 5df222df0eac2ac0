/**
 * Shared set-up of the scheduler tests on their real databases (embedded PGlite always, the local
 * PostgreSQL when it answers): peers standing for processes, a settable clock, a capturing logger.
 */
import { Writable } from 'node:stream';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, vi } from 'vitest';
import { openDatabase, type Db, type DbHandle } from '../db/client';
import { jobRuns, jobs, sessions } from '../db/schema';
import { createPostgresDatabase, type TestDatabase } from '../db/testing';
import { createLogger } from '../http/log.server';

export const MINUTE = 60_000;
export const HOUR = 3_600_000;
/** A fixed start, on an hour (and day) boundary, far from the wall clock. */
export const T0 = Date.parse('2030-01-01T00:00:00.000Z');

/** A logger whose lines the test reads. */
export function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: createLogger('debug', stream), lines };
}

/**
 * `count` connections to one fresh database: the same PGlite handle shared (one process can hold it),
 * or separate connection pools to one PostgreSQL database (separate processes).
 */
export async function openPeers(kind: TestDatabase, count: number, opts: { seed?: boolean } = {}): Promise<{ dbs: Db[]; close(): Promise<void> }> {
  if (kind.name === 'pglite') {
    const handle = await kind.create(opts);
    return { dbs: Array.from({ length: count }, () => handle.db), close: () => handle.close() };
  }
  const made = await createPostgresDatabase({ from: opts.seed ? 'seeded' : 'migrated' });
  const handles: DbHandle[] = [];
  const close = async () => {
    await Promise.all(handles.map((h) => h.close()));
    await made.drop();
  };
  try {
    for (let i = 0; i < count; i++) handles.push(await openDatabase({ databaseUrl: made.url, dataDir: 'unused' }));
  } catch (err) {
    await close();
    throw err;
  }
  return { dbs: handles.map((h) => h.db), close };
}

/** A settable clock shared by the schedulers of a test. */
export function testClock(start = T0) {
  let nowMs = start;
  return {
    clock: vi.fn(() => new Date(nowMs)),
    set(ms: number) {
      nowMs = ms;
      return new Date(ms);
    },
  };
}

/** A promise the test resolves or rejects when it chooses. */
export function deferred() {
  let resolve!: () => void;
  let reject!: (err: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Four connections to one fresh seeded database for the calling describe, emptied of jobs, runs and sessions before each test. */
export function schedulerDatabase(kind: TestDatabase) {
  const p = {
    dbs: [] as Db[],
    db: undefined as unknown as Db,
    silent: createLogger('silent'),
    jobRow: async (id: number) => (await p.db.select().from(jobs).where(eq(jobs.id, id)))[0]!,
    runsOf: (name: string) => p.db.select().from(jobRuns).where(eq(jobRuns.name, name)).orderBy(asc(jobRuns.slot)),
  };
  let close: () => Promise<void>;

  beforeAll(async () => {
    const peers = await openPeers(kind, 4, { seed: true });
    p.dbs = peers.dbs;
    p.db = p.dbs[0]!;
    close = peers.close;
  });
  afterAll(async () => {
    await close?.();
  });
  beforeEach(async () => {
    await p.db.delete(jobs);
    await p.db.delete(jobRuns);
    await p.db.delete(sessions);
  });
  return p;
}
