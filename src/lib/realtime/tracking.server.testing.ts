/**
 * Shared fixture of the tracking protocol tests: a seeded database, a real HTTP server with socket.io
 * and the tracking handlers, logged-in people, and socket.io clients carrying their session cookies.
 */
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { io as connectClient, type ManagerOptions, type SocketOptions, type Socket as ClientSocket } from 'socket.io-client';
import type { Server } from 'socket.io';
import type { TestDatabase } from '../db/testing';
import type { DbHandle } from '../db/client';
import * as s from '../db/schema';
import { loadCatalog, type CatalogCourse } from '../catalog';
import { directStore } from '../access/store.server';
import { testRuntime } from '../testing/runtime';
import type { Runtime } from '../runtime/runtime.server';
import { createSession, findActiveIbo, hashToken, readSession, setSessionProspect } from '../identity';
import { SESSION_COOKIE } from '../http/page-cache';
import { Tracker, type TrackingAck, type TrackingBroadcast } from '../learning';
import { attachRealtime } from './socket.server';

export type Person = { token: string; contactId: number | null; userId: number | null };

/** Sets up (before all tests of the calling describe) and tears down the tracking server; returns its state and helpers. */
export function trackingServer(create: TestDatabase['create']) {
  const open: ClientSocket[] = [];
  const people = {} as Record<'learner' | 'buyer' | 'iboWithProspect' | 'iboWithout' | 'other', Person>;
  const f = {
    handle: undefined as unknown as DbHandle,
    http: undefined as unknown as HttpServer,
    io: undefined as unknown as Server,
    tracker: undefined as unknown as Tracker,
    runtime: undefined as unknown as Runtime,
    base: '',
    /** The server's clock: tests move it instead of waiting. */
    clock: Date.now(),
    course1: undefined as unknown as CatalogCourse,
    course2: undefined as unknown as CatalogCourse,
    open,
    people,
    newLearner,
    uncached,
    connect,
    refusalOf,
    send,
    row,
    lessons,
    listen,
    bitCount,
  };

  async function userId(email: string) {
    return (await f.handle.db.select().from(s.users).where(eq(s.users.email, email)))[0]!.id;
  }
  async function contactOf(uid: number) {
    return (await f.handle.db.select().from(s.contacts).where(eq(s.contacts.userId, uid)))[0]!.id;
  }
  async function learnerSession(email: string) {
    const uid = await userId(email);
    const { token } = await createSession(f.handle.db, { kind: 'user', userId: uid });
    return { token, userId: uid, contactId: await contactOf(uid) };
  }
  /** A new learner of their own (nothing played yet), logged in. */
  async function newLearner(email: string) {
    const [user] = await f.handle.db.insert(s.users).values({ email, firstName: 'Nueva', lastName: 'Persona' }).returning();
    await f.handle.db.insert(s.contacts).values({ userId: user!.id, firstName: 'Nueva', lastName: 'Persona', email });
    return learnerSession(email);
  }

  beforeAll(async () => {
    f.handle = await create({ seed: true });
    f.runtime = await testRuntime(f.handle);
    const catalog = await loadCatalog(f.handle.db);
    f.course1 = catalog.byId.get(1)!;
    f.course2 = catalog.byId.get(2)!;
    people.learner = await learnerSession('learner@academia.example');
    people.buyer = await learnerSession('buyer@academia.example');
    people.other = await learnerSession('admin@academia.example');
    const ibo = (await findActiveIbo(f.handle.db, 'HORIZONTE01'))!;
    const without = await createSession(f.handle.db, { kind: 'ibo', iboId: ibo.id });
    people.iboWithout = { token: without.token, contactId: null, userId: ibo.userId };
    const [prospect] = await f.handle.db.insert(s.contacts).values({ firstName: 'Pía', lastName: 'Prospecto', email: 'pia.prospecto@example.com', iboId: ibo.id }).returning();
    const withProspect = await createSession(f.handle.db, { kind: 'ibo', iboId: ibo.id });
    await setSessionProspect(f.handle.db, hashToken(withProspect.token), prospect!.id);
    people.iboWithProspect = { token: withProspect.token, contactId: prospect!.id, userId: ibo.userId };

    f.tracker = new Tracker(f.handle.db, { maxWaitMs: 2 });
    f.http = createServer();
    f.io = attachRealtime(f.http, f.runtime, { ...uncached(), now: () => f.clock, redisUrl: null });
    await new Promise<void>((r) => f.http.listen(0, '127.0.0.1', r));
    f.base = `http://127.0.0.1:${(f.http.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    for (const c of open) c.disconnect();
    await new Promise<void>((r) => f.io.close(() => r()));
    await f.tracker?.close();
    await f.runtime?.close();
    await f.handle?.close();
  });

  /** This test's tracker, reading access and sessions straight from the database (no caches to wait out). */
  function uncached() {
    return { tracker: f.tracker, store: directStore(f.handle.db), sessions: { read: (token: string | undefined) => readSession(f.handle.db, token) } };
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
    const socket = connectClient(more.at ?? f.base, options);
    open.push(socket);
    return new Promise((resolve, reject) => {
      socket.once('connect', () => resolve(socket));
      socket.once('connect_error', (err) => {
        socket.disconnect();
        reject(err);
      });
    });
  }
  function refusalOf(token: string | null, courseId: unknown) {
    return connect(token, courseId).then(
      () => 'connected',
      (err: Error) => err.message,
    );
  }
  function send(socket: ClientSocket, event: string, payload: unknown) {
    return socket.timeout(5000).emitWithAck(event, payload) as Promise<TrackingAck>;
  }
  async function row(contactId: number, lessonId: number) {
    return (await f.handle.db.select().from(s.tracking).where(and(eq(s.tracking.contactId, contactId), eq(s.tracking.subtopicId, lessonId))))[0];
  }
  function lessons(c: CatalogCourse) {
    return c.modules.flatMap((m) => m.lessons);
  }
  /** Collects the `tracking` broadcasts a socket hears. */
  function listen(socket: ClientSocket) {
    const heard: TrackingBroadcast[] = [];
    socket.on('tracking', (m: TrackingBroadcast) => heard.push(m));
    return heard;
  }
  function bitCount(bits: string | null) {
    return [...(bits ?? '')].filter((b) => b === '1').length;
  }

  return f;
}
