/**
 * Rate limits (login, IBO code checks, prospect look-ups, password resets, refused payments, coupon
 * guesses), each counted where `limitStore` says: the database's `rate_limits` table (one atomic
 * upsert per attempt, shared by every process), Redis when `REDIS_URL` is set, or this process's
 * memory (the embedded database, one process). The limits themselves (and the `RATE_LIMITS` setting
 * that changes them) are the configuration's (`config/rate-limits.ts`): the runtime passes those in force.
 *
 * Redis is a convenience, never a dependency: while it cannot be reached (down at start, lost later,
 * or not answering), its limits are counted in the database (in memory for a limiter without one), so
 * they still hold, across processes too, and no request fails because of it. One warning line is
 * logged per outage (not one per request or per reconnect attempt), and counting goes back to Redis as
 * soon as it answers again.
 */
import { lt } from 'drizzle-orm';
import { RateLimiterDrizzle, RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Redis } from 'ioredis';
import type { Db } from '../db/client';
import type { Scheduler } from '../jobs/jobs.server';
import { rateLimits } from '../db/schema';
import { LIMITS, limitStore, type LimitName, type LimitSpec, type LimitStore } from './rate-limit';

export { LIMITS, type LimitName, type LimitSpec } from './rate-limit';

/** The answer to one attempt. */
export type HitResult = { ok: true } | { ok: false; retryAfterSeconds: number };

export interface RateLimiterOptions {
  /** Redis address (`redis://host:6379`); unset or empty counts in this process's memory. */
  redisUrl?: string | null | undefined;
  /** Where the one line per Redis outage goes (default: the process's warnings, one line on stderr). */
  warn?: (line: string) => void;
  /** The limit in force for each name (default: the defaults; the runtime passes the configured ones). */
  spec?: (name: LimitName) => LimitSpec;
  /** The academy's database, for the counts every process must share (see `limitStore`); without it, memory stands in. */
  database?: { db: Db; kind: 'pglite' | 'postgres' };
}

/** The rate limits of one process. */
export interface RateLimiter {
  /** Counts one attempt for `key`; `{ ok: false, retryAfterSeconds }` once the limit is used up. Never throws for a store outage. */
  hit(name: LimitName, key: string): Promise<HitResult>;
  /** Forgets the attempts of `key` (after a successful login). */
  forgive(name: LimitName, key: string): Promise<void>;
  /** How many attempts `key` used in the current window (0 when none). */
  used(name: LimitName, key: string): Promise<number>;
  /** Gives one attempt back to `key` (an attempt that turned out not to count). */
  refund(name: LimitName, key: string): Promise<void>;
  /** The limit in force for `name`. */
  limit(name: LimitName): LimitSpec;
  /**
   * Where the counts of `name` go right now (without a name: the login limits'):
   * `redis`, or else `database` or `memory` (no Redis configured, or Redis unreachable).
   */
  store(name?: LimitName): LimitStore;
  /** Closes the Redis connection, if any. */
  close(): Promise<void>;
}

/** Milliseconds a Redis command may take before the attempt is counted in memory instead. */
const REDIS_COMMAND_TIMEOUT_MS = 1000;

const defaultWarn = (line: string) => process.emitWarning(line, { code: 'ACADEMY_RATE_LIMITS' });

