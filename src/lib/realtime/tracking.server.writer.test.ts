/** The batched tracking writer and the HTTP fallback: everything acknowledged is written, floods are limited (on every test database). */
import { describe, expect, it } from 'vitest';
import { testDatabases } from '../db/testing';
import { directStore } from '../access/store.server';
import { readSession } from '../identity';
import { CREDIT_ALLOWANCE_SECONDS, MAX_PLAYBACK_RATE, MAX_STATEMENTS_PER_CHUNK, Tracker, trackOverHttp, type TrackingAck } from '../learning';
import { trackingServer } from './tracking.server.testing';

const databases = await testDatabases();

describe.each(databases)('progress tracking on $name', ({ create }) => {
  const f = trackingServer(create);
  const { people, newLearner, connect, row, lessons, listen } = f;

  describe('writer', () => {
    it('writes everything acknowledged when closed, in few statements', async () => {
      const lazy = new Tracker(f.handle.db, { maxWaitMs: 60_000 });
      const lesson = lessons(f.course1)[1]!;
      const contacts = [people.learner.contactId!, people.buyer.contactId!, people.other.contactId!];
      const acks = contacts.map((c, i) => lazy.track({ contactId: c, createdBy: null }, f.course1, 'tracking play', { Identificador: lesson.id, Avance: 1 + i }, f.clock));
      await expect.poll(() => lazy.writer.pending).toBe(3);
      await lazy.close();
      expect((await Promise.all(acks)).map((a) => a.ok && a.Avance)).toEqual([1, 2, 3]);
      expect(lazy.writer.stats.transactions).toBe(1);
      expect(lazy.writer.stats.statements).toBeLessThanOrEqual(MAX_STATEMENTS_PER_CHUNK);
      for (const [i, c] of contacts.entries()) expect((await row(c, lesson.id))!.lastPosition).toBe(`${1 + i}.00`);
      // A closed tracker refuses new events instead of losing them silently.
      expect(await lazy.track({ contactId: contacts[0]!, createdBy: null }, f.course1, 'tracking', { Identificador: lesson.id, Avance: 1 }, f.clock)).toEqual({ ok: false, error: 'unavailable' });
    });

    it('coalesces events of one person and lesson into one row write', async () => {
      const t = new Tracker(f.handle.db, { maxWaitMs: 50 });
      const lesson = lessons(f.course1)[2]!;
      const who = { contactId: people.other.contactId!, createdBy: null };
      const acks = await Promise.all([1, 2, 3].map((a) => t.track(who, f.course1, 'tracking play', { Identificador: lesson.id, Avance: a }, f.clock)));
      expect(acks.every((a) => a.ok && a.Avance === 3)).toBe(true);
      expect(t.writer.stats).toMatchObject({ writes: 3, rows: 1, transactions: 1 });
      await t.close();
    });

    it("writes many people's played seconds in one transaction of a few statements, whatever their number (no read per event)", async () => {
      const lazy = new Tracker(f.handle.db, { maxWaitMs: 60_000 });
      const learners = await Promise.all([1, 2, 3, 4, 5, 6].map((i) => newLearner(`lote${i}@example.com`)));
      const [a, b] = [lessons(f.course1)[0]!, lessons(f.course1)[1]!];
      const t0 = f.clock;
      const acks: Promise<TrackingAck>[] = [];
      for (const p of learners) {
        const who = { contactId: p.contactId, createdBy: null };
        for (const lesson of [a, b]) {
          acks.push(lazy.track(who, f.course1, 'tracking play', { Identificador: lesson.id, Avance: 0 }, t0));
          acks.push(lazy.track(who, f.course1, 'tracking', { Identificador: lesson.id, Avance: 4 }, t0 + 2000));
        }
      }
      await expect.poll(() => lazy.writer.pending).toBe(learners.length * 2);
      await lazy.close();
      expect((await Promise.all(acks)).every((ack) => ack.ok)).toBe(true);
      expect(lazy.writer.stats).toMatchObject({ rows: learners.length * 2, transactions: 1 });
      expect(lazy.writer.stats.statements).toBeLessThanOrEqual(MAX_STATEMENTS_PER_CHUNK);
      // Two lessons at once, 4 s of each in 2 s: each person is credited what 2 s at 2× pay for, no more.
      for (const p of learners) {
        const played = Number((await row(p.contactId, a.id))!.playedSeconds) + Number((await row(p.contactId, b.id))!.playedSeconds);
        expect(played).toBe(Math.floor(CREDIT_ALLOWANCE_SECONDS + MAX_PLAYBACK_RATE * 2));
      }
    });

    it('merges the seconds played through two processes instead of losing either', async () => {
      const lesson = lessons(f.course1)[3]!;
      const who = { contactId: (await newLearner('dos.procesos@example.com')).contactId, createdBy: null };
      const [p1, p2] = [new Tracker(f.handle.db, { maxWaitMs: 1 }), new Tracker(f.handle.db, { maxWaitMs: 1 })];
      const t0 = f.clock;
      await p1.track(who, f.course1, 'tracking play', { Identificador: lesson.id, Avance: 0 }, t0);
      await p2.track(who, f.course1, 'tracking play', { Identificador: lesson.id, Avance: 4 }, t0);
      await p1.track(who, f.course1, 'tracking', { Identificador: lesson.id, Avance: 2 }, t0 + 2000);
      const last = await p2.track(who, f.course1, 'tracking', { Identificador: lesson.id, Avance: 6 }, t0 + 2000);
      expect(last).toMatchObject({ ok: true, Avance: 6, furthest: 6, played: 4 });
      const stored = (await row(who.contactId, lesson.id))!;
      expect(stored.watched).toBe('110011' + '0'.repeat(Math.ceil(lesson.durationSeconds) - 6));
      await Promise.all([p1.close(), p2.close()]);
    });

    it('after a restart, the seconds played before still count towards completion', async () => {
      const lesson = lessons(f.course2)[1]!;
      const d = lesson.durationSeconds;
      const who = { contactId: (await newLearner('reinicio@example.com')).contactId, createdBy: null };
      const t0 = f.clock;
      const before = new Tracker(f.handle.db, { maxWaitMs: 1 });
      await before.track(who, f.course2, 'tracking play', { Identificador: lesson.id, Avance: 0 }, t0);
      const mid = await before.track(who, f.course2, 'tracking', { Identificador: lesson.id, Avance: d - 1 }, t0 + (d - 1) * 1000);
      expect(mid).toMatchObject({ ok: true, completed: false, played: Math.ceil(d - 1) });
      await before.close();
      // A new process hears only the end: it reads what was stored before deciding.
      const after = new Tracker(f.handle.db, { maxWaitMs: 1 });
      const later = t0 + 1_000_000;
      expect(await after.track(who, f.course2, 'tracking end', { Identificador: lesson.id, Avance: d }, later)).toMatchObject({ ok: true, completed: true, furthest: d });
      // And a first ordinary event of a new process merges with what is stored instead of replacing it.
      const other = lessons(f.course2)[2]!;
      await after.track(who, f.course2, 'tracking play', { Identificador: other.id, Avance: 0 }, later + 1000);
      await after.track(who, f.course2, 'tracking', { Identificador: other.id, Avance: 3 }, later + 4000);
      await after.close();
      const third = new Tracker(f.handle.db, { maxWaitMs: 1 });
      expect(await third.track(who, f.course2, 'tracking play', { Identificador: other.id, Avance: 1 }, later + 5000)).toMatchObject({ ok: true, Avance: 1, furthest: 3, played: 3 });
      await third.close();
    });

    it('one bad row does not fail the others written with it', async () => {
      const t = new Tracker(f.handle.db, { maxWaitMs: 20 });
      const lesson = lessons(f.course1)[0]!;
      const [good, gone] = await Promise.all([
        t.track({ contactId: people.other.contactId!, createdBy: null }, f.course1, 'tracking play', { Identificador: lesson.id, Avance: 2 }, f.clock),
        t.track({ contactId: 987_654, createdBy: null }, f.course1, 'tracking play', { Identificador: lesson.id, Avance: 2 }, f.clock),
      ]);
      expect(good).toMatchObject({ ok: true, Avance: 2 });
      expect(gone).toEqual({ ok: false, error: 'unavailable' });
      await t.close();
    });
  });

  describe('HTTP fallback', () => {
    const session = (token: string) => readSession(f.handle.db, token);
    const body = (o: unknown) => JSON.stringify(o);

    it('applies the same rules and answers with HTTP statuses', async () => {
      const t = new Tracker(f.handle.db, { maxWaitMs: 1 });
      const deps = { store: directStore(f.handle.db), tracker: t };
      const learner = await session(people.learner.token);
      const lesson = lessons(f.course2)[0]!;
      const ok = await trackOverHttp(deps, learner, body({ event: 'tracking play', courseId: 2, payload: { Identificador: lesson.id, Avance: 2.5 } }), f.clock);
      expect(ok).toMatchObject({ status: 200, ack: { ok: true, Identificador: lesson.id, Avance: 2.5 } });
      expect((await row(people.learner.contactId!, lesson.id))!.lastPosition).toBe('2.50');
      expect((await trackOverHttp(deps, null, body({ event: 'tracking', courseId: 2, payload: { Identificador: lesson.id, Avance: 3 } }))).status).toBe(401);
      expect((await trackOverHttp(deps, await session(people.iboWithout.token), body({ event: 'tracking', courseId: 2, payload: { Identificador: lesson.id, Avance: 3 } }))).status).toBe(401);
      for (const junk of ['', 'not json', '{"event":"tracking"}', body({ event: 'tracking', courseId: 2, payload: { Identificador: lesson.id, Avance: -5 } }), body({ event: 'x', courseId: 2, payload: {} }), 'x'.repeat(5000)]) {
        expect((await trackOverHttp(deps, learner, junk, f.clock)).status, junk.slice(0, 40)).toBe(400);
      }
      expect((await trackOverHttp(deps, learner, body({ event: 'tracking', courseId: 6, payload: { Identificador: lesson.id, Avance: 3 } }), f.clock)).status).toBe(403);
      expect((await trackOverHttp(deps, learner, body({ event: 'tracking', courseId: 1, payload: { Identificador: lesson.id, Avance: 3 } }), f.clock)).status).toBe(403);
      expect((await trackOverHttp(deps, learner, body({ event: 'tracking', courseId: 2, payload: { Identificador: lesson.id, IdContacto: people.buyer.contactId, Avance: 3 } }), f.clock)).status).toBe(403);
      await t.close();
    });

    it('limits one person flooding it, and tells their open sockets', async () => {
      const lesson = lessons(f.course1)[1]!;
      const tab = await connect(people.buyer.token, 1);
      const heard = listen(tab);
      const elsewhere = await connect(people.buyer.token, 2);
      const heardElsewhere = listen(elsewhere);
      const buyer = await session(people.buyer.token);
      // The socket's own tracker: what the HTTP fallback stores reaches the person's sockets.
      const statuses: number[] = [];
      for (let i = 0; i < 25; i++) statuses.push((await trackOverHttp({ store: directStore(f.handle.db), tracker: f.tracker }, buyer, body({ event: 'tracking play', courseId: 1, payload: { Identificador: lesson.id, Avance: 1 } }), f.clock)).status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(20);
      expect(statuses.filter((s) => s === 429)).toHaveLength(5);
      await expect.poll(() => heard.length).toBe(20);
      expect(heard[0]).toEqual({ Identificador: lesson.id, Avance: 1, completed: false });
      // Only the tabs of that course: the person's tab on course 2 heard nothing.
      expect(heardElsewhere).toEqual([]);
      elsewhere.disconnect();
      // Another person is not limited by it.
      const learner = await session(people.learner.token);
      expect((await trackOverHttp({ store: directStore(f.handle.db), tracker: f.tracker }, learner, body({ event: 'tracking play', courseId: 1, payload: { Identificador: lesson.id, Avance: 1 } }), f.clock)).status).toBe(200);
      tab.disconnect();
    });
  });


});
