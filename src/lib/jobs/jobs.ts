/** The scheduler's arithmetic: time slots of recurring jobs, and retry backoff of one-off jobs. */

/** The slot `now` falls in for a job run every `intervalMs` (slots are numbered from the epoch). */
export function slotOf(nowMs: number, intervalMs: number): number {
  if (!(intervalMs > 0)) throw new Error('a recurring job needs a positive interval');
  return Math.floor(nowMs / intervalMs);
}

/** A one-off job is tried this many times, then left with its last error. */
export const MAX_ATTEMPTS = 5;

/** How long after failed attempt `attempts` (1, 2, …) to try again: 10 s, 40 s, 160 s… at most an hour. */
export function retryDelayMs(attempts: number): number {
  return Math.min(3_600_000, 10_000 * 4 ** Math.max(0, attempts - 1));
}

/** How long a claimed one-off job stays with its worker before another may take it over (a crashed worker). */
export const LEASE_MS = 60_000;

/** Finished runs of recurring jobs are kept this long (for looking back), then deleted. */
export const KEEP_RUNS_MS = 7 * 24 * 3_600_000;
