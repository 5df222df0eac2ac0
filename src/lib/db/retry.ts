/**
 * Running again what PostgreSQL gave up on: of two colliding transactions (a deadlock, a serialization
 * failure) one is rolled back with 40P01 / 40001, and the remedy is to run it again, a moment later.
 */
import { databaseConflict } from './unavailable';

export interface RetryOptions {
  /** How many times to run it in all (default 4). */
  attempts?: number;
  /** The first pause (ms, default 15); each later one doubles, and each is a random part of it (jitter). */
  baseMs?: number;
  /** The random source of the jitter (tests). */
  random?: () => number;
  /** How to wait (tests). */
  sleep?: (ms: number) => Promise<void>;
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs `work`, and again (up to `attempts` times in all, after a short jittered pause) while it fails
 * with a serialization failure or a deadlock. Any other failure, or the last collision, is thrown:
 * `databaseBusy` answers a lasting collision with 503. `work` must be a whole transaction (or one
 * statement), so nothing of a failed run remains.
 */
export async function retryConflicts<T>(work: () => Promise<T>, opts: RetryOptions = {}): Promise<T> {
  const { attempts = 4, baseMs = 15, random = Math.random, sleep = pause } = opts;
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (err) {
      if (attempt >= attempts || !databaseConflict(err)) throw err;
      await sleep(Math.round(baseMs * 2 ** (attempt - 1) * (0.5 + random())));
    }
  }
}
