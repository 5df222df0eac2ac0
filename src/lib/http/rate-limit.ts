/**
 * Where each rate limit is counted, and the growing wait of logins to an account under attack. Pure:
 * the counting is in `rate-limit.server.ts`. The limits themselves (names, defaults) are settings: the
 * configuration owns them with the `RATE_LIMITS` variable that changes them (`config/rate-limits.ts`),
 * and the runtime hands the limits in force to the limiter.
 */
import type { LimitName } from '../config/rate-limits';

export { LIMITS, type LimitName, type LimitSpec } from '../config/rate-limits';

/** Limits that guard money (payments, coupons): counted in the database on every layout. */
const MONEY_LIMITS: ReadonlySet<LimitName> = new Set(['paymentFailuresPerAccount', 'paymentFailuresPerAddress', 'couponGuessesPerAccount', 'couponGuessesPerAddress']);

/** Where a limit's attempts are counted. */
export type LimitStore = 'redis' | 'database' | 'memory';

/** What a process has to count in: Redis (`REDIS_URL`), and its database (`postgres` may be shared by several processes). */
export interface LimitLayout {
  redis: boolean;
  database: 'pglite' | 'postgres' | null;
}

/**
 * Where `name` is counted so that it holds however many processes serve the academy: a limit that
 * guards money in the database, always (one atomic upsert per attempt, exact across processes and
 * restarts, and untouched by a Redis outage); any other in Redis when configured; else in PostgreSQL,
 * which every process shares; else (the embedded database: one process) in this process's memory.
 */
export function limitStore(name: LimitName, layout: LimitLayout): LimitStore {
  if (layout.database !== null && MONEY_LIMITS.has(name)) return 'database';
  if (layout.redis) return 'redis';
  return layout.database === 'postgres' ? 'database' : 'memory';
}

/** The longest a login attempt is held while its account is under attack. */
export const MAX_LOGIN_DELAY_MS = 5_000;

/**
 * How long to hold a login attempt when its account has `failures` wrong passwords (from every
 * address) in the window of a limit of `threshold`: nothing up to the threshold, then a quarter of a
 * second doubling with each further failure, at most `MAX_LOGIN_DELAY_MS`. Slows guessing from many
 * addresses without ever refusing the owner's right password.
 */
export function loginDelayMs(failures: number, threshold: number): number {
  const over = failures - threshold;
  if (!(over > 0)) return 0;
  return Math.min(MAX_LOGIN_DELAY_MS, 250 * 2 ** Math.min(over - 1, 16));
}
