/**
 * PostgreSQL restarted under load: a TCP proxy between the app's pool and PostgreSQL cuts every
 * connection (a transaction in the middle of a query included) and refuses new ones for a moment.
 * The app keeps running, answers cleanly during the outage (503 / `unavailable`, no details) and
 * works again afterwards without a restart. Skipped when PostgreSQL is not reachable.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { io as connectClient, type Socket as ClientSocket } from 'socket.io-client';
import { openDatabase, type DbHandle } from '../src/lib/db/client';
import { testRuntime } from '../src/lib/testing/runtime';
import type { Runtime } from '../src/lib/runtime/runtime.server';
import { testDatabases } from '../src/lib/db/testing';
import * as s from '../src/lib/db/schema';
import { loadCatalog } from '../src/lib/catalog/catalog.server';
import { createSession, readSession } from '../src/lib/identity/session.server';
import { SESSION_COOKIE } from '../src/lib/http/page-cache';
import { trackOverHttp } from '../src/lib/learning/tracking-http.server';
import type { TrackingAck } from '../src/lib/learning/learning';
import { startTcpProxy, type TcpProxy } from '../src/lib/testing/tcp-proxy';
import { createApp, type App } from './app';

const postgres = (await testDatabases()).find((d) => d.name === 'postgres');
const adminUrl = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
if (!postgres) console.warn(`PostgreSQL not reachable at ${new URL(adminUrl).host}: the PostgreSQL outage tests are skipped.`);

describe.skipIf(!postgres)('PostgreSQL restarted under load', () => {
  let direct: DbHandle;
  let proxy: TcpProxy;
  let app: DbHandle;
  let server: App;
  let runtime: Runtime;
  let base: string;
  let clientDir: string;
  let token: string;
  /** A second session of the same person this process has never read. */
  let unseenToken: string;
  let contactId: number;
  let lessonIds: number[];
  const sockets: ClientSocket[] = [];
  /** Errors nothing handled: each one would have ended the server process. */
  const uncaught: unknown[] = [];
  const monitor = (err: unknown) => uncaught.push(err);

  beforeAll(async () => {
    process.on('uncaughtExceptionMonitor', monitor);
    direct = await postgres!.create({ seed: true });
    const target = new URL(adminUrl);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const through = new URL(adminUrl);
    through.host = `127.0.0.1:${proxy.port}`;
    through.pathname = new URL(direct.where).pathname;
    app = await openDatabase({ databaseUrl: through.href, dataDir: 'unused', connectTimeoutMs: 1000 });
    runtime = await testRuntime(app);
    const [user] = await direct.db.select().from(s.users).where(eq(s.users.email, 'learner@academia.example'));
    const [contact] = await direct.db.select().from(s.contacts).where(eq(s.contacts.userId, user!.id));
    contactId = contact!.id;
    token = (await createSession(direct.db, { kind: 'user', userId: user!.id })).token;
    unseenToken = (await createSession(direct.db, { kind: 'user', userId: user!.id })).token;
    lessonIds = (await loadCatalog(direct.db)).byId.get(1)!.modules.flatMap((m) => m.lessons.map((l) => l.id));
    clientDir = mkdtempSync(join(tmpdir(), 'academy-client-'));
    server = createApp({ runtime, astroHandler: (_req, _res, next) => next?.(), clientDir });
    await new Promise<void>((r) => server.server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    process.off('uncaughtExceptionMonitor', monitor);
    for (const socket of sockets) socket.disconnect();
    await server?.close(2000);
    await runtime?.close().catch(() => undefined);
    await app?.close().catch(() => undefined);
    await proxy?.close();
    await direct?.close();
    if (clientDir) rmSync(clientDir, { recursive: true, force: true });
  });

  const health = async () => {
    const r = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(8000) });
    return { status: r.status, body: await r.text() };
  };
  const connect = (courseId = 1, as = token) =>
    new Promise<ClientSocket>((resolve, reject) => {
      const socket = connectClient(base, { auth: { courseId }, extraHeaders: { cookie: `${SESSION_COOKIE}=${as}` }, reconnection: false, forceNew: true, transports: ['websocket'] });
      sockets.push(socket);
      socket.once('connect', () => resolve(socket));
      socket.once('connect_error', (err) => {
        socket.disconnect();
        reject(err);
      });
    });
  const send = (socket: ClientSocket, lesson: number, avance: number) => socket.timeout(10_000).emitWithAck('tracking', { Identificador: lesson, Avance: avance }) as Promise<TrackingAck>;
  const stored = async (lesson: number) =>
    (await direct.db.select().from(s.tracking).where(and(eq(s.tracking.contactId, contactId), eq(s.tracking.subtopicId, lesson))))[0];
  /** Queries running on PostgreSQL from the app's database (seen from outside the proxy). */
  const running = async (pattern: string) => {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      const r = await admin.query('select count(*)::int as n from pg_stat_activity where datname = $1 and query like $2 and state = $3', [new URL(direct.where).pathname.slice(1), pattern, 'active']);
      return (r.rows[0] as { n: number }).n;
    } finally {
      await admin.end();
    }
  };

  it('keeps running through the outage, answers 503 / unavailable meanwhile, and recovers by itself', async () => {
    // Before: everything works, and the pool holds open connections (idle ones included).
    expect(await health()).toEqual({ status: 200, body: JSON.stringify({ status: 'up' }) });
    const socket = await connect();
    expect(await send(socket, lessonIds[0]!, 2)).toMatchObject({ ok: true, Avance: 2 });
    const session = await readSession(app.db, token);
    expect(session).not.toBeNull();
    await Promise.all(Array.from({ length: 5 }, () => app.db.execute(sql`select pg_sleep(0.05)`)));

    // Load: a transaction is in the middle of a query (its client checked out of the pool), other
    // queries are in flight, and idle clients wait in the pool when the connections are cut.
    const outcome = (p: PromiseLike<unknown>) => Promise.resolve(p).then(() => 'done', (err: unknown) => (err instanceof Error ? 'failed' : 'odd'));
    const inTransaction = outcome(
      app.db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        await tx.execute(sql`select pg_sleep(30) /* faults-tx */`);
      }),
    );
    const inFlight = Array.from({ length: 3 }, () => outcome(app.db.execute(sql`select pg_sleep(30) /* faults-q */`)));
    await vi.waitFor(async () => expect(await running('%faults-%')).toBe(4), { timeout: 10_000, interval: 50 });
    proxy.cut();

    // The interrupted work fails (it is not silently retried); the process does not crash.
    expect(await inTransaction).toBe('failed');
    expect(await Promise.all(inFlight)).toEqual(['failed', 'failed', 'failed']);
    expect(uncaught).toEqual([]);

    // During the outage: clean refusals, no details.
    const during = await health();
    expect(during).toEqual({ status: 503, body: JSON.stringify({ status: 'down' }) });
    expect(await send(socket, lessonIds[0]!, 4)).toEqual({ ok: false, error: 'unavailable' });
    // A session this process already knows still connects (from what it kept), but cannot write;
    // one it has never read cannot be checked, and is refused.
    const known = await connect();
    expect(await send(known, lessonIds[0]!, 5)).toEqual({ ok: false, error: 'unavailable' });
    expect(await connect(1, unseenToken).then(() => 'connected', (err: Error) => err.message)).toBe('unavailable');
    const http = await trackOverHttp({ store: runtime.store, tracker: runtime.tracker }, session, JSON.stringify({ event: 'tracking', courseId: 1, payload: { Identificador: lessonIds[1], Avance: 3 } }));
    expect(http).toMatchObject({ status: 503, ack: { ok: false, error: 'unavailable' } });
    await expect(app.db.transaction(async (tx) => tx.execute(sql`select 1`))).rejects.toThrow();

    // PostgreSQL is back: the same process serves again, with new connections.
    const acceptedBefore = proxy.accepted;
    proxy.restore();
    await vi.waitFor(async () => expect((await health()).status).toBe(200), { timeout: 10_000, interval: 100 });
    expect(proxy.accepted).toBeGreaterThan(acceptedBefore);
    expect(await send(socket, lessonIds[0]!, 6)).toMatchObject({ ok: true, Avance: 6 });
    const again = await connect();
    expect(await send(again, lessonIds[2]!, 1)).toMatchObject({ ok: true, Avance: 1 });
    const httpAfter = await trackOverHttp({ store: runtime.store, tracker: runtime.tracker }, session, JSON.stringify({ event: 'tracking', courseId: 1, payload: { Identificador: lessonIds[1], Avance: 3 } }));
    expect(httpAfter).toMatchObject({ status: 200, ack: { ok: true, Avance: 3 } });
    expect(await app.db.transaction(async (tx) => tx.execute(sql`select 1 as one`))).toMatchObject({ rows: [{ one: 1 }] });
    expect(await stored(lessonIds[0]!)).toMatchObject({ lastPosition: '6.00' });
    expect(await stored(lessonIds[1]!)).toMatchObject({ lastPosition: '3.00' });
    expect(uncaught).toEqual([]);
  });

  it('answers 503 within the connect timeout when connections hang instead of failing', async () => {
    proxy.hang();
    try {
      const started = Date.now();
      expect(await health()).toEqual({ status: 503, body: JSON.stringify({ status: 'down' }) });
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      proxy.restore();
    }
    await vi.waitFor(async () => expect((await health()).status).toBe(200), { timeout: 10_000, interval: 100 });
  });
});
