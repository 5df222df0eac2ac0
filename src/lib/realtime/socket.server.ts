/**
 * The realtime socket (socket.io) shared by the production server and `astro dev`, with the
 * progress-tracking events (`tracking`, `tracking play`, `tracking end`, see `tracking.server.ts`).
 * With `REDIS_URL` set, rooms span every app process through the Redis adapter, so a person's tabs
 * hear each other whichever process they are connected to. A handshake from another origin is refused
 * before anything else is read (`handshakeAllowed`).
 */
import type { IncomingMessage, Server as HttpServer } from 'node:http';
import { Server } from 'socket.io';
import { handshakeAllowed } from './realtime';
import { registerTracking, type RealtimeTrackingOptions } from './tracking.server';

const KEY = Symbol.for('academy.realtime');
type Holder = { [KEY]?: Server };

export interface RealtimeOptions extends RealtimeTrackingOptions {
  /** Redis address for the socket.io adapter (default `REDIS_URL`; empty: this process only). */
  redisUrl?: string;
  /**
   * Believe `X-Forwarded-Proto` when comparing a handshake's `Origin` with the address it was sent to
   * (only behind a reverse proxy that sets it itself; default false), as for HTTP requests.
   */
  trustProxy?: boolean;
}

/** Attaches socket.io to an HTTP server (once per server) and returns it. */
export function attachRealtime(httpServer: HttpServer, opts: RealtimeOptions = {}): Server {
  const holder = httpServer as HttpServer & Holder;
  if (holder[KEY]) return holder[KEY];
  const trustProxy = opts.trustProxy ?? false;
  const io = new Server(httpServer, {
    serveClient: false,
    // Same-origin only: the site and the socket share one host and port.
    cors: { origin: false },
    // …and refused outright from any other origin (every polling request and the WebSocket upgrade).
    allowRequest: (req, callback) => callback(null, handshakeAllowed(req.headers, encrypted(req), trustProxy)),
    maxHttpBufferSize: 16 * 1024,
  });
  holder[KEY] = io;
  const redisUrl = opts.redisUrl ?? process.env.REDIS_URL;
  adapters.set(io, redisUrl ? useRedisAdapter(io, redisUrl) : Promise.resolve());
  registerTracking(io, opts);
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
