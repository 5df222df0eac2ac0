/**
 * The bus: tells every app process about a change. A message is delivered to this process's
 * subscribers at once (before `publish` resolves) and to every other process through the transport:
 * PostgreSQL LISTEN/NOTIFY (with `DATABASE_URL`), Redis pub/sub (with `REDIS_URL`), or nothing more
 * on the embedded database, which only one process can open.
 *
 * A lost connection is retried with backoff; while it is down, changes still reach this process, and
 * once it is back every subscriber gets `RESYNC` (messages may have been missed: forget everything).
 */
import { randomBytes } from 'node:crypto';
import type { Logger } from '../http/log.server';
import { BUS_TOPICS, decodeMessage, encodeMessage, reconnectDelayMs, RESYNC, type BusTopic } from './bus';

export interface Bus {
  readonly kind: 'local' | 'postgres' | 'redis';
  /** Delivers to this process's subscribers at once, then to every other process. */
  publish(topic: BusTopic, data?: unknown): Promise<void>;
  /** Calls `handler` for every message on `topic` (this process's and others'); returns the unsubscribe. */
  subscribe(topic: BusTopic, handler: (data: unknown) => void): () => void;
  /** Resolves once the transport listens (rejects with a fix-it sentence when it cannot be reached). */
  ready(): Promise<void>;
  /**
   * Since when (epoch ms) every other process's message has reached this one: the transport has
   * listened since then without a break. `null` while it does not listen (messages may be missed).
   */
  listeningSince(): number | null;
  close(): Promise<void>;
}

export type BusOptions = { kind: 'local' } | { kind: 'postgres'; databaseUrl: string } | { kind: 'redis'; redisUrl: string };

/** How long start-up waits for the transport before saying what to fix. */
const CONNECT_TIMEOUT_MS = 5000;
const CHANNEL_PG = 'academy_bus';
/** The Redis channel the processes' messages travel on (a benchmark publishes there as another process would). */
export const BUS_REDIS_CHANNEL = 'academy:bus';
const CHANNEL_REDIS = BUS_REDIS_CHANNEL;

/** The transport's part: send a text, and start/stop listening (calling `receive` per text). */
interface Transport {
  send(text: string): Promise<void>;
  /** Since when it has listened without a break, or `null` while it does not. */
  listeningSince(): number | null;
  start(receive: (text: string) => void, reconnected: () => void): Promise<void>;
  close(): Promise<void>;
}

export function createBus(opts: BusOptions, logger: Logger): Bus {
  const from = randomBytes(8).toString('hex');
  const handlers = new Map<BusTopic, Set<(data: unknown) => void>>(BUS_TOPICS.map((t) => [t, new Set()]));
  const deliver = (topic: BusTopic, data: unknown) => {
    for (const handler of handlers.get(topic) ?? []) {
      try {
        handler(data);
      } catch (err) {
        logger.error({ topic, err: (err as Error).message }, 'bus subscriber failed');
      }
    }
  };
  const transport = opts.kind === 'postgres' ? postgresTransport(opts.databaseUrl, logger) : opts.kind === 'redis' ? redisTransport(opts.redisUrl, logger) : null;
  const started = transport
    ? transport.start(
        (text) => {
          const message = decodeMessage(text);
          if (!message) {
            logger.warn({ bytes: text.length }, 'bus: dropped a message that is not one of ours');
            return;
          }
          if (message.from !== from) deliver(message.topic, message.data);
        },
        () => {
          for (const topic of BUS_TOPICS) deliver(topic, RESYNC);
        },
      )
    : Promise.resolve();
  started.catch(() => undefined);

  return {
    kind: opts.kind,
    async publish(topic, data = {}) {
      const text = encodeMessage({ from, topic, data });
      deliver(topic, data);
      if (!transport) return;
      try {
        await transport.send(text);
      } catch (err) {
        // Other processes miss this one; they resync when their connection comes back.
        logger.warn({ topic, err: (err as Error).message }, 'bus: could not tell the other processes');
      }
    },
    subscribe(topic, handler) {
      handlers.get(topic)!.add(handler);
      return () => void handlers.get(topic)!.delete(handler);
    },
    ready: () => started,
    // The embedded database has one process: it misses nothing.
    listeningSince: () => (transport ? transport.listeningSince() : 0),
    close: async () => {
      await transport?.close();
    },
  };
}

/** Rejects after `ms` with `message`, unless `promise` settles first. */
function within<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(message)), ms);
      timer.unref();
    }),
  ]).finally(() => clearTimeout(timer));
}

