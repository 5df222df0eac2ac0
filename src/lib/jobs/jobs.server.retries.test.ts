/** The scheduler's queue: one job per key, cancelling, retries after backoff up to MAX_ATTEMPTS, and a failing recurring job logged and recorded. */
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { jobs } from '../db/schema';
import { testDatabases } from '../db/testing';
import { MAX_ATTEMPTS, retryDelayMs } from './jobs';
import { cancelJob, createScheduler, enqueue } from './jobs.server';
import { capturingLogger, HOUR, schedulerDatabase, T0, testClock } from './jobs.server.testing';

const databases = await testDatabases();

describe.each(databases)('scheduler on $name', (kind) => {
  const p = schedulerDatabase(kind);

  it('enqueueing the same key twice gives one job that runs once; cancelJob removes a pending job', async () => {
    const time = testClock();
    const s = createScheduler({ db: p.db, logger: p.silent, workerId: 'worker-a', clock: time.clock });
    const ran: { payload: unknown; key: string | null }[] = [];
    s.handle('remind', async (payload, job) => {
      ran.push({ payload, key: job.key });
    });
    const first = await enqueue(p.db, { name: 'remind', key: 'remind:1', payload: { n: 1 }, runAt: new Date(T0) });
    const second = await enqueue(p.db, { name: 'remind', key: 'remind:1', payload: { n: 2 }, runAt: new Date(T0 + HOUR) });
    expect(second).toBe(first);
    const rows = await p.db.select().from(jobs).where(eq(jobs.key, 'remind:1'));
    expect(rows).toHaveLength(1);
    // The first enqueue's payload and time stand.
    expect(rows[0]).toMatchObject({ id: first, payload: { n: 1 }, runAt: new Date(T0) });

    expect((await s.runDue(time.set(T0))).jobs).toBe(1);
    expect((await s.runDue(time.set(T0 + HOUR))).jobs).toBe(0);
    expect(ran).toEqual([{ payload: { n: 1 }, key: 'remind:1' }]);
    // Once done, the key still names the same job, which does not run again; a done job cannot be cancelled.
    expect(await enqueue(p.db, { name: 'remind', key: 'remind:1', runAt: new Date(T0 + HOUR) })).toBe(first);
    expect((await s.runDue(time.set(T0 + 2 * HOUR))).jobs).toBe(0);
    expect(ran).toHaveLength(1);
    expect(await cancelJob(p.db, 'remind:1')).toBe(false);
    expect((await p.jobRow(first)).doneAt).toEqual(new Date(T0));

    // A pending job cancelled never runs; cancelling it again finds nothing.
    const doomed = await enqueue(p.db, { name: 'remind', key: 'remind:2', payload: { n: 3 }, runAt: new Date(T0 + 3 * HOUR) });
    expect(await cancelJob(p.db, 'remind:2')).toBe(true);
    expect(await cancelJob(p.db, 'remind:2')).toBe(false);
    expect(await p.db.select().from(jobs).where(eq(jobs.id, doomed))).toEqual([]);
    expect((await s.runDue(time.set(T0 + 4 * HOUR))).jobs).toBe(0);
    expect(ran).toHaveLength(1);
    expect(await cancelJob(p.db, 'no-such-key')).toBe(false);
  });

  it('retries a failed job after its backoff, and gives up after MAX_ATTEMPTS', async () => {
    const time = testClock();
    const { logger, lines } = capturingLogger();
    const s = createScheduler({ db: p.db, logger, workerId: 'worker-a', clock: time.clock });
    let flakyCalls = 0;
    s.handle('flaky', async () => {
      flakyCalls++;
      if (flakyCalls === 1) throw new Error('smtp down');
    });
    const id = await enqueue(p.db, { name: 'flaky', runAt: new Date(T0) });

    expect((await s.runDue(time.set(T0))).jobs).toBe(1);
    const retryAt = T0 + retryDelayMs(1);
    expect(await p.jobRow(id)).toMatchObject({ doneAt: null, lastError: 'smtp down', attempts: 1, runAt: new Date(retryAt), lockedBy: null, lockedUntil: null });
    expect(lines).toContainEqual(expect.objectContaining({ level: 'error', msg: 'job failed', job: 'flaky', id, attempts: 1, err: 'smtp down' }));
    // Not before its time…
    expect((await s.runDue(time.set(retryAt - 1))).jobs).toBe(0);
    expect(flakyCalls).toBe(1);
    // …and at its time it runs again and succeeds.
    expect((await s.runDue(time.set(retryAt))).jobs).toBe(1);
    expect(flakyCalls).toBe(2);
    expect(await p.jobRow(id)).toMatchObject({ doneAt: new Date(retryAt), lastError: null, attempts: 2, lockedBy: null });

    // A job that always fails is tried MAX_ATTEMPTS times, each after a longer wait, then left alone.
    let doomedCalls = 0;
    s.handle('doomed', async () => {
      doomedCalls++;
      throw new Error(`always (${doomedCalls})`);
    });
    const doomed = await enqueue(p.db, { name: 'doomed', runAt: new Date(T0) });
    let at = T0;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      expect((await s.runDue(time.set(at))).jobs).toBe(1);
      at += retryDelayMs(attempt);
      expect(await p.jobRow(doomed)).toMatchObject({ attempts: attempt, runAt: new Date(at), lastError: `always (${attempt})`, doneAt: null });
    }
    expect(doomedCalls).toBe(MAX_ATTEMPTS);
    const other = createScheduler({ db: p.dbs[1]!, logger: p.silent, workerId: 'worker-b', clock: time.clock });
    other.handle('doomed', async () => {
      doomedCalls++;
    });
    for (const later of [at, at + 30 * 24 * HOUR]) {
      expect((await s.runDue(time.set(later))).jobs).toBe(0);
      expect((await other.runDue(time.set(later))).jobs).toBe(0);
    }
    expect(doomedCalls).toBe(MAX_ATTEMPTS);
    expect(await p.jobRow(doomed)).toMatchObject({ attempts: MAX_ATTEMPTS, lastError: `always (${MAX_ATTEMPTS})`, doneAt: null, lockedBy: null });
  });

  it('logs a failing recurring job and records its error; another worker does not run that slot again', async () => {
    const time = testClock();
    const loggers = [capturingLogger(), capturingLogger()];
    const workers = ['worker-a', 'worker-b'];
    let calls = 0;
    const schedulers = workers.map((workerId, i) => {
      const s = createScheduler({ db: p.dbs[i]!, logger: loggers[i]!.logger, workerId, clock: time.clock });
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
    expect(await p.runsOf('report')).toEqual([
      expect.objectContaining({ slot: T0 / HOUR, worker: workers[winner], error: 'disk full', finishedAt: new Date(T0) }),
    ]);

    // The failed slot is over: neither worker tries it again within it.
    for (const s of schedulers) expect((await s.runDue(time.set(T0 + HOUR - 1))).recurring).not.toContain('report');
    expect(calls).toBe(1);
    // The next slot runs as usual, once.
    const next = await Promise.all(schedulers.map((s) => s.runDue(time.set(T0 + HOUR))));
    expect(next.filter((r) => r.recurring.includes('report'))).toHaveLength(1);
    expect(calls).toBe(2);
    expect(await p.runsOf('report')).toHaveLength(2);
  });

});
