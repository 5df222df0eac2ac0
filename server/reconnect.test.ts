/**
 * Live progress survives a server restart: a learner's socket (socket.io-client, as the lesson player
 * connects it, with `keepConnected`) is open on the app's server; the server stops (`app.close`, what
 * SIGTERM runs) and another starts on the same port; the socket must come back by itself, with its
 * course, and have its progress acknowledged again. And a socket the server disconnects (`io server
 * disconnect`, which socket.io never retries by itself) comes back too. On the embedded database.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { io as connectClient, type Socket as ClientSocket } from 'socket.io-client';
import { testDatabases } from '../src/lib/db/testing';
import type { DbHandle } from '../src/lib/db/client';
import * as s from '../src/lib/db/schema';
import { loadCatalog } from '../src/lib/catalog/catalog.server';
import { createSession } from '../src/lib/identity/session.server';
import { SESSION_COOKIE } from '../src/lib/http/page-cache';
import type { TrackingAck } from '../src/lib/learning/learning';
import { keepConnected, progressEvent } from '../src/lib/realtime/tracking-client';
import { testRuntime } from '../src/lib/testing/runtime';
import type { Runtime } from '../src/lib/runtime/runtime.server';
import { createApp, type App } from './app';

const [pglite] = await testDatabases();

describe('the lesson player’s socket across a server restart', () => {
  let handle: DbHandle;
  let runtime: Runtime;
  let clientDir: string;
  let port: number;
  let app: App;
  let token: string;
  let who: { courseId: number; contactId: number; userId: number };
  let lessonId: number;
  const sockets: ClientSocket[] = [];

  const start = async (on = 0) => {
    const next = createApp({ runtime, astroHandler: (_req, _res, nextHandler) => nextHandler?.(), clientDir });
    await new Promise<void>((resolve) => next.server.listen(on, '127.0.0.1', resolve));
    return next;
  };

  beforeAll(async () => {
    handle = await pglite!.create({ seed: true });
    runtime = await testRuntime(handle);
    clientDir = mkdtempSync(join(tmpdir(), 'academy-client-'));
    const [user] = await handle.db.select().from(s.users).where(eq(s.users.email, 'learner@academia.example'));
    const [contact] = await handle.db.select().from(s.contacts).where(eq(s.contacts.userId, user!.id));
    token = (await createSession(handle.db, { kind: 'user', userId: user!.id })).token;
    who = { courseId: 1, contactId: contact!.id, userId: user!.id };
    lessonId = (await loadCatalog(handle.db)).byId.get(1)!.modules[0]!.lessons[0]!.id;
    app = await start();
    port = (app.server.address() as AddressInfo).port;
  }, 120_000);

  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await app?.close(1000);
    await runtime?.close();
    await handle?.close();
    rmSync(clientDir, { recursive: true, force: true });
  });

  /** A learner's socket for course 1, as the player opens it (quick retries, for the test). */
  function learnerSocket(comeBack: boolean): { socket: ClientSocket; reasons: string[] } {
    const socket = connectClient(`http://127.0.0.1:${port}`, {
      auth: { courseId: who.courseId },
      extraHeaders: { cookie: `${SESSION_COOKIE}=${token}` },
      reconnectionDelay: 100,
      reconnectionDelayMax: 500,
      forceNew: true,
    });
    sockets.push(socket);
    if (comeBack) keepConnected(socket, () => 100);
    const reasons: string[] = [];
    socket.on('disconnect', (reason) => reasons.push(reason));
    return { socket, reasons };
  }

  const acknowledged = (socket: ClientSocket, position: number) =>
    socket.timeout(5000).emitWithAck('tracking', progressEvent(who, lessonId, position, true)) as Promise<TrackingAck>;

  it('comes back to the next server by itself, with its course, and its progress is acknowledged', async () => {
    const { socket, reasons } = learnerSocket(true);
    await expect.poll(() => socket.connected, { timeout: 10_000 }).toBe(true);
    expect(await acknowledged(socket, 1)).toMatchObject({ ok: true, Identificador: lessonId });
    await app.close(2000);
    // Closed as a lost connection, which socket.io retries: not "the server does not want you".
    expect(reasons).toEqual(['transport close']);
    app = await start(port);
    await expect.poll(() => socket.connected, { timeout: 10_000 }).toBe(true);
    expect(await acknowledged(socket, 2)).toMatchObject({ ok: true, Identificador: lessonId });
  }, 120_000);

  it('comes back after the server disconnected it (socket.io alone would not)', async () => {
    const player = learnerSocket(true);
    const bare = learnerSocket(false);
    await expect.poll(() => player.socket.connected && bare.socket.connected, { timeout: 10_000 }).toBe(true);
    app.io.local.disconnectSockets(true);
    await expect.poll(() => player.reasons.concat(bare.reasons)).toEqual(['io server disconnect', 'io server disconnect']);
    await expect.poll(() => player.socket.connected, { timeout: 10_000 }).toBe(true);
    expect(await acknowledged(player.socket, 3)).toMatchObject({ ok: true, Identificador: lessonId });
    expect(bare.socket.connected).toBe(false);
  }, 120_000);
});
