/**
 * The scheduler on its real databases (embedded PGlite always, the local PostgreSQL when it answers).
 * Several schedulers with different worker ids stand for several processes sharing one database; on
 * PostgreSQL each has its own connection pool, so their claims really race. Time is driven through
 * `runDue(now)` and the `clock` option: nothing here waits on the wall clock.
 */
import { resolve } from 'node:path';
import { Writable } from 'node:stream';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { openDatabase, type Db, type DbHandle } from '../db/client';
import { migrate } from '../db/migrate';
import { jobRuns, jobs, sessions, users } from '../db/schema';
import { seed } from '../db/seed/seed.server';
import { createPostgresDatabase, testDatabases, type TestDatabase } from '../db/testing';
import { createLogger } from '../http/log.server';
import { createSession, hashToken, SESSION_TTL_MS } from '../identity/session.server';
import { LEASE_MS, MAX_ATTEMPTS, retryDelayMs } from './jobs';
import { cancelJob, createScheduler, enqueue, type Scheduler } from './jobs.server';
import { registerSessionPurge } from './session-purge.server';

const databases = await testDatabases();

const MINUTE = 60_000;
const HOUR = 3_600_000;
/** A fixed start, on an hour (and day) boundary, far from the wall clock. */
const T0 = Date.parse('2030-01-01T00:00:00.000Z');

