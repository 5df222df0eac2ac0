/** The scheduler's claims across workers racing on one database: one run per slot, each job once, and leases taken over safely (time driven, never waited). */
import { describe, expect, it, vi } from 'vitest';
import { jobs } from '../db/schema';
import { testDatabases } from '../db/testing';
import { LEASE_MS } from './jobs';
import { createScheduler, enqueue, type Scheduler } from './jobs.server';
import { deferred, HOUR, MINUTE, schedulerDatabase, T0, testClock } from './jobs.server.testing';

const databases = await testDatabases();

describe.each(databases)('scheduler on $name', (kind) => {
  const p = schedulerDatabase(kind);

  it('runs a recurring job once per slot across two workers racing for it, and records the winner', async () => {
    const time = testClock();
    const ran: { worker: string; slot: number }[] = [];
    const workers = ['worker-a', 'worker-b'];
    const schedulers = workers.map((workerId, i) => {
      const s = createScheduler({ db: p.dbs[i]!, logger: p.silent, workerId, clock: time.clock });
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
    const rows = await p.runsOf('tick');
    expect(rows.map((r) => ({ worker: r.worker, slot: r.slot }))).toEqual(ran);
    for (const r of rows) {
      expect(r.error).toBeNull();
      expect(r.finishedAt).not.toBeNull();
    }
    // The built-in daily cleanup ran once too, all these slots being in one day.
    expect(await p.runsOf('job-runs-cleanup')).toHaveLength(1);
  });

  it('drains 200 one-off jobs with 4 workers racing: each handler runs exactly once and every job ends done', async () => {
    const total = 200;
    const ids: number[] = [];
    for (let i = 0; i < total; i++) ids.push(await enqueue(p.db, { name: 'work', payload: { i }, runAt: new Date(T0 - total + i) }));
    expect(new Set(ids).size).toBe(total);
    const ranBy = new Map<number, string[]>();
    const payloads = new Map<number, unknown>();
    const now = new Date(T0);
    const schedulers = p.dbs.map((peerDb, k) => {
      const workerId = `worker-${k}`;
      const s = createScheduler({ db: peerDb, logger: p.silent, workerId, clock: () => now });
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
    const rows = await p.db.select().from(jobs);
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
    const a = createScheduler({ db: p.dbs[0]!, logger: p.silent, workerId: 'worker-a', clock: time.a.clock });
    const b = createScheduler({ db: p.dbs[1]!, logger: p.silent, workerId: 'worker-b', clock: time.b.clock });
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
    const id = await enqueue(p.db, { name: 'slow', key: 'slow-1', runAt: new Date(T0) });

    const aRun = a.runDue(time.a.set(T0));
    await vi.waitFor(() => expect(aStarted).toHaveBeenCalledTimes(1));
    expect(await p.jobRow(id)).toMatchObject({ lockedBy: 'worker-a', lockedUntil: new Date(T0 + LEASE_MS), attempts: 1, doneAt: null });
    // While the lease holds, B leaves it alone (up to and including its last instant).
    expect((await b.runDue(time.b.set(T0 + LEASE_MS - 1000))).jobs).toBe(0);
    expect((await b.runDue(time.b.set(T0 + LEASE_MS))).jobs).toBe(0);
    expect(bRan).toEqual([]);

    const takeover = T0 + LEASE_MS + 1000;
    expect((await b.runDue(time.b.set(takeover))).jobs).toBe(1);
    expect(bRan).toEqual([{ id, key: 'slow-1', attempts: 2 }]);
    expect(await p.jobRow(id)).toMatchObject({ doneAt: new Date(takeover), lockedBy: null, lockedUntil: null, attempts: 2, lastError: null });

    // A finally finishes, much later: its update is guarded by locked_by, so the row stays as B left it.
    time.a.set(takeover + 10 * MINUTE);
    hang.resolve();
    expect((await aRun).jobs).toBe(1);
    expect(await p.jobRow(id)).toMatchObject({ doneAt: new Date(takeover), lockedBy: null, attempts: 2, lastError: null });
    expect(aStarted).toHaveBeenCalledTimes(1);
    expect(bRan).toHaveLength(1);
    // Done once: nobody runs it again.
    expect((await b.runDue(time.b.set(T0 + 24 * HOUR))).jobs).toBe(0);
    expect((await a.runDue(time.a.set(T0 + 24 * HOUR))).jobs).toBe(0);
  });

  it("a late failure of the worker that lost its lease does not reschedule the new holder's job", async () => {
    const time = { a: testClock(), b: testClock() };
    const a = createScheduler({ db: p.dbs[0]!, logger: p.silent, workerId: 'worker-a', clock: time.a.clock });
    const b = createScheduler({ db: p.dbs[1]!, logger: p.silent, workerId: 'worker-b', clock: time.b.clock });
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
    const id = await enqueue(p.db, { name: 'slow', runAt: new Date(T0) });

    const aRun = a.runDue(time.a.set(T0));
    await vi.waitFor(() => expect(started.a).toHaveBeenCalledTimes(1));
    const takeover = T0 + LEASE_MS + 1000;
    const bRun = b.runDue(time.b.set(takeover));
    await vi.waitFor(() => expect(started.b).toHaveBeenCalledTimes(1));
    const held = { lockedBy: 'worker-b', lockedUntil: new Date(takeover + LEASE_MS), runAt: new Date(T0), attempts: 2, lastError: null, doneAt: null };
    expect(await p.jobRow(id)).toMatchObject(held);

    // A fails while B holds the job: A's failure update must not touch B's row.
    time.a.set(takeover + MINUTE);
    aHang.reject(new Error('late failure'));
    expect((await aRun).jobs).toBe(1);
    expect(await p.jobRow(id)).toMatchObject(held);

    time.b.set(takeover + 2 * MINUTE);
    bHang.resolve();
    expect((await bRun).jobs).toBe(1);
    expect(await p.jobRow(id)).toMatchObject({ doneAt: new Date(takeover + 2 * MINUTE), lockedBy: null, lastError: null, attempts: 2 });
  });

  it('a job claimed in a batch behind a slow one is not run by its first worker once another took it over', async () => {
    const time = { a: testClock(), b: testClock() };
    const a = createScheduler({ db: p.dbs[0]!, logger: p.silent, workerId: 'worker-a', clock: time.a.clock });
    const b = createScheduler({ db: p.dbs[1]!, logger: p.silent, workerId: 'worker-b', clock: time.b.clock });
    const hang = deferred();
    const ran: { worker: string; n: unknown }[] = [];
    a.handle('batch', async (payload) => {
      ran.push({ worker: 'worker-a', n: (payload as { n: number }).n });
      if ((payload as { n: number }).n === 1) await hang.promise;
    });
    b.handle('batch', async (payload) => {
      ran.push({ worker: 'worker-b', n: (payload as { n: number }).n });
    });
    const first = await enqueue(p.db, { name: 'batch', payload: { n: 1 }, runAt: new Date(T0 - 1) });
    const second = await enqueue(p.db, { name: 'batch', payload: { n: 2 }, runAt: new Date(T0) });

    // A claims both and hangs on the first; the second waits behind it while A's lease runs out.
    const aRun = a.runDue(time.a.set(T0));
    await vi.waitFor(() => expect(ran).toEqual([{ worker: 'worker-a', n: 1 }]));
    expect((await p.jobRow(second)).lockedBy).toBe('worker-a');
    const takeover = T0 + LEASE_MS + 1000;
    expect((await b.runDue(time.b.set(takeover))).jobs).toBe(2);
    for (const id of [first, second]) expect(await p.jobRow(id)).toMatchObject({ doneAt: new Date(takeover), lockedBy: null });

    // A gets past the slow job: the second is no longer A's, so A must not run it again.
    time.a.set(takeover + MINUTE);
    hang.resolve();
    await aRun;
    expect(ran).toEqual([
      { worker: 'worker-a', n: 1 },
      { worker: 'worker-b', n: 1 },
      { worker: 'worker-b', n: 2 },
    ]);
    expect(await p.jobRow(second)).toMatchObject({ doneAt: new Date(takeover), lockedBy: null, attempts: 2 });
  });

});
