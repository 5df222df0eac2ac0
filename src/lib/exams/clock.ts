/**
 * An exam attempt's clock: its deadline and the grace period after it, whether an answer is still
 * accepted, and the countdown the learner sees and hears. Time is always passed in (ms since epoch).
 * No imports: the exam island bundles these for the browser without the schemas of `exams.ts`.
 */

/* ───────────── time ───────────── */

/** How long after the deadline an answer already on its way is still accepted. */
export const GRACE_MS = 15_000;

/** When an attempt started at `startedAt` (ms) ends, in ms. */
export function attemptDeadline(startedAt: number, minutes: number): number {
  return startedAt + minutes * 60_000;
}

/** Time left before the deadline, in ms (never negative). */
export function remainingMs(deadline: number, now: number): number {
  return Math.max(0, deadline - now) || 0;
}

/** Whether answers are accepted: before the deadline, within the grace after it, or no longer. */
export type AnswerWindow = 'open' | 'grace' | 'closed';

/**
 * Where `now` falls: `'open'` up to the deadline (included), `'grace'` up to `GRACE_MS` after it
 * (included), `'closed'` after that. A time that is not a number is `'closed'`.
 */
export function answerWindow(deadline: number, now: number): AnswerWindow {
  if (!Number.isFinite(deadline) || !Number.isFinite(now)) return 'closed';
  if (now <= deadline) return 'open';
  return now <= deadline + GRACE_MS ? 'grace' : 'closed';
}

/** True once no more answers are accepted (`now > deadline + GRACE_MS`): the attempt is graded as it stands. */
export function shouldAutoGrade(deadline: number, now: number): boolean {
  return answerWindow(deadline, now) === 'closed';
}

/* ───────────── the countdown ───────────── */

/** Minutes remaining at which the countdown speaks (politely), each once. */
export const ANNOUNCEMENTS = [5, 1] as const;
export type Announcement = (typeof ANNOUNCEMENTS)[number];

/**
 * How late after its moment an announcement is still made. The countdown ticks every second, so the
 * first tick after 5:00 (or 1:00) normally sees 4:59.x; ten seconds absorbs a busy page or a throttled
 * timer. Later than that the moment has passed: saying "5 minutes left" would be wrong, and someone
 * who opens the exam with 3 minutes left hears only the 1-minute announcement.
 */
export const ANNOUNCEMENT_WINDOW_MS = 10_000;

/**
 * The announcement to make now, or `null`: `m` minutes are announced when the time left is at most
 * `m` minutes but less than `ANNOUNCEMENT_WINDOW_MS` under it, and `m` is not already in
 * `alreadyAnnounced` (the caller adds what it announced).
 */
export function announcementDue(remainingMs: number, alreadyAnnounced: ReadonlySet<Announcement>): Announcement | null {
  if (!Number.isFinite(remainingMs)) return null;
  for (const minutes of ANNOUNCEMENTS) {
    const at = minutes * 60_000;
    if (!alreadyAnnounced.has(minutes) && remainingMs <= at && remainingMs > at - ANNOUNCEMENT_WINDOW_MS) return minutes;
  }
  return null;
}

/**
 * Time left as the countdown shows it: `'mm:ss'`, or `'h:mm:ss'` from one hour. Seconds are rounded
 * up, so `'00:00'` shows only when the time is over; never negative.
 */
export function formatRemaining(ms: number): string {
  const total = Number.isFinite(ms) ? Math.max(0, Math.ceil(ms / 1000)) : 0;
  const h = Math.floor(total / 3600);
  const m = String(Math.floor((total % 3600) / 60)).padStart(2, '0');
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${m}:${s}` : `${m}:${s}`;
}
