/** The scheduler's own work and life: the session purge across two workers, and stop() finishing running work. */
import { describe, expect, it, vi } from 'vitest';
import { asc } from 'drizzle-orm';
import { jobRuns, sessions, users } from '../db/schema';
import { testDatabases } from '../db/testing';
import { createSession, hashToken, SESSION_TTL_MS } from '../identity/session.server';
import { createScheduler } from './jobs.server';
import { registerSessionPurge } from './session-purge.server';
import { capturingLogger, deferred, HOUR, MINUTE, schedulerDatabase, T0, testClock } from './jobs.server.testing';

const databases = await testDatabases();

describe.each(databases)('scheduler on $name', (kind) => {
  const p = schedulerDatabase(kind);

  it('purges expired sessions and keeps live ones, once across two workers', async () => {
    const userIds = (await p.db.select({ id: users.id }).from(users).orderBy(asc(users.id)).limit(2)).map((u) => u.id);
    expect(userIds).toHaveLength(2);
    const [u1, u2] = userIds as [number, number];
    // createSession(…, createdAt) expires SESSION_TTL_MS later.
    const expiringAt = (ms: number) => new Date(ms - SESSION_TTL_MS);
    const expired = [
      await createSession(p.db, { kind: 'user', userId: u1 }, expiringAt(T0 - 2 * HOUR)),
      await createSession(p.db, { kind: 'user', userId: u2 }, expiringAt(T0 - 1)),
    ];
    const live = await createSession(p.db, { kind: 'user', userId: u1 }, new Date(T0));
    const nextHour = await createSession(p.db, { kind: 'user', userId: u2 }, expiringAt(T0 + 30 * MINUTE));
    const stored = async () => (await p.db.select({ h: sessions.tokenHash }).from(sessions)).map((r) => r.h).sort();
    expect(await stored()).toHaveLength(4);

    const time = testClock();
    const loggers = [capturingLogger(), capturingLogger()];
    const schedulers = loggers.map(({ logger }, i) => {
      const s = createScheduler({ db: p.dbs[i]!, logger, workerId: `worker-${i}`, clock: time.clock });
      registerSessionPurge(s, p.dbs[i]!, logger);
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
    expect((await p.runsOf('session-purge')).map((r) => r.slot)).toEqual([T0 / HOUR, T0 / HOUR + 1]);
  });

  it('stop() waits for running work; a stopped scheduler does not start again', async () => {
    const time = testClock();
    const s = createScheduler({ db: p.db, logger: p.silent, workerId: 'worker-a', clock: time.clock, pollMs: 3_600_000 });
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
      for (let i = 0; i < 3; i++) await p.db.select().from(jobRuns);
      expect(stopped).toBe(false);
      time.set(T0 + MINUTE);
      hang.resolve();
      await stopping;
      expect(await p.runsOf('long')).toEqual([expect.objectContaining({ slot: T0 / HOUR, finishedAt: new Date(T0 + MINUTE), error: null })]);

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
