/**
 * The realtime socket (socket.io) shared by the production server and `astro dev`, with the
 * progress-tracking events (`tracking`, `tracking play`, `tracking end`, see `tracking.server.ts`).
 * An IBO's people page listens on the `/business` namespace (`business/live.server.ts`).
 * With `REDIS_URL` set, rooms span every app process through the Redis adapter (or, without Redis, the
 * workers of one machine through the cluster adapter), so a person's tabs hear each other whichever
 * process they are connected to. Where the socket cannot connect, progress goes over HTTP (`/api/tracking`). A handshake from another origin is refused
 * before anything else is read (`handshakeAllowed`).
 */
import cluster from 'node:cluster';
import type { IncomingMessage, Server as HttpServer } from 'node:http';
import { Server } from 'socket.io';
import { handshakeAllowed } from './realtime';
import { registerTracking, type RealtimeTrackingOptions } from './tracking.server';
import type { Runtime } from '../runtime/runtime.server';
import { sessionRefOf } from '../identity/session-cache.server';
import { cookieValue } from '../http/cookies';
import { SESSION_COOKIE } from '../http/page-cache';
import { contactOfPersonMessage, registerBusinessLive } from '../business/live.server';

export interface RealtimeOptions extends Partial<RealtimeTrackingOptions> {
  /** Redis address for the socket.io adapter (default: the runtime's `REDIS_URL`; none: this process only). */
  redisUrl?: string | null;
  /**
   * Believe `X-Forwarded-Proto` when comparing a handshake's `Origin` with the address it was sent to
   * (only behind a reverse proxy that sets it itself; default false), as for HTTP requests.
   */
  trustProxy?: boolean;
}

const attached = new WeakMap<HttpServer, Server>();

/** Attaches socket.io to an HTTP server (once per server) with the runtime's tracker, store and sessions, and returns it. */
export function attachRealtime(httpServer: HttpServer, runtime: Runtime, opts: RealtimeOptions = {}): Server {
  const existing = attached.get(httpServer);
  if (existing) return existing;
  const trustProxy = opts.trustProxy ?? runtime.config.trustProxy;
  const io = new Server(httpServer, {
    serveClient: false,
    // Same-origin only: the site and the socket share one host and port.
    cors: { origin: false },
    // …and refused outright from any other origin (every polling request and the WebSocket upgrade).
    allowRequest: (req, callback) => callback(null, handshakeAllowed(req.headers, encrypted(req), trustProxy)),
    maxHttpBufferSize: 16 * 1024,
  });
  attached.set(httpServer, io);
  const redisUrl = opts.redisUrl === undefined ? runtime.config.redisUrl : opts.redisUrl;
  // Redis when there is one; else the workers of one `WEB_CONCURRENCY` machine relay through their primary.
  adapters.set(io, redisUrl ? useRedisAdapter(io, redisUrl) : cluster.isWorker ? useClusterAdapter(io) : Promise.resolve());
  const tracking = registerTracking(io, { tracker: runtime.tracker, store: runtime.store, sessions: runtime.sessions, ...opts });
  // An IBO's people page, live: told when one of its people finishes a lesson or passes an exam.
  const business = registerBusinessLive(io, { db: runtime.db, sessions: runtime.sessions, tokenOf: (socket) => cookieValue(tracking.cookieOf(socket), SESSION_COOKIE) });
  // Log out, a password reset, an IBO suspended…: the session's sockets in this process are checked again at once.
  const stops = [
    runtime.bus.subscribe('session', (data) => {
      tracking.sessionEnded(sessionRefOf(data));
      business.sessionEnded(sessionRefOf(data));
    }),
    runtime.bus.subscribe('person', (data) => {
      const contactId = contactOfPersonMessage(data);
      if (contactId !== null) void business.personProgressed(contactId).catch(() => undefined);
    }),
  ];
  io.engine.on('close', () => stops.forEach((stop) => stop()));
  return io;
}

/** True when the request came over TLS to this server itself. */
function encrypted(req: IncomingMessage): boolean {
  return (req.socket as { encrypted?: boolean }).encrypted === true;
}

const adapters = new WeakMap<Server, Promise<void>>();

/** Resolves once the server's adapter is in place (the Redis one is set up asynchronously). */
export function adapterReady(io: Server): Promise<void> {
  return adapters.get(io) ?? Promise.resolve();
}

/** Shares rooms and broadcasts between the workers of one machine (the primary calls `setupPrimary`). */
async function useClusterAdapter(io: Server): Promise<void> {
  const { createAdapter } = await import('@socket.io/cluster-adapter');
  io.adapter(createAdapter());
}

/** Shares rooms and broadcasts between processes through Redis pub/sub; without Redis, rooms stay local. */
async function useRedisAdapter(io: Server, url: string): Promise<void> {
  const [{ createAdapter }, { default: Redis }] = await Promise.all([import('@socket.io/redis-adapter'), import('ioredis')]);
  const pub = new Redis(url, { maxRetriesPerRequest: 1 });
  const sub = pub.duplicate();
  // A Redis outage must not take the site down: broadcasts to other processes pause until it returns.
  pub.on('error', () => undefined);
  sub.on('error', () => undefined);
  io.adapter(createAdapter(pub, sub));
  const close = io.close.bind(io);
  io.close = async (fn) => {
    await close(fn);
    // `quit` lets the adapter's last unsubscribe commands finish first.
    await Promise.allSettled([pub.quit(), sub.quit()]);
  };
}
