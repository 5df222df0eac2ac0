/**
 * Pure rules of progress tracking on the server: how one progress event changes what is known of a
 * person's lesson (positions, played seconds, completion), the flood limit, a small bounded cache, and
 * the HTTP fallback's request format. The I/O (session, database, batching) is in the `tracking*.server.ts` files.
 */
import { z } from '../zod';
import { MAX_PLAYBACK_RATE, PLAYBACK_SLACK_SECONDS, playedBetween, playedEnough, TRACKING_EVENTS, type Coverage, type Sample, type TrackingError, type TrackingEventName } from './learning';

/**
 * A report older than this is not a base for crediting playback: after a long pause the next report
 * only restarts the count (the player reports every few seconds while it plays).
 */
export const SAMPLE_STALE_MS = 60_000;

/* ───────────── the credit clock ───────────── */

/**
 * Played seconds are paid for in real time, per person: a person watches one video at a time, so
 * however reports arrive (a burst over HTTP, many lessons at once, two tabs, two app processes), the
 * seconds credited to one person, in all their lessons and courses together, never exceed the real
 * time elapsed × `MAX_PLAYBACK_RATE` (the player's fastest speed), plus one allowance for network
 * jitter.
 *
 * The state is one instant per person, the credit clock: everything credited so far is paid for up to
 * it. Crediting n seconds moves it n / rate seconds forward, and it may run ahead of the present by the
 * allowance only: so the allowance is spent once, never per event or per lesson, and comes back only
 * as real time passes. Time spent away buys at most `CREDIT_IDLE_MS` of credit. A person never seen
 * before starts their clock at their first report (nothing in hand but the allowance).
 * The database applies the same rule (`grantCredit`, in the progress writer's transaction), so
 * per-request HTTP calls and other processes share the budget; this process's copy only predicts
 * what the database will accept.
 */
export const CREDIT_ALLOWANCE_SECONDS = PLAYBACK_SLACK_SECONDS;
/** The longest idle time that still turns into credit (a report older than this is stale anyway). */
export const CREDIT_IDLE_MS = SAMPLE_STALE_MS;
/** Real time (ms) one credited second costs. */
export const CREDIT_MS_PER_SECOND = 1000 / MAX_PLAYBACK_RATE;
/** How far ahead of the present the credit clock may run: the allowance, in real time (ms). */
export const CREDIT_AHEAD_MS = CREDIT_ALLOWANCE_SECONDS * CREDIT_MS_PER_SECOND;

/** A person's credit clock (ms), or `null` while unknown. */
export type CreditClock = number | null;

/** Where the credit clock stands at `at`: never behind `at - CREDIT_IDLE_MS`; unknown, it starts at `at`. */
export function creditBase(clock: CreditClock, at: number): number {
  return Math.max(clock ?? at, at - CREDIT_IDLE_MS);
}

/** Whole seconds that may still be credited at `at`. */
export function creditAvailable(clock: CreditClock, at: number): number {
  return Math.max(0, Math.floor((at + CREDIT_AHEAD_MS - creditBase(clock, at)) / CREDIT_MS_PER_SECOND));
}

/** The clock once `seconds` are credited at `at` (crediting nothing leaves it as it is; unknown, it starts at `at`). */
export function spendCredit(clock: CreditClock, at: number, seconds: number): number {
  return seconds > 0 ? creditBase(clock, at) + seconds * CREDIT_MS_PER_SECOND : (clock ?? at);
}

/** The later of two credit clocks (it only moves forward; unknown is earlier than any). */
export function laterClock(a: CreditClock, b: CreditClock): CreditClock {
  if (a === null) return b;
  if (b === null) return a;
  return Math.max(a, b);
}

/**
 * Marks the seconds [from, to) as played, but at most `max` of those not played yet (the first ones);
 * returns the coverage and how many seconds it added.
 */
export function markPlayedUpTo(bits: Coverage, from: number, to: number, max: number): { coverage: Coverage; added: number } {
  const start = Math.max(0, Math.floor(from));
  const end = Math.min(bits.length, Math.ceil(to));
  if (end <= start) return { coverage: bits, added: 0 };
  let added = 0;
  let middle = '';
  for (let i = start; i < end; i++) {
    if (bits.charCodeAt(i) === 49) middle += '1';
    else if (added < max) {
      middle += '1';
      added++;
    } else middle += '0';
  }
  return { coverage: bits.slice(0, start) + middle + bits.slice(end), added };
}

/* ───────────── one lesson's state ───────────── */

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

/** What the database holds of a lesson, as far as this process's state is concerned. */
export interface StoredLesson {
  furthestPosition: number;
  coverage: Coverage;
  completed: boolean;
}

/** A lesson's state after one event, and the person's credit clock after paying for it. */
export interface Applied {
  lesson: LessonState;
  clock: number;
}

/**
 * Applies one accepted progress event (its position already clamped to the lesson) to a lesson's
 * state, at server time `at` (ms), paying for it with the person's credit clock (shared by all their
 * lessons). `tracking play` only records where playback starts; `tracking` credits the seconds played
 * since the previous report of this lesson (never a seek: see `playedBetween`), as far as the person's
 * credit allows; `tracking end` does the same and then completes the lesson when enough of it was
 * really played. A completed lesson stays completed.
 */
