/** Players and people for the tracking rule tests: a fresh lesson, the credit cap, a person's reports over time, a played lesson. */
import { emptyCoverage, MAX_PLAYBACK_RATE, playedSeconds, type TrackingEventName } from './learning';
import { applyProgress, CREDIT_ALLOWANCE_SECONDS, type CreditClock, type LessonState } from './tracking';

export const fresh = (duration: number): LessonState => ({ lastPosition: 0, furthestPosition: 0, coverage: emptyCoverage(duration), completed: false, sample: null });

/** Most a person may have credited in all, `ms` of real time after their first report. */
export const cap = (ms: number) => CREDIT_ALLOWANCE_SECONDS + (MAX_PLAYBACK_RATE * ms) / 1000;

/**
 * One person as a tracker sees them: their lessons' states and one credit clock (injected time: each
 * report says when it arrived).
 */
export class Person {
  clock: CreditClock = null;
  readonly lessons = new Map<number, LessonState>();
  constructor(readonly durations: Record<number, number> = {}) {}

  /** Applies one report of lesson `id`; returns its new state. */
  report(id: number, event: TrackingEventName, position: number, at: number): LessonState {
    const d = this.durations[id] ?? 60;
    const applied = applyProgress(this.lessons.get(id) ?? fresh(d), event, position, at, d, this.clock);
    this.lessons.set(id, applied.lesson);
    this.clock = applied.clock;
    return applied.lesson;
  }

  /** Seconds credited in all their lessons. */
  get played(): number {
    let n = 0;
    for (const l of this.lessons.values()) n += playedSeconds(l.coverage);
    return n;
  }
}

/** Applies reports `[event, position, at]` of one lesson in order, for a person with the given clock. */
export function run(state: LessonState, duration: number, reports: [TrackingEventName, number, number][], clock: CreditClock = null): LessonState {
  return runWithClock(state, duration, reports, clock).lesson;
}

export function runWithClock(state: LessonState, duration: number, reports: [TrackingEventName, number, number][], clock: CreditClock = null) {
  return reports.reduce((acc, [e, pos, at]) => applyProgress(acc.lesson, e, pos, at, duration, acc.clock), { lesson: state, clock: clock as number });
}

/**
 * A player playing [from, to] at `speed` from real time `t0` (ms): `tracking play`, a `tracking` every
 * 5 s of real time (each arriving up to `jitterMs` early or late), and `tracking end` at `to`.
 */
export function playAt(state: LessonState, from: number, to: number, speed: number, t0: number, duration: number, jitterMs = 0, clock: CreditClock = null) {
  const reports: [TrackingEventName, number, number][] = [['tracking play', from, t0 + jitterMs]];
  let t = t0;
  let pos = from;
  let i = 0;
  while (pos + 5 * speed < to) {
    t += 5000;
    pos += 5 * speed;
    // Positions as a video reports them (not whole seconds), arrival times jittered both ways.
    reports.push(['tracking', pos + 0.03, t + (i++ % 2 === 0 ? -jitterMs : jitterMs)]);
  }
  t += ((to - pos) / speed) * 1000;
  reports.push(['tracking end', to, t]);
  const applied = runWithClock(state, duration, reports, clock);
  return { state: applied.lesson, clock: applied.clock, t };
}

/** Plays a lesson from `from` to `to`, one report every `step` seconds of real time at normal speed. */
export function play(state: LessonState, from: number, to: number, step: number, t0: number, duration: number): { state: LessonState; t: number } {
  let a = applyProgress(state, 'tracking play', from, t0, duration, null);
  let t = t0;
  for (let pos = from + step; pos <= to; pos += step) {
    t += step * 1000;
    a = applyProgress(a.lesson, 'tracking', pos, t, duration, a.clock);
  }
  return { state: a.lesson, t };
}
