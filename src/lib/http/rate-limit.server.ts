/**
 * Rate limits (login, IBO code checks, prospect look-ups, password resets). In memory by default;
 * on Redis when `REDIS_URL` is set, so several app processes share the counts. The limits themselves
 * (and the `RATE_LIMITS` setting that changes them) are in `rate-limit.ts`.
 */
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { limitSpec, type LimitName } from './rate-limit';

export { LIMITS, type LimitName, type LimitSpec } from './rate-limit';

const KEY = Symbol.for('academy.rateLimiters');
type Holder = { [KEY]?: Map<string, RateLimiterAbstract> };

let redisClient: unknown;
async function redis(): Promise<unknown> {
  if (!redisClient && process.env.REDIS_URL) {
    const { default: Redis } = await import('ioredis');
    redisClient = new Redis(process.env.REDIS_URL, { enableOfflineQueue: false, lazyConnect: false, maxRetriesPerRequest: 1 });
  }
  return redisClient;
}

async function limiter(name: LimitName): Promise<RateLimiterAbstract> {
  const g = globalThis as Holder;
  g[KEY] ??= new Map();
  const found = g[KEY].get(name);
  if (found) return found;
  const spec = limitSpec(name);
  const client = await redis();
  const made = client
    ? new RateLimiterRedis({ storeClient: client, keyPrefix: `academy:${name}`, points: spec.points, duration: spec.durationSeconds, insuranceLimiter: new RateLimiterMemory({ points: spec.points, duration: spec.durationSeconds }) })
    : new RateLimiterMemory({ keyPrefix: name, points: spec.points, duration: spec.durationSeconds });
  g[KEY].set(name, made);
  return made;
}

/** Counts one attempt for `key`; resolves `{ ok: false, retryAfterSeconds }` once the limit is used up. */
export async function hit(name: LimitName, key: string): Promise<{ ok: true } | { ok: false; retryAfterSeconds: number }> {
  try {
    await (await limiter(name)).consume(key);
    return { ok: true };
  } catch (rejection) {
    if (rejection instanceof Error) throw rejection;
    const ms = (rejection as { msBeforeNext?: number }).msBeforeNext ?? 1000;
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(ms / 1000)) };
  }
}

/** Forgets the attempts of `key` (after a successful login). */
export async function forgive(name: LimitName, key: string): Promise<void> {
  await (await limiter(name)).delete(key);
}
