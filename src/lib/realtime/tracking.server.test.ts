/**
 * The progress-tracking protocol end to end: a real HTTP server with socket.io and the tracking
 * handlers, real socket.io clients carrying session cookies, on every test database.
 */
import { createServer, request as httpRequest, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { io as connectClient, type ManagerOptions, type SocketOptions, type Socket as ClientSocket } from 'socket.io-client';
import type { Server } from 'socket.io';
import { testDatabases } from '../db/testing';
import type { DbHandle } from '../db/client';
import * as s from '../db/schema';
import { loadCatalog, type CatalogCourse } from '../catalog';
import { directStore } from '../access/store.server';
import { testRuntime } from '../testing/runtime';
import type { Runtime } from '../runtime/runtime.server';
import { createSession, destroySession, findActiveIbo, hashToken, readSession, setSessionProspect } from '../identity';
import { SESSION_COOKIE } from '../http/page-cache';
import { authorizeTracking, CREDIT_ALLOWANCE_SECONDS, MAX_PLAYBACK_RATE, MAX_STATEMENTS_PER_CHUNK, Tracker, trackOverHttp, type TrackingAck, type TrackingBroadcast } from '../learning';
import { adapterReady, attachRealtime } from './socket.server';
import { redisReachable } from '../testing/services';

const databases = await testDatabases();
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const redisUp = await redisReachable(redisUrl);

describe.each(databases)('progress tracking on $name', ({ create }) => {
  let handle: DbHandle;
  let http: HttpServer;
  let io: Server;
  let tracker: Tracker;
  let runtime: Runtime;
  let base: string;
  /** The server's clock: tests move it instead of waiting. */
  let clock = Date.now();
  const open: ClientSocket[] = [];

  let course1: CatalogCourse;
  let course2: CatalogCourse;
  const people = {} as Record<'learner' | 'buyer' | 'iboWithProspect' | 'iboWithout' | 'other', { token: string; contactId: number | null; userId: number | null }>;

  const userId = async (email: string) => (await handle.db.select().from(s.users).where(eq(s.users.email, email)))[0]!.id;
  const contactOf = async (uid: number) => (await handle.db.select().from(s.contacts).where(eq(s.contacts.userId, uid)))[0]!.id;
  const learnerSession = async (email: string) => {
    const uid = await userId(email);
    const { token } = await createSession(handle.db, { kind: 'user', userId: uid });
    return { token, userId: uid, contactId: await contactOf(uid) };
  };
  /** A new learner of their own (nothing played yet), logged in. */
  const newLearner = async (email: string) => {
    const [user] = await handle.db.insert(s.users).values({ email, firstName: 'Nueva', lastName: 'Persona' }).returning();
    await handle.db.insert(s.contacts).values({ userId: user!.id, firstName: 'Nueva', lastName: 'Persona', email });
    return learnerSession(email);
  };

  beforeAll(async () => {
    handle = await create({ seed: true });
    runtime = await testRuntime(handle);
    const catalog = await loadCatalog(handle.db);
    course1 = catalog.byId.get(1)!;
    course2 = catalog.byId.get(2)!;
    people.learner = await learnerSession('learner@academia.example');
    people.buyer = await learnerSession('buyer@academia.example');
    people.other = await learnerSession('admin@academia.example');
    const ibo = (await findActiveIbo(handle.db, 'HORIZONTE01'))!;
    const without = await createSession(handle.db, { kind: 'ibo', iboId: ibo.id });
    people.iboWithout = { token: without.token, contactId: null, userId: ibo.userId };
    const [prospect] = await handle.db.insert(s.contacts).values({ firstName: 'Pía', lastName: 'Prospecto', email: 'pia.prospecto@example.com', iboId: ibo.id }).returning();
    const withProspect = await createSession(handle.db, { kind: 'ibo', iboId: ibo.id });
    await setSessionProspect(handle.db, hashToken(withProspect.token), prospect!.id);
    people.iboWithProspect = { token: withProspect.token, contactId: prospect!.id, userId: ibo.userId };

    tracker = new Tracker(handle.db, { maxWaitMs: 2 });
    http = createServer();
    io = attachRealtime(http, runtime, { ...uncached(), now: () => clock, redisUrl: null });
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    for (const c of open) c.disconnect();
    await new Promise<void>((r) => io.close(() => r()));
    await tracker?.close();
    await runtime?.close();
    await handle?.close();
  });

  /** This test's tracker, reading access and sessions straight from the database (no caches to wait out). */
  function uncached() {
    return { tracker, store: directStore(handle.db), sessions: { read: (token: string | undefined) => readSession(handle.db, token) } };
  }

  /**
   * Connects as a session (or none) for a course; resolves once connected, rejects with the refusal.
   * `headers` are sent with every request of the handshake (an `origin`, say), over `transports`.
   */
  function connect(token: string | null, courseId: unknown, more: { headers?: Record<string, string>; transports?: ManagerOptions['transports']; at?: string } = {}): Promise<ClientSocket> {
    const options: Partial<ManagerOptions & SocketOptions> = {
      auth: courseId === undefined ? {} : { courseId },
      extraHeaders: { ...(token ? { cookie: `theme=dark; ${SESSION_COOKIE}=${token}` } : {}), ...more.headers },
      reconnection: false,
      forceNew: true,
    };
    if (more.transports) options.transports = more.transports;
    const socket = connectClient(more.at ?? base, options);
    open.push(socket);
    return new Promise((resolve, reject) => {
      socket.once('connect', () => resolve(socket));
      socket.once('connect_error', (err) => {
        socket.disconnect();
        reject(err);
      });
    });
  }
  const refusalOf = (token: string | null, courseId: unknown) =>
    connect(token, courseId).then(
      () => 'connected',
      (err: Error) => err.message,
    );
  const send = (socket: ClientSocket, event: string, payload: unknown) => socket.timeout(5000).emitWithAck(event, payload) as Promise<TrackingAck>;
  const row = async (contactId: number, lessonId: number) =>
    (await handle.db.select().from(s.tracking).where(and(eq(s.tracking.contactId, contactId), eq(s.tracking.subtopicId, lessonId))))[0];
  const lessons = (c: CatalogCourse) => c.modules.flatMap((m) => m.lessons);
  /** Collects the `tracking` broadcasts a socket hears. */
  const listen = (socket: ClientSocket) => {
    const heard: TrackingBroadcast[] = [];
    socket.on('tracking', (m: TrackingBroadcast) => heard.push(m));
    return heard;
  };
  const settle = (ms = 150) => new Promise((r) => setTimeout(r, ms));
  const bitCount = (bits: string | null) => [...(bits ?? '')].filter((b) => b === '1').length;

  describe('connection', () => {
    it('refuses a socket without a valid session, or without a person to track', async () => {
      expect(await refusalOf(null, 1)).toBe('unauthorized');
      expect(await refusalOf('forged-token', 1)).toBe('unauthorized');
      expect(await refusalOf(people.iboWithout.token, 1)).toBe('unauthorized');
    });

    it('refuses a course id that is not one', async () => {
      for (const bad of [undefined, 'abc', -1, 0, 1.5, '1; drop table tracking', { id: 1 }]) expect(await refusalOf(people.learner.token, bad), String(bad)).toBe('invalid');
    });

    it('refuses courses the access rules refuse this person', async () => {
      expect(await refusalOf(people.learner.token, 999)).toBe('forbidden'); // unknown
      expect(await refusalOf(people.learner.token, 6)).toBe('forbidden'); // paid, not bought
      expect(await refusalOf(people.learner.token, 10)).toBe('forbidden'); // buyers only
      expect(await refusalOf(people.learner.token, 32)).toBe('forbidden'); // needs course 31 completed
      expect(await refusalOf(people.learner.token, 12)).toBe('forbidden'); // hidden test course
      expect(await refusalOf(people.iboWithProspect.token, 6)).toBe('forbidden'); // guests: free courses only
    });

    it('lets in the people the access rules allow', async () => {
      expect(await refusalOf(people.learner.token, 1)).toBe('connected');
      expect(await refusalOf(people.learner.token, '1')).toBe('connected');
      expect(await refusalOf(people.buyer.token, 10)).toBe('connected');
      expect(await refusalOf(people.buyer.token, 6)).toBe('connected');
      expect(await refusalOf(people.iboWithProspect.token, 1)).toBe('connected');
    });
  });

  describe('events', () => {
    it('stores the last and furthest position of a played lesson and completes it at the end', async () => {
      const socket = await connect(people.learner.token, 1);
      const lesson = lessons(course1)[0]!;
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
      clock += 4000;
      expect(await send(socket, 'tracking', { Identificador: lesson.id, IdEntidad: 3, Avance: 4, Activo: 1 })).toMatchObject({ ok: true, Avance: 4, furthest: 4, played: 4, completed: false });
      let stored = (await row(people.learner.contactId!, lesson.id))!;
      expect(stored).toMatchObject({ courseId: 1, lastPosition: '4.00', furthestPosition: '4.00', playedSeconds: '4.00', completedAt: null });
      expect(stored.watched).toBe('1111' + '0'.repeat(Math.ceil(d) - 4));

      // Going back: the last position follows, the furthest stays.
      clock += 1000;
      expect(await send(socket, 'tracking play', { Identificador: lesson.id, Avance: 2 })).toMatchObject({ ok: true, Avance: 2, furthest: 4 });
      clock += Math.ceil(d - 2) * 1000;
      const end = await send(socket, 'tracking end', { Identificador: lesson.id, Avance: d });
      expect(end).toMatchObject({ ok: true, Avance: d, furthest: d, completed: true });
      stored = (await row(people.learner.contactId!, lesson.id))!;
      expect(stored.completedAt).not.toBeNull();
      expect(Number(stored.playedSeconds)).toBe(Math.ceil(d));

      // Once completed, a lesson stays completed (watching it again does not undo it).
      clock += 1000;
      expect(await send(socket, 'tracking play', { Identificador: lesson.id, Avance: 0 })).toMatchObject({ ok: true, Avance: 0, completed: true });
      expect((await row(people.learner.contactId!, lesson.id))!.completedAt).toEqual(stored.completedAt);
      socket.disconnect();
    });

    it('does not complete a lesson whose end was reached by seeking', async () => {
      const socket = await connect(people.learner.token, 1);
      const lesson = lessons(course1)[1]!;
      await send(socket, 'tracking play', { Identificador: lesson.id, Avance: 0 });
      clock += 1000;
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
      const lesson = lessons(course1)[2]!;
      await send(tabA, 'tracking play', { Identificador: lesson.id, Avance: 1 });
      clock += 2000;
      await send(tabA, 'tracking', { Identificador: lesson.id, Avance: 3 });
      // …and what it sends on course 2 is not heard on course 1.
      expect(await send(elsewhere, 'tracking play', { Identificador: lessons(course2)[3]!.id, Avance: 1 })).toMatchObject({ ok: true });
      const told = [
        { Identificador: lesson.id, Avance: 1, completed: false },
        { Identificador: lesson.id, Avance: 3, completed: false },
      ];
      await vi.waitFor(() => expect(heardB).toEqual(told));
      await vi.waitFor(() => expect(heardElsewhere).toHaveLength(1));
      expect(heardA).toEqual(told);
      expect(heardB).toEqual(told);
      expect(heardStranger).toEqual([]);
      expect(heardElsewhere).toEqual([{ Identificador: lessons(course2)[3]!.id, Avance: 1, completed: false }]);
      elsewhere.disconnect();
      // The second tab resumes where the first one is, and continues from there.
      clock += 2000;
      expect(await send(tabB, 'tracking', { Identificador: lesson.id, Avance: 5 })).toMatchObject({ ok: true, Avance: 5, played: 4 });
      for (const s of [tabA, tabB, stranger]) s.disconnect();
    });

    it("refuses a forged IdContacto or CreadoPor and leaves the victim's progress alone", async () => {
      const victim = await connect(people.buyer.token, 1);
      const lesson = lessons(course1)[3]!;
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
      const lesson = lessons(course1)[4] ?? lessons(course1)[0]!;
      const other = lessons(course2)[0]!;
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
      clock += 1000;
      const clamped = await send(socket, 'tracking', { Identificador: lesson.id, Avance: 86_400, Junk: { deep: [1, 2, 3] }, __proto__: { admin: true } });
      expect(clamped).toMatchObject({ ok: true, Avance: lesson.durationSeconds, furthest: lesson.durationSeconds, completed: false });
      expect(socket.connected).toBe(true);
      socket.disconnect();
    });

    it('limits a flooding socket without affecting anybody else', async () => {
      const flooder = await connect(people.learner.token, 1);
      const calm = await connect(people.buyer.token, 1);
      const lesson = lessons(course1)[0]!;
      const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => send(flooder, 'tracking', { Identificador: lesson.id, Avance: i % 5 })));
      const refused = answers.filter((a) => !a.ok && a.error === 'rate-limited').length;
      expect(answers.filter((a) => a.ok).length).toBe(20);
      expect(refused).toBe(40);
      expect(await send(calm, 'tracking', { Identificador: lesson.id, Avance: 1 })).toMatchObject({ ok: true });
      // Time refills the bucket.
      clock += 1000;
      expect(await send(flooder, 'tracking', { Identificador: lesson.id, Avance: 1 })).toMatchObject({ ok: true });
      for (const s of [flooder, calm]) s.disconnect();
    });

    it('ends a socket whose session was logged out, at the next check', async () => {
      const session = await createSession(handle.db, { kind: 'user', userId: people.learner.userId! });
      const socket = await connect(session.token, 1);
      const lesson = lessons(course1)[0]!;
      expect(await send(socket, 'tracking', { Identificador: lesson.id, Avance: 1 })).toMatchObject({ ok: true });
      await destroySession(handle.db, session.token);
      expect(await readSession(handle.db, session.token)).toBeNull();
      clock += 61_000;
      const disconnected = new Promise<string>((r) => socket.once('disconnect', (reason) => r(reason)));
      expect(await send(socket, 'tracking', { Identificador: lesson.id, Avance: 2 })).toEqual({ ok: false, error: 'unauthorized' });
      expect(await disconnected).toBe('io server disconnect');
    });
  });

  describe('writer', () => {
    it('writes everything acknowledged when closed, in few statements', async () => {
      const lazy = new Tracker(handle.db, { maxWaitMs: 60_000 });
      const lesson = lessons(course1)[1]!;
      const contacts = [people.learner.contactId!, people.buyer.contactId!, people.other.contactId!];
      const acks = contacts.map((c, i) => lazy.track({ contactId: c, createdBy: null }, course1, 'tracking play', { Identificador: lesson.id, Avance: 1 + i }, clock));
      await settle(50);
      expect(lazy.writer.pending).toBe(3);
      await lazy.close();
      expect((await Promise.all(acks)).map((a) => a.ok && a.Avance)).toEqual([1, 2, 3]);
      expect(lazy.writer.stats.transactions).toBe(1);
      expect(lazy.writer.stats.statements).toBeLessThanOrEqual(MAX_STATEMENTS_PER_CHUNK);
      for (const [i, c] of contacts.entries()) expect((await row(c, lesson.id))!.lastPosition).toBe(`${1 + i}.00`);
      // A closed tracker refuses new events instead of losing them silently.
      expect(await lazy.track({ contactId: contacts[0]!, createdBy: null }, course1, 'tracking', { Identificador: lesson.id, Avance: 1 }, clock)).toEqual({ ok: false, error: 'unavailable' });
    });

    it('coalesces events of one person and lesson into one row write', async () => {
      const t = new Tracker(handle.db, { maxWaitMs: 50 });
      const lesson = lessons(course1)[2]!;
      const who = { contactId: people.other.contactId!, createdBy: null };
      const acks = await Promise.all([1, 2, 3].map((a) => t.track(who, course1, 'tracking play', { Identificador: lesson.id, Avance: a }, clock)));
      expect(acks.every((a) => a.ok && a.Avance === 3)).toBe(true);
      expect(t.writer.stats).toMatchObject({ writes: 3, rows: 1, transactions: 1 });
      await t.close();
    });

    it("writes many people's played seconds in one transaction of a few statements, whatever their number (no read per event)", async () => {
      const lazy = new Tracker(handle.db, { maxWaitMs: 60_000 });
      const learners = await Promise.all([1, 2, 3, 4, 5, 6].map((i) => newLearner(`lote${i}@example.com`)));
      const [a, b] = [lessons(course1)[0]!, lessons(course1)[1]!];
      const t0 = clock;
      const acks: Promise<TrackingAck>[] = [];
      for (const p of learners) {
        const who = { contactId: p.contactId, createdBy: null };
        for (const lesson of [a, b]) {
          acks.push(lazy.track(who, course1, 'tracking play', { Identificador: lesson.id, Avance: 0 }, t0));
          acks.push(lazy.track(who, course1, 'tracking', { Identificador: lesson.id, Avance: 4 }, t0 + 2000));
        }
      }
      await settle(50);
      expect(lazy.writer.pending).toBe(learners.length * 2);
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
      const lesson = lessons(course1)[3]!;
      const who = { contactId: (await newLearner('dos.procesos@example.com')).contactId, createdBy: null };
      const [p1, p2] = [new Tracker(handle.db, { maxWaitMs: 1 }), new Tracker(handle.db, { maxWaitMs: 1 })];
      const t0 = clock;
      await p1.track(who, course1, 'tracking play', { Identificador: lesson.id, Avance: 0 }, t0);
      await p2.track(who, course1, 'tracking play', { Identificador: lesson.id, Avance: 4 }, t0);
      await p1.track(who, course1, 'tracking', { Identificador: lesson.id, Avance: 2 }, t0 + 2000);
      const last = await p2.track(who, course1, 'tracking', { Identificador: lesson.id, Avance: 6 }, t0 + 2000);
      expect(last).toMatchObject({ ok: true, Avance: 6, furthest: 6, played: 4 });
      const stored = (await row(who.contactId, lesson.id))!;
      expect(stored.watched).toBe('110011' + '0'.repeat(Math.ceil(lesson.durationSeconds) - 6));
      await Promise.all([p1.close(), p2.close()]);
    });

    it('after a restart, the seconds played before still count towards completion', async () => {
      const lesson = lessons(course2)[1]!;
      const d = lesson.durationSeconds;
      const who = { contactId: (await newLearner('reinicio@example.com')).contactId, createdBy: null };
      const t0 = clock;
      const before = new Tracker(handle.db, { maxWaitMs: 1 });
      await before.track(who, course2, 'tracking play', { Identificador: lesson.id, Avance: 0 }, t0);
      const mid = await before.track(who, course2, 'tracking', { Identificador: lesson.id, Avance: d - 1 }, t0 + (d - 1) * 1000);
      expect(mid).toMatchObject({ ok: true, completed: false, played: Math.ceil(d - 1) });
      await before.close();
      // A new process hears only the end: it reads what was stored before deciding.
      const after = new Tracker(handle.db, { maxWaitMs: 1 });
      const later = t0 + 1_000_000;
      expect(await after.track(who, course2, 'tracking end', { Identificador: lesson.id, Avance: d }, later)).toMatchObject({ ok: true, completed: true, furthest: d });
      // And a first ordinary event of a new process merges with what is stored instead of replacing it.
      const other = lessons(course2)[2]!;
      await after.track(who, course2, 'tracking play', { Identificador: other.id, Avance: 0 }, later + 1000);
      await after.track(who, course2, 'tracking', { Identificador: other.id, Avance: 3 }, later + 4000);
      await after.close();
      const third = new Tracker(handle.db, { maxWaitMs: 1 });
      expect(await third.track(who, course2, 'tracking play', { Identificador: other.id, Avance: 1 }, later + 5000)).toMatchObject({ ok: true, Avance: 1, furthest: 3, played: 3 });
      await third.close();
    });

    it('one bad row does not fail the others written with it', async () => {
      const t = new Tracker(handle.db, { maxWaitMs: 20 });
      const lesson = lessons(course1)[0]!;
      const [good, gone] = await Promise.all([
        t.track({ contactId: people.other.contactId!, createdBy: null }, course1, 'tracking play', { Identificador: lesson.id, Avance: 2 }, clock),
        t.track({ contactId: 987_654, createdBy: null }, course1, 'tracking play', { Identificador: lesson.id, Avance: 2 }, clock),
      ]);
      expect(good).toMatchObject({ ok: true, Avance: 2 });
      expect(gone).toEqual({ ok: false, error: 'unavailable' });
      await t.close();
    });
  });

  describe('HTTP fallback', () => {
    const session = (token: string) => readSession(handle.db, token);
    const body = (o: unknown) => JSON.stringify(o);

    it('applies the same rules and answers with HTTP statuses', async () => {
      const t = new Tracker(handle.db, { maxWaitMs: 1 });
      const deps = { store: directStore(handle.db), tracker: t };
      const learner = await session(people.learner.token);
      const lesson = lessons(course2)[0]!;
      const ok = await trackOverHttp(deps, learner, body({ event: 'tracking play', courseId: 2, payload: { Identificador: lesson.id, Avance: 2.5 } }), clock);
      expect(ok).toMatchObject({ status: 200, ack: { ok: true, Identificador: lesson.id, Avance: 2.5 } });
      expect((await row(people.learner.contactId!, lesson.id))!.lastPosition).toBe('2.50');
      expect((await trackOverHttp(deps, null, body({ event: 'tracking', courseId: 2, payload: { Identificador: lesson.id, Avance: 3 } }))).status).toBe(401);
      expect((await trackOverHttp(deps, await session(people.iboWithout.token), body({ event: 'tracking', courseId: 2, payload: { Identificador: lesson.id, Avance: 3 } }))).status).toBe(401);
      for (const junk of ['', 'not json', '{"event":"tracking"}', body({ event: 'tracking', courseId: 2, payload: { Identificador: lesson.id, Avance: -5 } }), body({ event: 'x', courseId: 2, payload: {} }), 'x'.repeat(5000)]) {
        expect((await trackOverHttp(deps, learner, junk, clock)).status, junk.slice(0, 40)).toBe(400);
      }
      expect((await trackOverHttp(deps, learner, body({ event: 'tracking', courseId: 6, payload: { Identificador: lesson.id, Avance: 3 } }), clock)).status).toBe(403);
      expect((await trackOverHttp(deps, learner, body({ event: 'tracking', courseId: 1, payload: { Identificador: lesson.id, Avance: 3 } }), clock)).status).toBe(403);
      expect((await trackOverHttp(deps, learner, body({ event: 'tracking', courseId: 2, payload: { Identificador: lesson.id, IdContacto: people.buyer.contactId, Avance: 3 } }), clock)).status).toBe(403);
      await t.close();
    });

    it('limits one person flooding it, and tells their open sockets', async () => {
      const lesson = lessons(course1)[1]!;
      const tab = await connect(people.buyer.token, 1);
      const heard = listen(tab);
      const elsewhere = await connect(people.buyer.token, 2);
      const heardElsewhere = listen(elsewhere);
      const buyer = await session(people.buyer.token);
      // The socket's own tracker: what the HTTP fallback stores reaches the person's sockets.
      const statuses: number[] = [];
      for (let i = 0; i < 25; i++) statuses.push((await trackOverHttp({ store: directStore(handle.db), tracker }, buyer, body({ event: 'tracking play', courseId: 1, payload: { Identificador: lesson.id, Avance: 1 } }), clock)).status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(20);
      expect(statuses.filter((s) => s === 429)).toHaveLength(5);
      await settle();
      expect(heard.length).toBe(20);
      expect(heard[0]).toEqual({ Identificador: lesson.id, Avance: 1, completed: false });
      // Only the tabs of that course: the person's tab on course 2 heard nothing.
      expect(heardElsewhere).toEqual([]);
      elsewhere.disconnect();
      // Another person is not limited by it.
      const learner = await session(people.learner.token);
      expect((await trackOverHttp({ store: directStore(handle.db), tracker }, learner, body({ event: 'tracking play', courseId: 1, payload: { Identificador: lesson.id, Avance: 1 } }), clock)).status).toBe(200);
      tab.disconnect();
    });
  });


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
      const t = new Tracker(handle.db, { maxWaitMs: 1 });
      const deps = { store: directStore(handle.db), tracker: t };
      const person = await newLearner('rafaga.http@example.com');
      const who = await readSession(handle.db, person.token);
      const course31 = (await loadCatalog(handle.db)).byId.get(31)!;
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
      expect(await authorizeTracking(directStore(handle.db), who, 32)).toEqual({ ok: false, error: 'forbidden' });
      expect(await refusalOf(person.token, 32)).toBe('forbidden');
      await t.close();
    });

    it('a burst over the socket completes no lesson; the same lesson played in real time does', async () => {
      const person = await newLearner('rafaga.socket@example.com');
      const socket = await connect(person.token, 1);
      const lesson = lessons(course1)[0]!;
      const d = lesson.durationSeconds;
      const acks = [];
      for (const step of burst(d)) {
        clock += 10;
        acks.push(await send(socket, step.event, { Identificador: lesson.id, Avance: step.Avance }));
      }
      expect(acks.every((a) => a.ok && !a.completed)).toBe(true);
      expect(acks.at(-1)).toMatchObject({ ok: true, furthest: d, completed: false });
      expect((await row(person.contactId, lesson.id))!.completedAt).toBeNull();
      expect(Number((await row(person.contactId, lesson.id))!.playedSeconds)).toBeLessThanOrEqual(cap(10 * burst(d).length));
      // Played for real (the clock moves as the video does), it completes.
      clock += 1000;
      await send(socket, 'tracking play', { Identificador: lesson.id, Avance: 0 });
      for (let pos = 5; pos < d; pos += 5) {
        clock += 5000;
        await send(socket, 'tracking', { Identificador: lesson.id, Avance: pos });
      }
      clock += (d - Math.floor((d - 0.001) / 5) * 5) * 1000;
      expect(await send(socket, 'tracking end', { Identificador: lesson.id, Avance: d })).toMatchObject({ ok: true, completed: true, played: Math.ceil(d) });
      socket.disconnect();
    });

    it('app processes share one budget: a burst spread over four of them credits no more than one may', async () => {
      const person = await newLearner('rafaga.procesos@example.com');
      const who = await readSession(handle.db, person.token);
      const processes = [1, 2, 3, 4].map(() => new Tracker(handle.db, { maxWaitMs: 1 }));
      const lesson = lessons(course2)[0]!;
      const d = lesson.durationSeconds;
      const quarter = d / 4;
      // Short enough for a quarter to look like play at 2× after a second (not like a seek).
      expect(quarter).toBeLessThanOrEqual(3.5);
      const post = (p: Tracker, event: string, Avance: number, at: number) =>
        trackOverHttp({ store: directStore(handle.db), tracker: p }, who, body({ event, courseId: 2, payload: { Identificador: lesson.id, Avance } }), at);
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
    const course31 = async () => (await loadCatalog(handle.db)).byId.get(31)!;
    const storedRows = async (contactId: number, ids: number[]) => Promise.all(ids.map(async (id) => (await row(contactId, id)) ?? null));
    const totalPlayed = (rows: (s.Tracking | null)[]) => rows.reduce((sum, r) => sum + Number(r?.playedSeconds ?? 0), 0);

    it('parallel bursts over every lesson of course 31 through the HTTP fallback complete none and leave course 32 locked; the course played for real at 1×, then its exam passed, unlocks it', async () => {
      const t = new Tracker(handle.db, { maxWaitMs: 1 });
      const deps = { store: directStore(handle.db), tracker: t };
      const person = await newLearner('paralelo.http@example.com');
      const who = await readSession(handle.db, person.token);
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
      expect(await authorizeTracking(directStore(handle.db), who, 32)).toEqual({ ok: false, error: 'forbidden' });
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
      expect(await authorizeTracking(directStore(handle.db), who, 32)).toEqual({ ok: false, error: 'forbidden' });
      const [evaluation] = await handle.db.select().from(s.evaluations).where(eq(s.evaluations.courseId, 31));
      await handle.db
        .insert(s.examAttempts)
        .values({ evaluationId: evaluation!.id, contactId: person.contactId, attemptNumber: 1, questionIds: [], deadlineAt: new Date(), submittedAt: new Date(), score: 100, passed: true });
      expect(await authorizeTracking(directStore(handle.db), who, 32)).toMatchObject({ ok: true });
      await t.close();
    });

    it('parallel bursts over every lesson of course 31, one socket each, complete none and leave course 32 locked; a lesson played for real at 1× completes', async () => {
      const person = await newLearner('paralelo.socket@example.com');
      const all = lessons(await course31());
      const sockets = await Promise.all(all.map(() => connect(person.token, 31)));
      const t0 = clock;
      const acks = await Promise.all(all.map((l, i) => send(sockets[i]!, 'tracking play', { Identificador: l.id, Avance: 0 })));
      // Every second, every socket reports its lesson 2 s further on (a 2× player), all at once, up to
      // its end; each round starts with another lesson. Each lesson alone is within what real time allows.
      for (let round = 1; round <= 5; round++) {
        clock += 1000;
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
      expect(totalPlayed(rows)).toBeLessThanOrEqual(personCap(clock - t0));
      expect(await refusalOf(person.token, 32)).toBe('forbidden');

      // One lesson played for real at 1×, on one socket, completes.
      const lesson = all[0]!;
      const d = lesson.durationSeconds;
      clock += 1000;
      await send(sockets[0]!, 'tracking play', { Identificador: lesson.id, Avance: 0 });
      let pos = 0;
      while (pos + 5 < d) {
        clock += 5000;
        pos += 5;
        await send(sockets[0]!, 'tracking', { Identificador: lesson.id, Avance: pos });
      }
      clock += Math.round((d - pos) * 1000);
      expect(await send(sockets[0]!, 'tracking end', { Identificador: lesson.id, Avance: d })).toMatchObject({ ok: true, completed: true, played: Math.ceil(d) });
      for (const socket of sockets) socket.disconnect();
    });

    it('app processes share one budget per person: four of them, each bursting its own lesson at the same time, credit no more than one may', async () => {
      const person = await newLearner('paralelo.procesos@example.com');
      const who = await readSession(handle.db, person.token);
      const processes = [1, 2, 3, 4].map(() => new Tracker(handle.db, { maxWaitMs: 1 }));
      const some = lessons(await course31()).slice(0, processes.length);
      const post = (i: number, event: string, Avance: number, at: number) =>
        trackOverHttp({ store: directStore(handle.db), tracker: processes[i]! }, who, body({ event, courseId: 31, payload: { Identificador: some[i]!.id, Avance } }), at);
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

  describe('origin of the handshake', () => {
    const port = () => new URL(base).port;
    const elsewhere = () => ['http://evil.example', `https://127.0.0.1:${port()}`, `http://127.0.0.1:${Number(port()) + 1}`, `http://localhost:${port()}`, 'null'];

    it('refuses a handshake from another origin, over polling and over websocket, and nothing is written', async () => {
      const person = await newLearner('otro.origen@example.com');
      const lesson = lessons(course1)[1]!;
      for (const transports of [['polling'], ['websocket'], ['polling', 'websocket']] as const) {
        for (const origin of elsewhere()) {
          const outcome = connect(person.token, 1, { headers: { origin }, transports: [...transports] }).then(
            (sock) => {
              // What a hostile page would send once connected.
              sock.emit('tracking play', { Identificador: lesson.id, Avance: 3 });
              return 'connected';
            },
            () => 'refused',
          );
          expect(await outcome, `${origin} over ${transports.join('+')}`).toBe('refused');
        }
        // Sec-Fetch-Site says another origin (of this site or another) and no Origin was sent.
        for (const site of ['cross-site', 'same-site']) {
          expect(await refusalWith(person.token, { 'sec-fetch-site': site }, [...transports]), `${site} over ${transports.join('+')}`).toBe('refused');
        }
      }
      expect(await row(person.contactId, lesson.id)).toBeUndefined();
      // The polling handshake itself answers 403.
      expect(await pollingHandshake({ origin: 'http://evil.example' })).toBe(403);
      expect(await pollingHandshake({ origin: base })).toBe(200);
    });

    it('lets in its own origin, and a client that sends no Origin at all (not a browser)', async () => {
      for (const transports of [['polling'], ['websocket']] as const) {
        expect(await refusalWith(people.learner.token, { origin: base }, [...transports])).toBe('connected');
        expect(await refusalWith(people.learner.token, { origin: base, 'sec-fetch-site': 'same-origin' }, [...transports])).toBe('connected');
        expect(await refusalWith(people.learner.token, {}, [...transports])).toBe('connected');
      }
      // Its own origin, still the session and the course decide.
      expect(await refusalWith(null, { origin: base }, ['websocket'])).toBe('unauthorized');
    });

    it('believes X-Forwarded-Proto only when told to trust the proxy', async () => {
      const servers = [false, true].map((trustProxy) => {
        const h = createServer();
        const sio = attachRealtime(h, runtime, { ...uncached(), now: () => clock, redisUrl: null, trustProxy });
        return { h, sio };
      });
      const [plain, proxied] = await Promise.all(
        servers.map(async ({ h }) => {
          await new Promise<void>((r) => h.listen(0, '127.0.0.1', r));
          return `http://127.0.0.1:${(h.address() as AddressInfo).port}`;
        }),
      );
      // The visitor's page is https://<host>; a TLS proxy in front forwards plain HTTP and says so.
      const https = (at: string) => ({ origin: at.replace('http:', 'https:'), 'x-forwarded-proto': 'https' });
      for (const transports of [['polling'], ['websocket']] as const) {
        expect(await refusalWith(people.learner.token, https(plain!), [...transports], plain)).toBe('refused');
        expect(await refusalWith(people.learner.token, https(proxied!), [...transports], proxied)).toBe('connected');
        // Trusted or not, the scheme must still match.
        expect(await refusalWith(people.learner.token, { origin: proxied!, 'x-forwarded-proto': 'https' }, [...transports], proxied)).toBe('refused');
      }
      for (const { h, sio } of servers) {
        await new Promise<void>((r) => sio.close(() => r()));
        h.close();
      }
    });

    /** 'connected', 'refused' (the handshake was turned away) or the server's refusal message. */
    function refusalWith(token: string | null, headers: Record<string, string>, transports: ManagerOptions['transports'], at?: string) {
      return connect(token, 1, { headers, transports, ...(at ? { at } : {}) }).then(
        (sock) => {
          sock.disconnect();
          return 'connected';
        },
        (err: Error & { type?: string }) => (err.type === 'TransportError' || /error/.test(err.message) ? 'refused' : err.message),
      );
    }

    /** The status of a raw polling handshake request with these headers. */
    function pollingHandshake(headers: Record<string, string>): Promise<number> {
      return new Promise((resolve, reject) => {
        const req = httpRequest(`${base}/socket.io/?EIO=4&transport=polling`, { headers }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end();
      });
    }
  });

  it.skipIf(!redisUp)("with Redis, a person's tabs on two app processes hear each other", async () => {
    const servers = [createServer(), createServer()];
    const ios = servers.map((h) => attachRealtime(h, runtime, { ...uncached(), now: () => clock, redisUrl }));
    await Promise.all(ios.map(adapterReady));
    const bases = await Promise.all(
      servers.map(async (h) => {
        await new Promise<void>((r) => h.listen(0, '127.0.0.1', r));
        return `http://127.0.0.1:${(h.address() as AddressInfo).port}`;
      }),
    );
    const at = (b: string, token: string) => {
      const socket = connectClient(b, { auth: { courseId: 1 }, extraHeaders: { cookie: `${SESSION_COOKIE}=${token}` }, reconnection: false, forceNew: true });
      open.push(socket);
      return new Promise<ClientSocket>((resolve, reject) => {
        socket.once('connect', () => resolve(socket));
        socket.once('connect_error', reject);
      });
    };
    const tabA = await at(bases[0]!, people.buyer.token);
    const tabB = await at(bases[1]!, people.buyer.token);
    const stranger = await at(bases[1]!, people.learner.token);
    const [heardB, heardStranger] = [listen(tabB), listen(stranger)];
    const lesson = lessons(course1)[4] ?? lessons(course1)[0]!;
    clock += 1000;
    expect(await send(tabA, 'tracking play', { Identificador: lesson.id, Avance: 2 })).toMatchObject({ ok: true });
    await settle(300);
    expect(heardB).toEqual([{ Identificador: lesson.id, Avance: 2, completed: false }]);
    expect(heardStranger).toEqual([]);
    for (const s of [tabA, tabB, stranger]) s.disconnect();
    await Promise.all(ios.map((i) => new Promise<void>((r) => i.close(() => r()))));
  });

  it('keeps the played-seconds column equal to the coverage', async () => {
    const bad = await handle.db.execute(sql`select count(*)::int as n from tracking where watched is not null and played_seconds <> bit_count(watched)`);
    expect(Number((bad as unknown as { rows: { n: number }[] }).rows[0]!.n)).toBe(0);
  });
});
