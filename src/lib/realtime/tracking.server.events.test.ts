/** Tracking events over the socket end to end: what is stored, broadcast to a person's tabs (across processes with Redis) and refused. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { io as connectClient, type Socket as ClientSocket } from 'socket.io-client';
import { testDatabases } from '../db/testing';
import { createSession, destroySession, readSession } from '../identity';
import { adapterReady, attachRealtime } from './socket.server';
import { redisReachable } from '../testing/services';
import { SESSION_COOKIE } from '../http/page-cache';
import { trackingServer } from './tracking.server.testing';

const databases = await testDatabases();
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const redisUp = await redisReachable(redisUrl);

describe.each(databases)('progress tracking on $name', ({ create }) => {
  const f = trackingServer(create);
  const { people, uncached, connect, send, row, lessons, listen } = f;

  describe('events', () => {
    it('stores the last and furthest position of a played lesson and completes it at the end', async () => {
      const socket = await connect(people.learner.token, 1);
      const lesson = lessons(f.course1)[0]!;
      const d = lesson.durationSeconds;
      expect(d).toBeGreaterThan(5);
      expect(await send(socket, 'tracking play', { Identificador: lesson.id, IdEntidad: 3, IdContacto: people.learner.contactId, Avance: 0, Activo: true, CreadoPor: people.learner.userId })).toEqual({
        ok: true,
        Identificador: lesson.id,
        Avance: 0,
        furthest: 0,
        played: 0,
        completed: false,
      });
      f.clock += 4000;
      expect(await send(socket, 'tracking', { Identificador: lesson.id, IdEntidad: 3, Avance: 4, Activo: 1 })).toMatchObject({ ok: true, Avance: 4, furthest: 4, played: 4, completed: false });
      let stored = (await row(people.learner.contactId!, lesson.id))!;
      expect(stored).toMatchObject({ courseId: 1, lastPosition: '4.00', furthestPosition: '4.00', playedSeconds: '4.00', completedAt: null });
      expect(stored.watched).toBe('1111' + '0'.repeat(Math.ceil(d) - 4));

      // Going back: the last position follows, the furthest stays.
      f.clock += 1000;
      expect(await send(socket, 'tracking play', { Identificador: lesson.id, Avance: 2 })).toMatchObject({ ok: true, Avance: 2, furthest: 4 });
      f.clock += Math.ceil(d - 2) * 1000;
      const end = await send(socket, 'tracking end', { Identificador: lesson.id, Avance: d });
      expect(end).toMatchObject({ ok: true, Avance: d, furthest: d, completed: true });
      stored = (await row(people.learner.contactId!, lesson.id))!;
      expect(stored.completedAt).not.toBeNull();
      expect(Number(stored.playedSeconds)).toBe(Math.ceil(d));

      // Once completed, a lesson stays completed (watching it again does not undo it).
      f.clock += 1000;
      expect(await send(socket, 'tracking play', { Identificador: lesson.id, Avance: 0 })).toMatchObject({ ok: true, Avance: 0, completed: true });
      expect((await row(people.learner.contactId!, lesson.id))!.completedAt).toEqual(stored.completedAt);
      socket.disconnect();
    });

    it('does not complete a lesson whose end was reached by seeking', async () => {
      const socket = await connect(people.learner.token, 1);
      const lesson = lessons(f.course1)[1]!;
      await send(socket, 'tracking play', { Identificador: lesson.id, Avance: 0 });
      f.clock += 1000;
      const end = await send(socket, 'tracking end', { Identificador: lesson.id, Avance: lesson.durationSeconds });
      expect(end).toMatchObject({ ok: true, furthest: lesson.durationSeconds, played: 0, completed: false });
      expect((await row(people.learner.contactId!, lesson.id))!.completedAt).toBeNull();
      socket.disconnect();
    });

    it("answers the sender and tells the person's other tabs with `tracking`, and nobody else", async () => {
      const tabA = await connect(people.buyer.token, 1);
      const tabB = await connect(people.buyer.token, 1);
      const stranger = await connect(people.learner.token, 1);
      // The same person's tab on another course hears nothing of course 1.
      const elsewhere = await connect(people.buyer.token, 2);
      const [heardA, heardB, heardStranger, heardElsewhere] = [listen(tabA), listen(tabB), listen(stranger), listen(elsewhere)];
      const lesson = lessons(f.course1)[2]!;
      await send(tabA, 'tracking play', { Identificador: lesson.id, Avance: 1 });
      f.clock += 2000;
      await send(tabA, 'tracking', { Identificador: lesson.id, Avance: 3 });
      // …and what it sends on course 2 is not heard on course 1.
      expect(await send(elsewhere, 'tracking play', { Identificador: lessons(f.course2)[3]!.id, Avance: 1 })).toMatchObject({ ok: true });
      const told = [
        { Identificador: lesson.id, Avance: 1, completed: false },
        { Identificador: lesson.id, Avance: 3, completed: false },
      ];
      await vi.waitFor(() => expect(heardB).toEqual(told));
      await vi.waitFor(() => expect(heardElsewhere).toHaveLength(1));
      expect(heardA).toEqual(told);
      expect(heardB).toEqual(told);
      expect(heardStranger).toEqual([]);
      expect(heardElsewhere).toEqual([{ Identificador: lessons(f.course2)[3]!.id, Avance: 1, completed: false }]);
      elsewhere.disconnect();
      // The second tab resumes where the first one is, and continues from there.
      f.clock += 2000;
      expect(await send(tabB, 'tracking', { Identificador: lesson.id, Avance: 5 })).toMatchObject({ ok: true, Avance: 5, played: 4 });
      for (const s of [tabA, tabB, stranger]) s.disconnect();
    });

    it("refuses a forged IdContacto or CreadoPor and leaves the victim's progress alone", async () => {
      const victim = await connect(people.buyer.token, 1);
      const lesson = lessons(f.course1)[3]!;
      await send(victim, 'tracking play', { Identificador: lesson.id, Avance: 2 });
      const before = await row(people.buyer.contactId!, lesson.id);
      const attacker = await connect(people.learner.token, 1);
      expect(await send(attacker, 'tracking', { Identificador: lesson.id, IdContacto: people.buyer.contactId, Avance: 7 })).toEqual({ ok: false, error: 'forbidden' });
      expect(await send(attacker, 'tracking end', { Identificador: lesson.id, IdContacto: people.buyer.contactId, CreadoPor: people.buyer.userId, Avance: 7 })).toEqual({ ok: false, error: 'forbidden' });
      expect(await send(attacker, 'tracking', { Identificador: lesson.id, CreadoPor: people.buyer.userId, Avance: 7 })).toEqual({ ok: false, error: 'forbidden' });
      expect(await row(people.buyer.contactId!, lesson.id)).toEqual(before);
      expect(await row(people.learner.contactId!, lesson.id)).toBeUndefined();
      // An IBO session sends for its prospect, as the IBO's own user.
      const ibo = await connect(people.iboWithProspect.token, 1);
      expect(await send(ibo, 'tracking play', { Identificador: lesson.id, IdContacto: people.iboWithProspect.contactId, CreadoPor: people.iboWithProspect.userId, Avance: 1 })).toMatchObject({ ok: true });
      expect(await send(ibo, 'tracking play', { Identificador: lesson.id, CreadoPor: people.learner.userId, Avance: 1 })).toEqual({ ok: false, error: 'forbidden' });
      expect(await row(people.iboWithProspect.contactId!, lesson.id)).toMatchObject({ lastPosition: '1.00' });
      for (const s of [victim, attacker, ibo]) s.disconnect();
    });

    it('refuses or clamps malformed progress without hurting the socket or the stored row', async () => {
      const socket = await connect(people.learner.token, 1);
      const lesson = lessons(f.course1)[4] ?? lessons(f.course1)[0]!;
      const other = lessons(f.course2)[0]!;
      await send(socket, 'tracking play', { Identificador: lesson.id, Avance: 3 });
      const before = await row(people.learner.contactId!, lesson.id);
      const bad: unknown[] = [
        { Identificador: lesson.id, Avance: -1 },
        { Identificador: lesson.id, Avance: 1e12 },
        { Identificador: lesson.id, Avance: '5' },
        { Identificador: lesson.id, Avance: Number.NaN }, // sent as null
        { Identificador: lesson.id, Avance: Number.POSITIVE_INFINITY },
        { Avance: 5 },
        { Identificador: -3, Avance: 5 },
        { Identificador: 'x', Avance: 5 },
        { Identificador: lesson.id, Avance: 5, IdEntidad: 4 },
        { Identificador: lesson.id, Avance: 5, IdContacto: 'me' },
        null,
        'tracking',
        [lesson.id, 5],
        42,
      ];
      for (const payload of bad) expect(await send(socket, 'tracking', payload), JSON.stringify(payload)).toEqual({ ok: false, error: 'invalid' });
      expect(await row(people.learner.contactId!, lesson.id)).toEqual(before);
      // A lesson of another course, or of no course, is refused.
      expect(await send(socket, 'tracking', { Identificador: other.id, Avance: 2 })).toEqual({ ok: false, error: 'forbidden' });
      expect(await send(socket, 'tracking', { Identificador: 999_999, Avance: 2 })).toEqual({ ok: false, error: 'forbidden' });
      expect(await row(people.learner.contactId!, other.id)).toBeUndefined();
      // Events without an acknowledgement, or with junk instead of one, do not break the socket.
      socket.emit('tracking', { Identificador: lesson.id, Avance: 3 });
      socket.emit('tracking', { Identificador: lesson.id, Avance: 3 }, 'not a function');
      socket.emit('tracking');
      // Extra fields are ignored; a position beyond the lesson is clamped to its end.
      f.clock += 1000;
      const clamped = await send(socket, 'tracking', { Identificador: lesson.id, Avance: 86_400, Junk: { deep: [1, 2, 3] }, __proto__: { admin: true } });
      expect(clamped).toMatchObject({ ok: true, Avance: lesson.durationSeconds, furthest: lesson.durationSeconds, completed: false });
      expect(socket.connected).toBe(true);
      socket.disconnect();
    });

    it('limits a flooding socket without affecting anybody else', async () => {
      const flooder = await connect(people.learner.token, 1);
      const calm = await connect(people.buyer.token, 1);
      const lesson = lessons(f.course1)[0]!;
      const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => send(flooder, 'tracking', { Identificador: lesson.id, Avance: i % 5 })));
      const refused = answers.filter((a) => !a.ok && a.error === 'rate-limited').length;
      expect(answers.filter((a) => a.ok).length).toBe(20);
      expect(refused).toBe(40);
      expect(await send(calm, 'tracking', { Identificador: lesson.id, Avance: 1 })).toMatchObject({ ok: true });
      // Time refills the bucket.
      f.clock += 1000;
      expect(await send(flooder, 'tracking', { Identificador: lesson.id, Avance: 1 })).toMatchObject({ ok: true });
      for (const s of [flooder, calm]) s.disconnect();
    });

    it('ends a socket whose session was logged out, at the next check', async () => {
      const session = await createSession(f.handle.db, { kind: 'user', userId: people.learner.userId! });
      const socket = await connect(session.token, 1);
      const lesson = lessons(f.course1)[0]!;
      expect(await send(socket, 'tracking', { Identificador: lesson.id, Avance: 1 })).toMatchObject({ ok: true });
      await destroySession(f.handle.db, session.token);
      expect(await readSession(f.handle.db, session.token)).toBeNull();
      f.clock += 61_000;
      const disconnected = new Promise<string>((r) => socket.once('disconnect', (reason) => r(reason)));
      expect(await send(socket, 'tracking', { Identificador: lesson.id, Avance: 2 })).toEqual({ ok: false, error: 'unauthorized' });
      expect(await disconnected).toBe('io server disconnect');
    });
  });

  it.skipIf(!redisUp)("with Redis, a person's tabs on two app processes hear each other", async () => {
    const servers = [createServer(), createServer()];
    const ios = servers.map((h) => attachRealtime(h, f.runtime, { ...uncached(), now: () => f.clock, redisUrl }));
    await Promise.all(ios.map(adapterReady));
    const bases = await Promise.all(
      servers.map(async (h) => {
        await new Promise<void>((r) => h.listen(0, '127.0.0.1', r));
        return `http://127.0.0.1:${(h.address() as AddressInfo).port}`;
      }),
    );
    const at = (b: string, token: string) => {
      const socket = connectClient(b, { auth: { courseId: 1 }, extraHeaders: { cookie: `${SESSION_COOKIE}=${token}` }, reconnection: false, forceNew: true });
      f.open.push(socket);
      return new Promise<ClientSocket>((resolve, reject) => {
        socket.once('connect', () => resolve(socket));
        socket.once('connect_error', reject);
      });
    };
    const tabA = await at(bases[0]!, people.buyer.token);
    const tabB = await at(bases[1]!, people.buyer.token);
    const stranger = await at(bases[1]!, people.learner.token);
    const [heardB, heardStranger] = [listen(tabB), listen(stranger)];
    const lesson = lessons(f.course1)[4] ?? lessons(f.course1)[0]!;
    f.clock += 1000;
    expect(await send(tabA, 'tracking play', { Identificador: lesson.id, Avance: 2 })).toMatchObject({ ok: true });
    // The other tab's process hears it through the bus; the stranger, connected there too, would have by then.
    await expect.poll(() => heardB).toEqual([{ Identificador: lesson.id, Avance: 2, completed: false }]);
    expect(heardStranger).toEqual([]);
    for (const s of [tabA, tabB, stranger]) s.disconnect();
    await Promise.all(ios.map((i) => new Promise<void>((r) => i.close(() => r()))));
  });
});