export function applyProgress(state: LessonState, event: TrackingEventName, position: number, at: number, durationSeconds: number, clock: CreditClock): Applied {
  const next: Sample = { position, at };
  let coverage = state.coverage;
  let credited = 0;
  if (event !== 'tracking play' && state.sample && at - state.sample.at <= SAMPLE_STALE_MS) {
    const span = playedBetween(state.sample, next);
    if (span) ({ coverage, added: credited } = markPlayedUpTo(coverage, span[0], span[1], creditAvailable(clock, at)));
  }
  return {
    lesson: {
      lastPosition: position,
      furthestPosition: Math.max(state.furthestPosition, position),
      coverage,
      completed: state.completed || (event === 'tracking end' && playedEnough(coverage, durationSeconds)),
      sample: next,
    },
    clock: spendCredit(clock, at, credited),
  };
}

/** Folds what the database holds (possibly written by another process or tab) into this process's state. */
export function mergeStored(state: LessonState, stored: StoredLesson): LessonState {
  return {
    ...state,
    furthestPosition: Math.max(state.furthestPosition, stored.furthestPosition),
    coverage: orCoverage(state.coverage, stored.coverage),
    completed: state.completed || stored.completed,
  };
}

/**
 * Folds in the row a write of `sent` returned. When the database did not take every second sent
 * (another lesson, process or request spent the person's budget first), only what it stored counts,
 * completion included.
 */
export function settleWrite(state: LessonState, sent: Coverage, stored: StoredLesson): LessonState {
  if (covers(stored.coverage, sent)) return mergeStored(state, stored);
  return { ...mergeStored(state, stored), coverage: stored.coverage, completed: stored.completed };
}

/* ───────────── the database's check ───────────── */

/** One row of a write, as the credit check sees it. */
export interface CreditClaim {
  contactId: number;
  /** When its last event was reported (ms). */
  at: number;
  /** The lesson's seconds the database holds (one character per second), or `null` without a row. */
  stored: Coverage | null;
  /** The seconds the writing process says were played (its whole coverage of the lesson). */
  wanted: Coverage;
  /** Whether the writing process says the lesson is completed. */
  completed: boolean;
}

/** What the database takes of a claim. */
export interface CreditGrant {
  /** The lesson's coverage to store: what was stored, plus the new seconds paid for. */
  coverage: Coverage;
  /** The claimed completion, kept only when every new second claimed was paid for. */
  completed: boolean;
}

/**
 * The progress writer's check, run on the rows of one write with the people's credit clocks as the
 * database holds them (locked): the seconds a row adds to what is stored are paid for with its
 * person's clock, rows taken in the order they were reported; whatever the clock cannot pay for yet
 * is dropped (the first new seconds are kept), and so is the completion it claimed. Returns the grant
 * of each claim, in order, and the clocks of the people who spent credit.
 */
export function grantCredit(clocks: ReadonlyMap<number, number>, claims: readonly CreditClaim[]): { grants: CreditGrant[]; clocks: Map<number, number> } {
  const now = new Map(clocks);
  const spent = new Map<number, number>();
  const grants: CreditGrant[] = new Array<CreditGrant>(claims.length);
  const order = claims.map((_, i) => i).sort((a, b) => claims[a]!.at - claims[b]!.at || a - b);
  for (const i of order) {
    const claim = claims[i]!;
    // A stored coverage of another length describes another video: none of it is kept.
    const stored = claim.stored !== null && claim.stored.length === claim.wanted.length ? claim.stored : null;
    const clock = now.get(claim.contactId) ?? null;
    let budget = creditAvailable(clock, claim.at);
    let fresh = 0;
    let taken = 0;
    let coverage = '';
    for (let k = 0; k < claim.wanted.length; k++) {
      const had = stored !== null && stored.charCodeAt(k) === 49;
      const wants = claim.wanted.charCodeAt(k) === 49;
      if (wants && !had) {
        fresh++;
        if (budget > 0) {
          budget--;
          taken++;
          coverage += '1';
          continue;
        }
      }
      coverage += had ? '1' : '0';
    }
    grants[i] = { coverage, completed: claim.completed && taken === fresh };
    if (taken > 0) {
      const after = spendCredit(clock, claim.at, taken);
      now.set(claim.contactId, after);
      spent.set(claim.contactId, after);
    }
  }
  return { grants, clocks: spent };
}

/** True when every second played in `b` is played in `a` too (same lesson length). */
export function covers(a: Coverage, b: Coverage): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < b.length; i++) if (b.charCodeAt(i) === 49 && a.charCodeAt(i) !== 49) return false;
  return true;
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

/** A map that forgets (least recently used first, and what goes unused for a while): the one bounded cache. */
export { BoundedCache } from '../bounded-cache';

/* ───────────── transports ───────────── */

/**
 * The socket room of one person in one course: their open tabs and devices on that course's player
 * join it, so progress is told to them and never to a socket opened on another course.
 */
export function progressRoom(contactId: number, courseId: number): string {
  return `progress:${contactId}:${courseId}`;
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