function where(url: string, defaultPort: number): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || defaultPort}`;
  } catch {
    return 'the configured address';
  }
}

/** LISTEN on one dedicated connection (re-opened after a loss), NOTIFY through a small pool. */
function postgresTransport(databaseUrl: string, logger: Logger): Transport {
  let closed = false;
  let listener: import('pg').Client | null = null;
  let pool: import('pg').Pool | null = null;
  let attempt = 0;
  let timer: NodeJS.Timeout | undefined;
  let since: number | null = null;
  const failure = `Cannot reach PostgreSQL at ${where(databaseUrl, 5432)} for change notices: start it or fix DATABASE_URL.`;

  async function listen(receive: (text: string) => void, reconnected: () => void, first: boolean): Promise<void> {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, keepAlive: true });
    client.on('notification', (n) => {
      if (n.channel === CHANNEL_PG && n.payload !== undefined) receive(n.payload);
    });
    const lost = () => {
      if (closed || listener !== client) return;
      listener = null;
      since = null;
      client.removeAllListeners('end');
      client.end().catch(() => undefined);
      // Info, not a warning: PostgreSQL out of reach is told once by the runtime's outage watch.
      logger.info('bus: lost the PostgreSQL connection that listens for changes; reconnecting');
      retry(receive, reconnected);
    };
    client.on('error', lost);
    client.on('end', lost);
    await client.connect();
    await client.query(`LISTEN ${CHANNEL_PG}`);
    if (closed) {
      await client.end().catch(() => undefined);
      return;
    }
    listener = client;
    since = Date.now();
    attempt = 0;
    if (!first) {
      logger.info('bus: listening for changes again');
      reconnected();
    }
  }

  function retry(receive: (text: string) => void, reconnected: () => void): void {
    if (closed) return;
    attempt += 1;
    timer = setTimeout(() => {
      listen(receive, reconnected, false).catch(() => retry(receive, reconnected));
    }, reconnectDelayMs(attempt));
    timer.unref();
  }

  return {
    async send(text) {
      if (!pool) {
        const { default: pg } = await import('pg');
        pool = new pg.Pool({ connectionString: databaseUrl, max: 2, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, keepAlive: true });
        pool.on('error', () => undefined);
      }
      await pool.query('select pg_notify($1, $2)', [CHANNEL_PG, text]);
    },
    listeningSince: () => since,
    start: (receive, reconnected) =>
      within(listen(receive, reconnected, true), CONNECT_TIMEOUT_MS + 500, failure).catch((err: Error) => {
        throw new Error(err.message === failure ? failure : `${failure.slice(0, -1)} (${err.message}).`);
      }),
    async close() {
      closed = true;
      since = null;
      clearTimeout(timer);
      const c = listener;
      listener = null;
      await Promise.allSettled([c?.end(), pool?.end()]);
    },
  };
}

/** Redis pub/sub: ioredis reconnects by itself; a reconnection after a loss is a resync. */
function redisTransport(redisUrl: string, logger: Logger): Transport {
  let pub: import('ioredis').Redis | null = null;
  let sub: import('ioredis').Redis | null = null;
  const failure = `Cannot reach Redis at ${where(redisUrl, 6379)} for change notices: start it or fix REDIS_URL.`;
  let since: number | null = null;
  return {
    listeningSince: () => since,
    async send(text) {
      // Never queue while away: a caller must not wait on an outage (the others resync on return).
      if (pub?.status !== 'ready') throw new Error('not connected');
      await pub.publish(CHANNEL_REDIS, text);
    },
    async start(receive, reconnected) {
      const { default: Redis } = await import('ioredis');
      const options = { maxRetriesPerRequest: 1, connectTimeout: CONNECT_TIMEOUT_MS, lazyConnect: true, retryStrategy: (times: number) => reconnectDelayMs(times) };
      // A notice is worth sending now or never: nothing queued while away, nothing resent after, no long wait.
      pub = new Redis(redisUrl, { ...options, enableOfflineQueue: false, autoResendUnfulfilledCommands: false, commandTimeout: CONNECT_TIMEOUT_MS });
      // Re-subscribing after a reconnection is ours (the 'ready' handler below, its failure handled):
      // ioredis's own would leave a rejected promise unhandled when the connection drops again at once.
      sub = new Redis(redisUrl, { ...options, autoResubscribe: false });
      let down = false;
      for (const c of [pub, sub]) {
        c.on('error', () => {
          if (!down) logger.warn('bus: lost the Redis connection; reconnecting');
          down = true;
        });
      }
      // The listening connection lost: messages may be missed from now on.
      sub.on('close', () => {
        since = null;
        down = true;
      });
      sub.on('ready', () => {
        if (!down) return;
        down = false;
        // Subscribed again (ioredis re-subscribes too; this waits for Redis to confirm it) before
        // the subscribers are told to resync, so nothing published after the resync is missed.
        void sub!.subscribe(CHANNEL_REDIS).then(
          () => {
            logger.warn('bus: listening for changes again');
            since = Date.now();
            reconnected();
          },
          () => {
            down = true;
          },
        );
      });
      sub.on('message', (channel: string, text: string) => {
        if (channel === CHANNEL_REDIS) receive(text);
      });
      try {
        await within(Promise.all([pub.connect(), sub.connect()]), CONNECT_TIMEOUT_MS + 500, failure);
        await sub.subscribe(CHANNEL_REDIS);
        since = Date.now();
      } catch (err) {
        pub.disconnect();
        sub.disconnect();
        const message = (err as Error).message;
        throw new Error(message === failure ? failure : `${failure.slice(0, -1)} (${message}).`, { cause: err });
      }
    },
    async close() {
      since = null;
      await Promise.allSettled([pub, sub].map((c) => (c?.status === 'ready' ? c.quit() : c?.disconnect())));
    },
  };
}