/** Builds a process's rate limits (the runtime builds the app's from its configuration). */
export function createRateLimiter(opts: RateLimiterOptions = {}): RateLimiter {
  const spec = opts.spec ?? ((name: LimitName) => LIMITS[name]);
  const warn = opts.warn ?? defaultWarn;
  const redisUrl = opts.redisUrl?.trim() || null;
  const database = opts.database ?? null;
  const layout = { redis: redisUrl !== null, database: database?.kind ?? null };
  /** Where Redis's limits are counted while it is away. */
  const standIn = database ? 'the database' : "this process's memory";
  const limiters = new Map<LimitName, Promise<RateLimiterAbstract>>();
  let client: Promise<Redis> | null = null;
  let ready = false;
  /** True from the first sign of an outage until Redis is ready again: one warning each time. */
  let outage = false;
  let lastProblem = 'not connected';

  const where = () => {
    try {
      const u = new URL(redisUrl!);
      return `${u.hostname}:${u.port || 6379}`;
    } catch {
      return 'the configured address';
    }
  };
  const noteOutage = (problem: string) => {
    if (outage) return;
    outage = true;
    warn(`rate limits: Redis at ${where()} is ${problem}; counting in ${standIn} until it answers again.`);
  };

  const redis = (): Promise<Redis> =>
    (client ??= import('ioredis').then(async ({ default: Redis }) => {
      const r = new Redis(redisUrl!, {
        // A command while disconnected fails at once (and is counted in memory) instead of waiting.
        enableOfflineQueue: false,
        maxRetriesPerRequest: 1,
        commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
        connectTimeout: 2000,
      });
      // Without a listener, ioredis prints every failed reconnection attempt: one line per outage instead.
      r.on('error', (err: NodeJS.ErrnoException) => {
        lastProblem = err.code ?? err.message;
        noteOutage(`unreachable (${lastProblem})`);
      });
      r.on('ready', () => {
        ready = true;
        outage = false;
      });
      r.on('close', () => {
        ready = false;
      });
      // The first attempts wait for the first connection (or its failure), so that a Redis that is up
      // is not reported unreachable because the process has only just started.
      await new Promise<void>((resolve) => {
        const settle = () => {
          clearTimeout(timer);
          r.off('ready', settle);
          r.off('error', settle);
          resolve();
        };
        const timer = setTimeout(settle, 2000);
        r.once('ready', settle);
        r.once('error', settle);
      });
      return r;
    }));

  /** The counts of `name` in the database's `rate_limits` table (rows keyed `name:key`), or in memory without a database. */
  const shared = (name: LimitName, s: LimitSpec): RateLimiterAbstract =>
    database
      ? // Expired rows are purged by a scheduled job (`purgeExpiredRateLimits`), not by a timer per limit.
        new RateLimiterDrizzle({ storeClient: database.db, schema: rateLimits, keyPrefix: name, points: s.points, duration: s.durationSeconds, clearExpiredByTimeout: false })
      : new RateLimiterMemory({ keyPrefix: name, points: s.points, duration: s.durationSeconds });

  /** The limiter that stands in while Redis is away (the database, else memory); using it marks the outage. */
  const insurance = (name: LimitName, s: LimitSpec) => {
    const standing = shared(name, s);
    for (const method of ['consume', 'delete', 'get', 'penalty', 'reward', 'set', 'block'] as const) {
      const original = standing[method].bind(standing) as (...args: unknown[]) => Promise<unknown>;
      (standing as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
        noteOutage(ready ? 'not answering' : `unreachable (${lastProblem})`);
        return original(...args);
      };
    }
    return standing;
  };

  const limiter = (name: LimitName): Promise<RateLimiterAbstract> => {
    let found = limiters.get(name);
    if (!found) {
      const s = spec(name);
      const kind = limitStore(name, layout);
      found =
        kind === 'redis'
          ? redis().then(
              (storeClient) =>
                new RateLimiterRedis({
                  storeClient,
                  keyPrefix: `academy:${name}`,
                  points: s.points,
                  duration: s.durationSeconds,
                  // Not connected (yet, or any more): count in the stand-in at once rather than fail.
                  rejectIfRedisNotReady: true,
                  insuranceLimiter: insurance(name, s),
                }),
            )
          : Promise.resolve(kind === 'database' ? shared(name, s) : new RateLimiterMemory({ keyPrefix: name, points: s.points, duration: s.durationSeconds }));
      limiters.set(name, found);
    }
    return found;
  };

  return {
    async hit(name, key) {
      try {
        await (await limiter(name)).consume(key);
        return { ok: true };
      } catch (rejection) {
        if (rejection instanceof Error) throw rejection;
        const ms = (rejection as { msBeforeNext?: number }).msBeforeNext ?? 1000;
        return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(ms / 1000)) };
      }
    },
    async forgive(name, key) {
      await (await limiter(name)).delete(key);
    },
    async used(name, key) {
      const res = await (await limiter(name)).get(key);
      return Math.max(0, res?.consumedPoints ?? 0);
    },
    async refund(name, key) {
      await (await limiter(name)).reward(key, 1);
    },
    limit: spec,
    store(name = 'loginPerAddress') {
      const where = limitStore(name, layout);
      if (where !== 'redis') return where;
      return ready ? 'redis' : database ? 'database' : 'memory';
    },
    async close() {
      if (client) (await client).disconnect();
    },
  };
}

/** How often the expired counts of the `rate_limits` table are deleted (by one process). */
export const RATE_LIMIT_PURGE_INTERVAL_MS = 3_600_000;

/** Schedules `purgeExpiredRateLimits`, once an hour across processes. */
export function registerRateLimitPurge(scheduler: Scheduler, db: Db): void {
  scheduler.every('rate-limit-purge', RATE_LIMIT_PURGE_INTERVAL_MS, async ({ now }) => {
    await purgeExpiredRateLimits(db, now);
  });
}

/** Deletes the counts whose window ended before `now` (a scheduled job); returns how many. */
export async function purgeExpiredRateLimits(db: Db, now: Date): Promise<number> {
  const gone = await db.delete(rateLimits).where(lt(rateLimits.expire, now)).returning({ key: rateLimits.key });
  return gone.length;
}
