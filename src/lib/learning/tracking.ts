/**
 * Pure rules of progress tracking on the server: how one progress event changes what is known of a
 * person's lesson (positions, played seconds, completion), the flood limit, a small bounded cache, and
 * the HTTP fallback's request format. The I/O (session, database, batching) is in `tracking.server.ts`.
 */
import { z } from '../zod';
import { markPlayed, playedBetween, playedEnough, TRACKING_EVENTS, type Coverage, type Sample, type TrackingError, type TrackingEventName } from './learning';

/* ───────────── one lesson's state ───────────── */

/**
 * A report older than this is not a base for crediting playback: after a long pause the next report
 * only restarts the count (the player reports every few seconds while it plays).
 */
export const SAMPLE_STALE_MS = 60_000;

/** What the server keeps of one person's progress in one lesson between events. */
export interface LessonState {
  lastPosition: number;
  furthestPosition: number;
  /** Seconds really played (one character per second of the lesson). */
  coverage: Coverage;
  completed: boolean;
  /** The last report this process saw (server time), or `null` before the first one. */
  sample: Sample | null;
}

/**
 * Applies one accepted progress event (its position already clamped to the lesson) to a lesson's
 * state. `tracking play` only records where playback starts; `tracking` credits the seconds played
 * since the previous report (never a seek: see `playedBetween`); `tracking end` does the same and then
 * completes the lesson when enough of it was really played. A completed lesson stays completed.
 */
export function applyProgress(state: LessonState, event: TrackingEventName, position: number, at: number, durationSeconds: number): LessonState {
  const next: Sample = { position, at };
  let coverage = state.coverage;
  if (event !== 'tracking play' && state.sample && at - state.sample.at <= SAMPLE_STALE_MS) {
    const span = playedBetween(state.sample, next);
    if (span) coverage = markPlayed(coverage, span[0], span[1]);
  }
  return {
    lastPosition: position,
    furthestPosition: Math.max(state.furthestPosition, position),
    coverage,
    completed: state.completed || (event === 'tracking end' && playedEnough(coverage, durationSeconds)),
    sample: next,
  };
}

/** Folds what the database holds (possibly written by another process or tab) into this process's state. */
export function mergeStored(state: LessonState, stored: { furthestPosition: number; coverage: Coverage; completed: boolean }): LessonState {
  return {
    ...state,
    furthestPosition: Math.max(state.furthestPosition, stored.furthestPosition),
    coverage: orCoverage(state.coverage, stored.coverage),
    completed: state.completed || stored.completed,
  };
}

/** Union of two coverages of the same lesson; of different lengths (the video changed), the first wins. */
export function orCoverage(a: Coverage, b: Coverage): Coverage {
  if (a.length !== b.length) return a;
  let out = '';
  for (let i = 0; i < a.length; i++) out += a.charCodeAt(i) === 49 || b.charCodeAt(i) === 49 ? '1' : '0';
  return out;
}

/* ───────────── flood limit ───────────── */

/** A token bucket: `ratePerSecond` events on average, bursts of up to `burst`. */
export interface BucketSpec {
  ratePerSecond: number;
  burst: number;
}

/** The default flood limit of one socket (and of one person on the HTTP fallback). */
export const TRACKING_FLOOD_LIMIT: BucketSpec = { ratePerSecond: 8, burst: 20 };

export interface Bucket {
  tokens: number;
  at: number;
}

/** A full bucket. */
export function newBucket(spec: BucketSpec, now: number): Bucket {
  return { tokens: spec.burst, at: now };
}

/** Takes one token (mutating the bucket); `false` when the bucket is empty, i.e. the event is refused. */
export function takeToken(bucket: Bucket, spec: BucketSpec, now: number): boolean {
  const elapsed = Math.max(0, now - bucket.at) / 1000;
  bucket.tokens = Math.min(spec.burst, bucket.tokens + elapsed * spec.ratePerSecond);
  bucket.at = now;
  if (bucket.tokens < 1) return false;
  bucket.tokens -= 1;
  return true;
}

/* ───────────── bounded memory ───────────── */

/**
 * A map that forgets: at most `maxSize` entries (the least recently used go first) and none unused
 * for longer than `ttlMs`. Time is passed in, so it is testable without waiting.
 */
export class BoundedCache<K, V> {
  readonly #entries = new Map<K, { value: V; at: number }>();
  constructor(
    readonly maxSize: number,
    readonly ttlMs: number,
  ) {}

  get size(): number {
    return this.#entries.size;
  }

  /** The value, refreshed as recently used; `undefined` when absent or expired. */
  get(key: K, now: number): V | undefined {
    const e = this.#entries.get(key);
    if (!e) return undefined;
    this.#entries.delete(key);
    if (now - e.at > this.ttlMs) return undefined;
    e.at = now;
    this.#entries.set(key, e);
    return e.value;
  }

  set(key: K, value: V, now: number): void {
    this.#entries.delete(key);
    this.#entries.set(key, { value, at: now });
    // Map iteration is insertion order: the first entries are the least recently used.
    for (const [k, e] of this.#entries) {
      if (this.#entries.size <= this.maxSize && now - e.at <= this.ttlMs) break;
      this.#entries.delete(k);
    }
  }

  delete(key: K): void {
    this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
  }
}

/* ───────────── transports ───────────── */

/** The socket room of one person: every open tab or device of theirs joins it. */
export function contactRoom(contactId: number): string {
  return `contact:${contactId}`;
}

/** A course id as the socket handshake or the HTTP body may carry it (a positive integer, or its digits). */
export const courseIdSchema = z.union([z.number(), z.string().regex(/^\d{1,10}$/).transform(Number)]).pipe(z.number().int().positive().max(2_147_483_647));

/** Largest HTTP fallback body accepted (a progress event is well under 300 bytes). */
export const MAX_TRACKING_BODY_BYTES = 4096;

/** The HTTP fallback's body: which event, in which course, and the progress event itself (checked later). */
export const trackingRequestSchema = z.object({
  event: z.enum(TRACKING_EVENTS),
  courseId: courseIdSchema,
  payload: z.unknown(),
  /** Language of the error message (optional; the `lang` query parameter works too). */
  lang: z.string().max(5).optional(),
});
export type TrackingRequest = z.infer<typeof trackingRequestSchema>;

/** The HTTP status of each refusal. */
export const TRACKING_HTTP_STATUS: Record<TrackingError, number> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  'rate-limited': 429,
  unavailable: 503,
};

/** The message-catalogue key of each refusal (`learning.trackingErrors.*`). */
export const TRACKING_ERROR_KEY = {
  invalid: 'invalid',
  unauthorized: 'unauthorized',
  forbidden: 'forbidden',
  'rate-limited': 'rateLimited',
  unavailable: 'unavailable',
} as const satisfies Record<TrackingError, string>;

/** Parses a `Cookie` header and returns one cookie's value (decoded), or `undefined`. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    const raw = part.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1');
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }
  return undefined;
}
