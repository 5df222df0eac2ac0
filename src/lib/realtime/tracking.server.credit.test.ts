/** Tracking credit: played seconds count only as real time passes, with one budget per person across every lesson (on every test database). */
import { describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { testDatabases } from '../db/testing';
import * as s from '../db/schema';
import { loadCatalog } from '../catalog';
import { directStore } from '../access/store.server';
import { readSession } from '../identity';
import { authorizeTracking, CREDIT_ALLOWANCE_SECONDS, MAX_PLAYBACK_RATE, Tracker, trackOverHttp } from '../learning';
import { trackingServer } from './tracking.server.testing';

const databases = await testDatabases();

describe.each(databases)('progress tracking on $name', ({ create }) => {
  const f = trackingServer(create);
  const { newLearner, connect, refusalOf, send, row, lessons, bitCount } = f;

  describe('credit: real time pays for played seconds', () => {
    const body = (o: unknown) => JSON.stringify(o);
    /** The fast-forward burst: play, then 1.5, 3, 4.5 … up to the end, then end. */
    const burst = (d: number) => {
      const steps: { event: string; Avance: number }[] = [{ event: 'tracking play', Avance: 0 }];
      for (let pos = 1.5; pos < d; pos += 1.5) steps.push({ event: 'tracking', Avance: pos });
      steps.push({ event: 'tracking end', Avance: d });
      return steps;
    };
    /** Most a lesson may have credited after `ms` of real time. */
    const cap = (ms: number) => CREDIT_ALLOWANCE_SECONDS + (MAX_PLAYBACK_RATE * ms) / 1000;

    it('a burst over the HTTP fallback completes no lesson, and looping it over course 31 does not unlock course 32', async () => {
      const t = new Tracker(f.handle.db, { maxWaitMs: 1 });
      const deps = { store: directStore(f.handle.db), tracker: t };
      const person = await newLearner('rafaga.http@example.com');
      const who = await readSession(f.handle.db, person.token);
      const course31 = (await loadCatalog(f.handle.db)).byId.get(31)!;
      // As fast as the flood limit lets one person go: 8 requests a second.
      let at = Date.now();
      for (const lesson of lessons(course31)) {
        const started = at;
        for (const step of burst(lesson.durationSeconds)) {
          at += 125;
          const res = await trackOverHttp(deps, who, body({ event: step.event, courseId: 31, payload: { Identificador: lesson.id, Avance: step.Avance } }), at);
          expect(res.status).toBe(200);
          expect(res.ack).toMatchObject({ ok: true, completed: false });
        }
        const stored = (await row(person.contactId, lesson.id))!;
        expect(stored.completedAt).toBeNull();
        expect(Number(stored.playedSeconds)).toBeLessThanOrEqual(cap(at - started));
      }
      expect(await authorizeTracking(directStore(f.handle.db), who, 32)).toEqual({ ok: false, error: 'forbidden' });
      expect(await refusalOf(person.token, 32)).toBe('forbidden');
      await t.close();
    });

    it('a burst over the socket completes no lesson; the same lesson played in real time does', async () => {
      const person = await newLearner('rafaga.socket@example.com');
      const socket = await connect(person.token, 1);
      const lesson = lessons(f.course1)[0]!;
      const d = lesson.durationSeconds;
      const acks = [];
      for (const step of burst(d)) {
        f.clock += 10;
        acks.push(await send(socket, step.event, { Identificador: lesson.id, Avance: step.Avance }));
      }
      expect(acks.every((a) => a.ok && !a.completed)).toBe(true);
      expect(acks.at(-1)).toMatchObject({ ok: true, furthest: d, completed: false });
      expect((await row(person.contactId, lesson.id))!.completedAt).toBeNull();
      expect(Number((await row(person.contactId, lesson.id))!.playedSeconds)).toBeLessThanOrEqual(cap(10 * burst(d).length));
      // Played for real (the f.clock moves as the video does), it completes.
      f.clock += 1000;
      await send(socket, 'tracking play', { Identificador: lesson.id, Avance: 0 });
      for (let pos = 5; pos < d; pos += 5) {
        f.clock += 5000;
        await send(socket, 'tracking', { Identificador: lesson.id, Avance: pos });
      }
      f.clock += (d - Math.floor((d - 0.001) / 5) * 5) * 1000;
      expect(await send(socket, 'tracking end', { Identificador: lesson.id, Avance: d })).toMatchObject({ ok: true, completed: true, played: Math.ceil(d) });
      socket.disconnect();
    });

    it('app processes share one budget: a burst spread over four of them credits no more than one may', async () => {
      const person = await newLearner('rafaga.procesos@example.com');
      const who = await readSession(f.handle.db, person.token);
      const processes = [1, 2, 3, 4].map(() => new Tracker(f.handle.db, { maxWaitMs: 1 }));
      const lesson = lessons(f.course2)[0]!;
      const d = lesson.durationSeconds;
      const quarter = d / 4;
      // Short enough for a quarter to look like play at 2× after a second (not like a seek).
      expect(quarter).toBeLessThanOrEqual(3.5);
      const post = (p: Tracker, event: string, Avance: number, at: number) =>
        trackOverHttp({ store: directStore(f.handle.db), tracker: p }, who, body({ event, courseId: 2, payload: { Identificador: lesson.id, Avance } }), at);
      // As a load balancer might spread them: each process hears a play at the start of one quarter…
      const t0 = Date.now();
      for (const [i, p] of processes.entries()) expect((await post(p, 'tracking play', i * quarter, t0)).status).toBe(200);
      // …and a second later a report at its end: each process alone would credit its quarter.
      for (const [i, p] of processes.entries()) expect((await post(p, 'tracking', (i + 1) * quarter, t0 + 1000)).status).toBe(200);
      const end = await post(processes.at(-1)!, 'tracking end', d, t0 + 1001);
      expect(end.ack).toMatchObject({ ok: true, completed: false });
      const stored = (await row(person.contactId, lesson.id))!;
      expect(stored.completedAt).toBeNull();
      expect(Number(stored.playedSeconds)).toBeLessThanOrEqual(cap(1001));
      expect(Number(stored.playedSeconds)).toBe(bitCount(stored.watched));
      await Promise.all(processes.map((p) => p.close()));
    });
  });

  describe('credit per person: one budget for every lesson at once', () => {
    const body = (o: unknown) => JSON.stringify(o);
    /** Most a person may have credited in all (every lesson, every course), `ms` of real time after their first report. */
    const personCap = (ms: number) => CREDIT_ALLOWANCE_SECONDS + (MAX_PLAYBACK_RATE * ms) / 1000;
    const course31 = async () => (await loadCatalog(f.handle.db)).byId.get(31)!;
    const storedRows = async (contactId: number, ids: number[]) => Promise.all(ids.map(async (id) => (await row(contactId, id)) ?? null));
    const totalPlayed = (rows: (s.Tracking | null)[]) => rows.reduce((sum, r) => sum + Number(r?.playedSeconds ?? 0), 0);

    it('parallel bursts over every lesson of course 31 through the HTTP fallback complete none and leave course 32 locked; the course played for real at 1×, then its exam passed, unlocks it', async () => {
      const t = new Tracker(f.handle.db, { maxWaitMs: 1 });
      const deps = { store: directStore(f.handle.db), tracker: t };
      const person = await newLearner('paralelo.http@example.com');
      const who = await readSession(f.handle.db, person.token);
      const all = lessons(await course31());
      expect(all.length).toBeGreaterThanOrEqual(8);
      let at = Date.now();
      const t0 = at;
      const post = async (lessonId: number, event: string, Avance: number) => {
        const res = await trackOverHttp(deps, who, body({ event, courseId: 31, payload: { Identificador: lessonId, Avance } }), at);
        expect(res.status).toBe(200);
        return res.ack;
      };
      // As fast as the flood limit lets one person go (8 requests a second): every lesson is played at
      // once, then each reports, round after round, 2.5 s further on, as a 2× player would 1.25 s
      // later, up to its end. Each lesson on its own is within what real time allows.
      const gap = 125;
      for (const lesson of all) {
        await post(lesson.id, 'tracking play', 0);
        at += gap;
      }
      for (let round = 1; round <= 4; round++) {
        for (const lesson of all) {
          const d = lesson.durationSeconds;
          const pos = Math.min(d, 1 + 2.5 * round);
          expect(await post(lesson.id, pos >= d ? 'tracking end' : 'tracking', pos)).toMatchObject({ ok: true, completed: false });
          at += gap;
        }
      }
      const rows = await storedRows(person.contactId, all.map((l) => l.id));
      expect(rows.map((r) => r?.completedAt ?? null)).toEqual(all.map(() => null));
      expect(totalPlayed(rows)).toBeLessThanOrEqual(personCap(at - gap - t0));
      expect(await authorizeTracking(directStore(f.handle.db), who, 32)).toEqual({ ok: false, error: 'forbidden' });
      expect(await refusalOf(person.token, 32)).toBe('forbidden');

      // The same person then plays the course for real at 1×, one lesson after the other: each one
      // completes; once the exam is passed too, course 32 opens.
      for (const lesson of all) {
        const d = lesson.durationSeconds;
        at += 2000;
        await post(lesson.id, 'tracking play', 0);
        let pos = 0;
        while (pos + 5 < d) {
          at += 5000;
          pos += 5;
          await post(lesson.id, 'tracking', pos);
        }
        at += Math.round((d - pos) * 1000);
        expect(await post(lesson.id, 'tracking end', d), lesson.code).toMatchObject({ ok: true, completed: true });
      }
      expect(await authorizeTracking(directStore(f.handle.db), who, 32)).toEqual({ ok: false, error: 'forbidden' });
      const [evaluation] = await f.handle.db.select().from(s.evaluations).where(eq(s.evaluations.courseId, 31));
      await f.handle.db
        .insert(s.examAttempts)
        .values({ evaluationId: evaluation!.id, contactId: person.contactId, attemptNumber: 1, questionIds: [], deadlineAt: new Date(), submittedAt: new Date(), score: 100, passed: true });
      expect(await authorizeTracking(directStore(f.handle.db), who, 32)).toMatchObject({ ok: true });
      await t.close();
    });

    it('parallel bursts over every lesson of course 31, one socket each, complete none and leave course 32 locked; a lesson played for real at 1× completes', async () => {
      const person = await newLearner('paralelo.socket@example.com');
      const all = lessons(await course31());
      const sockets = await Promise.all(all.map(() => connect(person.token, 31)));
      const t0 = f.clock;
      const acks = await Promise.all(all.map((l, i) => send(sockets[i]!, 'tracking play', { Identificador: l.id, Avance: 0 })));
      // Every second, every socket reports its lesson 2 s further on (a 2× player), all at once, up to
      // its end; each round starts with another lesson. Each lesson alone is within what real time allows.
      for (let round = 1; round <= 5; round++) {
        f.clock += 1000;
        const order = all.map((_, i) => (i + round) % all.length);
        acks.push(
          ...(await Promise.all(
            order.map((i) => {
              const lesson = all[i]!;
              const d = lesson.durationSeconds;
              const pos = Math.min(d, 1 + 2 * round);
              return send(sockets[i]!, pos >= d ? 'tracking end' : 'tracking', { Identificador: lesson.id, Avance: pos });
            }),
          )),
        );
      }
      expect(acks.every((a) => a.ok && !a.completed)).toBe(true);
      const rows = await storedRows(person.contactId, all.map((l) => l.id));
      expect(rows.map((r) => r?.completedAt ?? null)).toEqual(all.map(() => null));
      expect(totalPlayed(rows)).toBeLessThanOrEqual(personCap(f.clock - t0));
      expect(await refusalOf(person.token, 32)).toBe('forbidden');

      // One lesson played for real at 1×, on one socket, completes.
      const lesson = all[0]!;
      const d = lesson.durationSeconds;
      f.clock += 1000;
      await send(sockets[0]!, 'tracking play', { Identificador: lesson.id, Avance: 0 });
      let pos = 0;
      while (pos + 5 < d) {
        f.clock += 5000;
        pos += 5;
        await send(sockets[0]!, 'tracking', { Identificador: lesson.id, Avance: pos });
      }
      f.clock += Math.round((d - pos) * 1000);
      expect(await send(sockets[0]!, 'tracking end', { Identificador: lesson.id, Avance: d })).toMatchObject({ ok: true, completed: true, played: Math.ceil(d) });
      for (const socket of sockets) socket.disconnect();
    });

    it('app processes share one budget per person: four of them, each bursting its own lesson at the same time, credit no more than one may', async () => {
      const person = await newLearner('paralelo.procesos@example.com');
      const who = await readSession(f.handle.db, person.token);
      const processes = [1, 2, 3, 4].map(() => new Tracker(f.handle.db, { maxWaitMs: 1 }));
      const some = lessons(await course31()).slice(0, processes.length);
      const post = (i: number, event: string, Avance: number, at: number) =>
        trackOverHttp({ store: directStore(f.handle.db), tracker: processes[i]! }, who, body({ event, courseId: 31, payload: { Identificador: some[i]!.id, Avance } }), at);
      const t0 = Date.now();
      // Each process hears the play of its own lesson, then a second later 3.5 s further on (2× and the
      // allowance): each alone would credit 3 seconds. Sent at once, so their transactions overlap.
      expect((await Promise.all(processes.map((_, i) => post(i, 'tracking play', 0, t0)))).map((r) => r.status)).toEqual([200, 200, 200, 200]);
      const answers = await Promise.all(processes.map((_, i) => post(i, 'tracking', 3.5, t0 + 1000)));
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
      const rows = await storedRows(person.contactId, some.map((l) => l.id));
      expect(totalPlayed(rows)).toBeLessThanOrEqual(personCap(1000));
      // What each process answered is what was stored.
      expect(answers.map((r) => r.ack.ok && r.ack.played)).toEqual(rows.map((r) => Number(r!.playedSeconds)));
      for (const r of rows) expect(Number(r!.playedSeconds)).toBe(bitCount(r!.watched));
      await Promise.all(processes.map((p) => p.close()));
    });
  });


  it('keeps the played-seconds column equal to the coverage', async () => {
    const bad = await f.handle.db.execute(sql`select count(*)::int as n from tracking where watched is not null and played_seconds <> bit_count(watched)`);
    expect(Number((bad as unknown as { rows: { n: number }[] }).rows[0]!.n)).toBe(0);
  });
});