/** A logger whose lines the test reads. */
function capturingLogger() {
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
async function openPeers(kind: TestDatabase, count: number, opts: { seed?: boolean } = {}): Promise<{ dbs: Db[]; close(): Promise<void> }> {
  if (kind.name === 'pglite') {
    const handle = await kind.create(opts);
    return { dbs: Array.from({ length: count }, () => handle.db), close: () => handle.close() };
  }
  const made = await createPostgresDatabase();
  const handles: DbHandle[] = [];
  const close = async () => {
    await Promise.all(handles.map((h) => h.close()));
    await made.drop();
  };
  try {
    for (let i = 0; i < count; i++) handles.push(await openDatabase({ databaseUrl: made.url, dataDir: 'unused' }));
    await migrate(handles[0]!);
    if (opts.seed) await seed(handles[0]!.db, resolve('media'));
  } catch (err) {
    await close();
    throw err;
  }
  return { dbs: handles.map((h) => h.db), close };
}

/** A settable clock shared by the schedulers of a test. */
function testClock(start = T0) {
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
function deferred() {
  let resolve!: () => void;
  let reject!: (err: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe.each(databases)('scheduler on $name', (kind) => {
  let dbs: Db[];
  let db: Db;
  let close: () => Promise<void>;
  const silent = createLogger('silent');

  beforeAll(async () => {
    const peers = await openPeers(kind, 4, { seed: true });
    dbs = peers.dbs;
    db = dbs[0]!;
    close = peers.close;
  });
  afterAll(async () => {
    await close?.();
  });
  beforeEach(async () => {
    await db.delete(jobs);
    await db.delete(jobRuns);
    await db.delete(sessions);
  });

  const jobRow = async (id: number) => (await db.select().from(jobs).where(eq(jobs.id, id)))[0]!;
  const runsOf = (name: string) => db.select().from(jobRuns).where(eq(jobRuns.name, name)).orderBy(asc(jobRuns.slot));

  it('runs a recurring job once per slot across two workers racing for it, and records the winner', async () => {
    const time = testClock();
    const ran: { worker: string; slot: number }[] = [];
    const workers = ['worker-a', 'worker-b'];
    const schedulers = workers.map((workerId, i) => {
      const s = createScheduler({ db: dbs[i]!, logger: silent, workerId, clock: time.clock });
      s.every('tick', MINUTE, async ({ slot }) => {
        // Gives the other worker every chance to run the same slot meanwhile.
        await new Promise((r) => setImmediate(r));
        ran.push({ worker: workerId, slot });
      });
      return s;
    });
    const slots = 4;
    for (let i = 0; i < slots; i++) {
      const start = T0 + i * MINUTE;
      const results = await Promise.all(schedulers.map((s) => s.runDue(time.set(start))));
      const winners = workers.filter((_, k) => results[k]!.recurring.includes('tick'));
      expect(winners).toHaveLength(1);
      expect(ran).toHaveLength(i + 1);
      expect(ran[i]).toEqual({ worker: winners[0], slot: start / MINUTE });
      // Later in the same slot nobody runs it again.
      const again = await Promise.all(schedulers.map((s) => s.runDue(time.set(start + MINUTE - 1))));
      expect(again.map((r) => r.recurring)).toEqual([[], []]);
      expect(ran).toHaveLength(i + 1);
    }
    expect(ran).toHaveLength(slots);
    const rows = await runsOf('tick');
    expect(rows.map((r) => ({ worker: r.worker, slot: r.slot }))).toEqual(ran);
    for (const r of rows) {
      expect(r.error).toBeNull();
      expect(r.finishedAt).not.toBeNull();
    }
    // The built-in daily cleanup ran once too, all these slots being in one day.
    expect(await runsOf('job-runs-cleanup')).toHaveLength(1);
  });

  it('drains 200 one-off jobs with 4 workers racing: each handler runs exactly once and every job ends done', async () => {
    const total = 200;
    const ids: number[] = [];
    for (let i = 0; i < total; i++) ids.push(await enqueue(db, { name: 'work', payload: { i }, runAt: new Date(T0 - total + i) }));
    expect(new Set(ids).size).toBe(total);
    const ranBy = new Map<number, string[]>();
    const payloads = new Map<number, unknown>();
    const now = new Date(T0);
    const schedulers = dbs.map((peerDb, k) => {
      const workerId = `worker-${k}`;
      const s = createScheduler({ db: peerDb, logger: silent, workerId, clock: () => now });
      s.handle('work', async (payload, job) => {
        await new Promise((r) => setImmediate(r));
        ranBy.set(job.id, [...(ranBy.get(job.id) ?? []), workerId]);
        payloads.set(job.id, payload);
        expect(job.attempts).toBe(1);
      });
      return s;
    });
    const drain = async (s: Scheduler) => {
      let claimed = 0;
      for (let round = 0; round < 100; round++) {
        const { jobs: n } = await s.runDue(now);
        if (n === 0) return claimed;
        claimed += n;
      }
      throw new Error('the jobs never ran out');
    };
    const claimed = await Promise.all(schedulers.map(drain));
    expect(claimed.reduce((a, b) => a + b, 0)).toBe(total);
    expect(ids.filter((id) => ranBy.get(id)?.length !== 1)).toEqual([]);
    expect(ids.map((id) => payloads.get(id))).toEqual(ids.map((_, i) => ({ i })));
    const rows = await db.select().from(jobs);
    expect(rows).toHaveLength(total);
    for (const r of rows) {
      expect(r.doneAt).toEqual(now);
      expect(r.attempts).toBe(1);
      expect(r.lockedBy).toBeNull();
      expect(r.lockedUntil).toBeNull();
      expect(r.lastError).toBeNull();
    }
    // Nothing is left for anyone.
    expect((await Promise.all(schedulers.map((s) => s.runDue(new Date(T0 + HOUR))))).map((r) => r.jobs)).toEqual([0, 0, 0, 0]);
  });

  it("takes over a job whose worker's lease ran out; the late worker's completion does not mark it", async () => {
    const time = { a: testClock(), b: testClock() };
    const a = createScheduler({ db: dbs[0]!, logger: silent, workerId: 'worker-a', clock: time.a.clock });
    const b = createScheduler({ db: dbs[1]!, logger: silent, workerId: 'worker-b', clock: time.b.clock });
    const hang = deferred();
    const aStarted = vi.fn();
    a.handle('slow', async () => {
      aStarted();
      await hang.promise;
    });
    const bRan: { id: number; key: string | null; attempts: number }[] = [];
    b.handle('slow', async (_payload, job) => {
      bRan.push(job);
    });
    const id = await enqueue(db, { name: 'slow', key: 'slow-1', runAt: new Date(T0) });

    const aRun = a.runDue(time.a.set(T0));
    await vi.waitFor(() => expect(aStarted).toHaveBeenCalledTimes(1));
    expect(await jobRow(id)).toMatchObject({ lockedBy: 'worker-a', lockedUntil: new Date(T0 + LEASE_MS), attempts: 1, doneAt: null });
    // While the lease holds, B leaves it alone (up to and including its last instant).
    expect((await b.runDue(time.b.set(T0 + LEASE_MS - 1000))).jobs).toBe(0);
    expect((await b.runDue(time.b.set(T0 + LEASE_MS))).jobs).toBe(0);
    expect(bRan).toEqual([]);

    const takeover = T0 + LEASE_MS + 1000;
    expect((await b.runDue(time.b.set(takeover))).jobs).toBe(1);
    expect(bRan).toEqual([{ id, key: 'slow-1', attempts: 2 }]);
    expect(await jobRow(id)).toMatchObject({ doneAt: new Date(takeover), lockedBy: null, lockedUntil: null, attempts: 2, lastError: null });

    // A finally finishes, much later: its update is guarded by locked_by, so the row stays as B left it.
    time.a.set(takeover + 10 * MINUTE);
    hang.resolve();
    expect((await aRun).jobs).toBe(1);
    expect(await jobRow(id)).toMatchObject({ doneAt: new Date(takeover), lockedBy: null, attempts: 2, lastError: null });
    expect(aStarted).toHaveBeenCalledTimes(1);
    expect(bRan).toHaveLength(1);
    // Done once: nobody runs it again.
    expect((await b.runDue(time.b.set(T0 + 24 * HOUR))).jobs).toBe(0);
    expect((await a.runDue(time.a.set(T0 + 24 * HOUR))).jobs).toBe(0);
  });

  it("a late failure of the worker that lost its lease does not reschedule the new holder's job", async () => {
    const time = { a: testClock(), b: testClock() };
    const a = createScheduler({ db: dbs[0]!, logger: silent, workerId: 'worker-a', clock: time.a.clock });
    const b = createScheduler({ db: dbs[1]!, logger: silent, workerId: 'worker-b', clock: time.b.clock });
    const aHang = deferred();
    const bHang = deferred();
    const started = { a: vi.fn(), b: vi.fn() };
    a.handle('slow', async () => {
      started.a();
      await aHang.promise;
    });
    b.handle('slow', async () => {
      started.b();
      await bHang.promise;
    });
    const id = await enqueue(db, { name: 'slow', runAt: new Date(T0) });

    const aRun = a.runDue(time.a.set(T0));
    await vi.waitFor(() => expect(started.a).toHaveBeenCalledTimes(1));
    const takeover = T0 + LEASE_MS + 1000;
    const bRun = b.runDue(time.b.set(takeover));
    await vi.waitFor(() => expect(started.b).toHaveBeenCalledTimes(1));
    const held = { lockedBy: 'worker-b', lockedUntil: new Date(takeover + LEASE_MS), runAt: new Date(T0), attempts: 2, lastError: null, doneAt: null };
    expect(await jobRow(id)).toMatchObject(held);

    // A fails while B holds the job: A's failure update must not touch B's row.
    time.a.set(takeover + MINUTE);
    aHang.reject(new Error('late failure'));
    expect((await aRun).jobs).toBe(1);
    expect(await jobRow(id)).toMatchObject(held);

    time.b.set(takeover + 2 * MINUTE);
    bHang.resolve();
    expect((await bRun).jobs).toBe(1);
    expect(await jobRow(id)).toMatchObject({ doneAt: new Date(takeover + 2 * MINUTE), lockedBy: null, lastError: null, attempts: 2 });
  });

  it('a job claimed in a batch behind a slow one is not run by its first worker once another took it over', async () => {
    const time = { a: testClock(), b: testClock() };
    const a = createScheduler({ db: dbs[0]!, logger: silent, workerId: 'worker-a', clock: time.a.clock });
    const b = createScheduler({ db: dbs[1]!, logger: silent, workerId: 'worker-b', clock: time.b.clock });
    const hang = deferred();
    const ran: { worker: string; n: unknown }[] = [];
    a.handle('batch', async (payload) => {
      ran.push({ worker: 'worker-a', n: (payload as { n: number }).n });
      if ((payload as { n: number }).n === 1) await hang.promise;
    });
    b.handle('batch', async (payload) => {
      ran.push({ worker: 'worker-b', n: (payload as { n: number }).n });
    });
    const first = await enqueue(db, { name: 'batch', payload: { n: 1 }, runAt: new Date(T0 - 1) });
    const second = await enqueue(db, { name: 'batch', payload: { n: 2 }, runAt: new Date(T0) });

    // A claims both and hangs on the first; the second waits behind it while A's lease runs out.
    const aRun = a.runDue(time.a.set(T0));
    await vi.waitFor(() => expect(ran).toEqual([{ worker: 'worker-a', n: 1 }]));
    expect((await jobRow(second)).lockedBy).toBe('worker-a');
    const takeover = T0 + LEASE_MS + 1000;
    expect((await b.runDue(time.b.set(takeover))).jobs).toBe(2);
    for (const id of [first, second]) expect(await jobRow(id)).toMatchObject({ doneAt: new Date(takeover), lockedBy: null });

    // A gets past the slow job: the second is no longer A's, so A must not run it again.
    time.a.set(takeover + MINUTE);
    hang.resolve();
    await aRun;
    expect(ran).toEqual([
      { worker: 'worker-a', n: 1 },
      { worker: 'worker-b', n: 1 },
      { worker: 'worker-b', n: 2 },
    ]);
    expect(await jobRow(second)).toMatchObject({ doneAt: new Date(takeover), lockedBy: null, attempts: 2 });
  });

  it('enqueueing the same key twice gives one job that runs once; cancelJob removes a pending job', async () => {
    const time = testClock();
    const s = createScheduler({ db, logger: silent, workerId: 'worker-a', clock: time.clock });
    const ran: { payload: unknown; key: string | null }[] = [];
    s.handle('remind', async (payload, job) => {
      ran.push({ payload, key: job.key });
    });
    const first = await enqueue(db, { name: 'remind', key: 'remind:1', payload: { n: 1 }, runAt: new Date(T0) });
    const second = await enqueue(db, { name: 'remind', key: 'remind:1', payload: { n: 2 }, runAt: new Date(T0 + HOUR) });
    expect(second).toBe(first);
    const rows = await db.select().from(jobs).where(eq(jobs.key, 'remind:1'));
    expect(rows).toHaveLength(1);
    // The first enqueue's payload and time stand.
    expect(rows[0]).toMatchObject({ id: first, payload: { n: 1 }, runAt: new Date(T0) });

    expect((await s.runDue(time.set(T0))).jobs).toBe(1);
    expect((await s.runDue(time.set(T0 + HOUR))).jobs).toBe(0);
    expect(ran).toEqual([{ payload: { n: 1 }, key: 'remind:1' }]);
    // Once done, the key still names the same job, which does not run again; a done job cannot be cancelled.
    expect(await enqueue(db, { name: 'remind', key: 'remind:1', runAt: new Date(T0 + HOUR) })).toBe(first);
    expect((await s.runDue(time.set(T0 + 2 * HOUR))).jobs).toBe(0);
    expect(ran).toHaveLength(1);
    expect(await cancelJob(db, 'remind:1')).toBe(false);
    expect((await jobRow(first)).doneAt).toEqual(new Date(T0));

    // A pending job cancelled never runs; cancelling it again finds nothing.
    const doomed = await enqueue(db, { name: 'remind', key: 'remind:2', payload: { n: 3 }, runAt: new Date(T0 + 3 * HOUR) });
    expect(await cancelJob(db, 'remind:2')).toBe(true);
    expect(await cancelJob(db, 'remind:2')).toBe(false);
    expect(await db.select().from(jobs).where(eq(jobs.id, doomed))).toEqual([]);
    expect((await s.runDue(time.set(T0 + 4 * HOUR))).jobs).toBe(0);
    expect(ran).toHaveLength(1);
    expect(await cancelJob(db, 'no-such-key')).toBe(false);
  });

  it('retries a failed job after its backoff, and gives up after MAX_ATTEMPTS', async () => {
    const time = testClock();
    const { logger, lines } = capturingLogger();
    const s = createScheduler({ db, logger, workerId: 'worker-a', clock: time.clock });
    let flakyCalls = 0;
    s.handle('flaky', async () => {
      flakyCalls++;
      if (flakyCalls === 1) throw new Error('smtp down');
    });
    const id = await enqueue(db, { name: 'flaky', runAt: new Date(T0) });

    expect((await s.runDue(time.set(T0))).jobs).toBe(1);
    const retryAt = T0 + retryDelayMs(1);
    expect(await jobRow(id)).toMatchObject({ doneAt: null, lastError: 'smtp down', attempts: 1, runAt: new Date(retryAt), lockedBy: null, lockedUntil: null });
    expect(lines).toContainEqual(expect.objectContaining({ level: 'error', msg: 'job failed', job: 'flaky', id, attempts: 1, err: 'smtp down' }));
    // Not before its time…
    expect((await s.runDue(time.set(retryAt - 1))).jobs).toBe(0);
    expect(flakyCalls).toBe(1);
    // …and at its time it runs again and succeeds.
    expect((await s.runDue(time.set(retryAt))).jobs).toBe(1);
    expect(flakyCalls).toBe(2);
    expect(await jobRow(id)).toMatchObject({ doneAt: new Date(retryAt), lastError: null, attempts: 2, lockedBy: null });

    // A job that always fails is tried MAX_ATTEMPTS times, each after a longer wait, then left alone.
    let doomedCalls = 0;
    s.handle('doomed', async () => {
      doomedCalls++;
      throw new Error(`always (${doomedCalls})`);
    });
    const doomed = await enqueue(db, { name: 'doomed', runAt: new Date(T0) });
    let at = T0;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      expect((await s.runDue(time.set(at))).jobs).toBe(1);
      at += retryDelayMs(attempt);
      expect(await jobRow(doomed)).toMatchObject({ attempts: attempt, runAt: new Date(at), lastError: `always (${attempt})`, doneAt: null });
    }
    expect(doomedCalls).toBe(MAX_ATTEMPTS);
    const other = createScheduler({ db: dbs[1]!, logger: silent, workerId: 'worker-b', clock: time.clock });
    other.handle('doomed', async () => {
      doomedCalls++;
    });
    for (const later of [at, at + 30 * 24 * HOUR]) {
      expect((await s.runDue(time.set(later))).jobs).toBe(0);
      expect((await other.runDue(time.set(later))).jobs).toBe(0);
    }
    expect(doomedCalls).toBe(MAX_ATTEMPTS);
    expect(await jobRow(doomed)).toMatchObject({ attempts: MAX_ATTEMPTS, lastError: `always (${MAX_ATTEMPTS})`, doneAt: null, lockedBy: null });
  });

  it('logs a failing recurring job and records its error; another worker does not run that slot again', async () => {
    const time = testClock();
    const loggers = [capturingLogger(), capturingLogger()];
    const workers = ['worker-a', 'worker-b'];
    let calls = 0;
    const schedulers = workers.map((workerId, i) => {
      const s = createScheduler({ db: dbs[i]!, logger: loggers[i]!.logger, workerId, clock: time.clock });
      s.every('report', HOUR, async () => {
        calls++;
        throw new Error('disk full');
      });
      return s;
    });
    const results = await Promise.all(schedulers.map((s) => s.runDue(time.set(T0))));
    const winner = workers.findIndex((_, k) => results[k]!.recurring.includes('report'));
    expect(winner).toBeGreaterThanOrEqual(0);
    expect(results[1 - winner]!.recurring).not.toContain('report');
    expect(calls).toBe(1);
    const failed = (l: Record<string, unknown>) => l.level === 'error' && l.msg === 'scheduled job failed';
    expect(loggers[winner]!.lines.filter(failed)).toEqual([expect.objectContaining({ job: 'report', slot: T0 / HOUR, err: 'disk full' })]);
    expect(loggers[1 - winner]!.lines.filter(failed)).toEqual([]);
    expect(await runsOf('report')).toEqual([
      expect.objectContaining({ slot: T0 / HOUR, worker: workers[winner], error: 'disk full', finishedAt: new Date(T0) }),
    ]);

    // The failed slot is over: neither worker tries it again within it.
    for (const s of schedulers) expect((await s.runDue(time.set(T0 + HOUR - 1))).recurring).not.toContain('report');
    expect(calls).toBe(1);
    // The next slot runs as usual, once.
    const next = await Promise.all(schedulers.map((s) => s.runDue(time.set(T0 + HOUR))));
    expect(next.filter((r) => r.recurring.includes('report'))).toHaveLength(1);
    expect(calls).toBe(2);
    expect(await runsOf('report')).toHaveLength(2);
  });

  it('purges expired sessions and keeps live ones, once across two workers', async () => {
    const userIds = (await db.select({ id: users.id }).from(users).orderBy(asc(users.id)).limit(2)).map((u) => u.id);
    expect(userIds).toHaveLength(2);
    const [u1, u2] = userIds as [number, number];
    // createSession(…, createdAt) expires SESSION_TTL_MS later.
    const expiringAt = (ms: number) => new Date(ms - SESSION_TTL_MS);
    const expired = [
      await createSession(db, { kind: 'user', userId: u1 }, expiringAt(T0 - 2 * HOUR)),
      await createSession(db, { kind: 'user', userId: u2 }, expiringAt(T0 - 1)),
    ];
    const live = await createSession(db, { kind: 'user', userId: u1 }, new Date(T0));
    const nextHour = await createSession(db, { kind: 'user', userId: u2 }, expiringAt(T0 + 30 * MINUTE));
    const stored = async () => (await db.select({ h: sessions.tokenHash }).from(sessions)).map((r) => r.h).sort();
    expect(await stored()).toHaveLength(4);

    const time = testClock();
    const loggers = [capturingLogger(), capturingLogger()];
    const schedulers = loggers.map(({ logger }, i) => {
      const s = createScheduler({ db: dbs[i]!, logger, workerId: `worker-${i}`, clock: time.clock });
      registerSessionPurge(s, dbs[i]!, logger);
      return s;
    });
    const deleted = () => loggers.flatMap((l) => l.lines.filter((line) => line.msg === 'expired sessions deleted'));

    const first = await Promise.all(schedulers.map((s) => s.runDue(time.set(T0))));
    expect(first.filter((r) => r.recurring.includes('session-purge'))).toHaveLength(1);
    expect(await stored()).toEqual([live, nextHour].map((s) => hashToken(s.token)).sort());
    expect(deleted()).toEqual([expect.objectContaining({ job: 'session-purge', count: expired.length })]);

    // Within the hour nothing runs again, even though one more session has expired meanwhile.
    const sameSlot = await Promise.all(schedulers.map((s) => s.runDue(time.set(T0 + 45 * MINUTE))));
    expect(sameSlot.map((r) => r.recurring)).toEqual([[], []]);
    expect(await stored()).toHaveLength(2);
    // The next hour's run, by one worker, deletes it.
    const second = await Promise.all(schedulers.map((s) => s.runDue(time.set(T0 + HOUR))));
    expect(second.filter((r) => r.recurring.includes('session-purge'))).toHaveLength(1);
    expect(await stored()).toEqual([hashToken(live.token)]);
    expect(deleted()).toHaveLength(2);
    expect((await runsOf('session-purge')).map((r) => r.slot)).toEqual([T0 / HOUR, T0 / HOUR + 1]);
  });

  it('stop() waits for running work; a stopped scheduler does not start again', async () => {
    const time = testClock();
    const s = createScheduler({ db, logger: silent, workerId: 'worker-a', clock: time.clock, pollMs: 3_600_000 });
    const hang = deferred();
    const started = vi.fn();
    s.every('long', HOUR, async () => {
      started();
      await hang.promise;
    });
    const setIntervalSpy = vi.spyOn(globalThis, 'setInterval');
    try {
      s.start();
      s.start();
      expect(setIntervalSpy).toHaveBeenCalledTimes(1);
      await vi.waitFor(() => expect(started).toHaveBeenCalledTimes(1));

      let stopped = false;
      const stopping = s.stop().then(() => {
        stopped = true;
      });
      // Several database round trips later, stop() is still waiting for the job.
      for (let i = 0; i < 3; i++) await db.select().from(jobRuns);
      expect(stopped).toBe(false);
      time.set(T0 + MINUTE);
      hang.resolve();
      await stopping;
      expect(await runsOf('long')).toEqual([expect.objectContaining({ slot: T0 / HOUR, finishedAt: new Date(T0 + MINUTE), error: null })]);

      // Started again after stop: no timer, no check for due work (which would read the clock at once).
      const clockReads = time.clock.mock.calls.length;
      time.set(T0 + HOUR);
      s.start();
      expect(setIntervalSpy).toHaveBeenCalledTimes(1);
      expect(time.clock).toHaveBeenCalledTimes(clockReads);
      expect(started).toHaveBeenCalledTimes(1);
      await s.stop();
    } finally {
      setIntervalSpy.mockRestore();
    }
  });
});
