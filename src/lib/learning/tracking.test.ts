import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { emptyCoverage, MAX_PLAYBACK_RATE, playedEnough, playedSeconds, TRACKING_EVENTS, type TrackingEventName } from './learning';
import {
  applyProgress,
  courseIdSchema,
  covers,
  CREDIT_ALLOWANCE_SECONDS,
  CREDIT_IDLE_MS,
  creditAvailable,
  grantCredit,
  laterClock,
  markPlayedUpTo,
  mergeStored,
  newBucket,
  orCoverage,
  progressRoom,
  SAMPLE_STALE_MS,
  settleWrite,
  spendCredit,
  takeToken,
  trackingRequestSchema,
  type CreditClaim,
  type CreditClock,
  type LessonState,
} from './tracking';

const fresh = (duration: number): LessonState => ({ lastPosition: 0, furthestPosition: 0, coverage: emptyCoverage(duration), completed: false, sample: null });

/** Most a person may have credited in all, `ms` of real time after their first report. */
const cap = (ms: number) => CREDIT_ALLOWANCE_SECONDS + (MAX_PLAYBACK_RATE * ms) / 1000;

/**
 * One person as a tracker sees them: their lessons' states and one credit clock (injected time: each
 * report says when it arrived).
 */
class Person {
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
function run(state: LessonState, duration: number, reports: [TrackingEventName, number, number][], clock: CreditClock = null): LessonState {
  return runWithClock(state, duration, reports, clock).lesson;
}

function runWithClock(state: LessonState, duration: number, reports: [TrackingEventName, number, number][], clock: CreditClock = null) {
  return reports.reduce((acc, [e, pos, at]) => applyProgress(acc.lesson, e, pos, at, duration, acc.clock), { lesson: state, clock: clock as number });
}

/**
 * A player playing [from, to] at `speed` from real time `t0` (ms): `tracking play`, a `tracking` every
 * 5 s of real time (each arriving up to `jitterMs` early or late), and `tracking end` at `to`.
 */
function playAt(state: LessonState, from: number, to: number, speed: number, t0: number, duration: number, jitterMs = 0, clock: CreditClock = null) {
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
function play(state: LessonState, from: number, to: number, step: number, t0: number, duration: number): { state: LessonState; t: number } {
  let a = applyProgress(state, 'tracking play', from, t0, duration, null);
  let t = t0;
  for (let pos = from + step; pos <= to; pos += step) {
    t += step * 1000;
    a = applyProgress(a.lesson, 'tracking', pos, t, duration, a.clock);
  }
  return { state: a.lesson, t };
}

describe('applyProgress', () => {
  it('credits only the seconds played between reports, not the start', () => {
    const s1 = applyProgress(fresh(60), 'tracking play', 0, 0, 60, null);
    expect(playedSeconds(s1.lesson.coverage)).toBe(0);
    expect(s1.lesson.sample).toEqual({ position: 0, at: 0 });
    expect(s1.clock).toBe(0);
    const s2 = applyProgress(s1.lesson, 'tracking', 5, 5000, 60, s1.clock);
    expect(playedSeconds(s2.lesson.coverage)).toBe(5);
    expect(s2.lesson.lastPosition).toBe(5);
    expect(s2.lesson.furthestPosition).toBe(5);
    expect(s2.clock).toBe(2500);
  });

  it('keeps the furthest position when the viewer goes back, and credits nothing for going back', () => {
    const { state, t } = play(fresh(60), 0, 30, 5, 0, 60);
    const back = applyProgress(state, 'tracking', 10, t + 5000, 60, null).lesson;
    expect(back.lastPosition).toBe(10);
    expect(back.furthestPosition).toBe(30);
    expect(playedSeconds(back.coverage)).toBe(30);
  });

  it('does not complete a lesson whose end was reached by seeking', () => {
    const s = run(fresh(60), 60, [
      ['tracking play', 0, 0],
      ['tracking', 5, 5000],
      ['tracking end', 60, 6000],
    ]);
    expect(s.completed).toBe(false);
    expect(s.furthestPosition).toBe(60);
    expect(playedSeconds(s.coverage)).toBe(5);
  });

  it('completes a lesson really played to its end, and it stays completed', () => {
    const { state, t } = play(fresh(60), 0, 55, 5, 0, 60);
    const end = applyProgress(state, 'tracking end', 60, t + 5000, 60, t).lesson;
    expect(end.completed).toBe(true);
    const again = run(end, 60, [
      ['tracking play', 0, t + 9000],
      ['tracking end', 0, t + 9500],
    ]);
    expect(again.completed).toBe(true);
  });

  it('a play event restarts the count (a seek followed by play is not credited)', () => {
    const { state, t } = play(fresh(60), 0, 10, 5, 0, 60);
    const after = run(state, 60, [
      ['tracking play', 50, t + 1000],
      ['tracking', 55, t + 6000],
    ]);
    expect(playedSeconds(after.coverage)).toBe(15);
  });

  it('after a long pause the next report credits nothing (the gap could hide a seek)', () => {
    const s1 = applyProgress(fresh(600), 'tracking play', 0, 0, 600, null);
    const s2 = applyProgress(s1.lesson, 'tracking', 100, SAMPLE_STALE_MS + 1, 600, s1.clock);
    expect(playedSeconds(s2.lesson.coverage)).toBe(0);
    const s3 = applyProgress(s2.lesson, 'tracking', 105, SAMPLE_STALE_MS + 5001, 600, s2.clock);
    expect(playedSeconds(s3.lesson.coverage)).toBe(5);
  });

  it('an end event alone (no play before) completes nothing', () => {
    expect(applyProgress(fresh(8), 'tracking end', 8, 0, 8, null).lesson.completed).toBe(false);
  });
});

describe('the credit clock: no more credit than real time allows', () => {
  it('a burst of reports (play, 1.5, 3, 4.5 … then end, within 120 ms) credits the allowance at most and completes nothing', () => {
    const reports: [TrackingEventName, number, number][] = [['tracking play', 0, 0]];
    for (let pos = 1.5, t = 20; pos < 7; pos += 1.5, t += 20) reports.push(['tracking', pos, t]);
    reports.push(['tracking end', 7, 120]);
    const { lesson: s, clock } = runWithClock(fresh(7), 7, reports);
    expect(playedSeconds(s.coverage)).toBeLessThanOrEqual(cap(120));
    expect(playedSeconds(s.coverage)).toBe(1);
    expect(s.completed).toBe(false);
    // The same reports, a second later, may credit two seconds more: time is what pays.
    const later = run(s, 7, [['tracking play', 1, 1120], ['tracking', 2.5, 1140], ['tracking', 4, 1160]], clock);
    expect(playedSeconds(later.coverage)).toBeLessThanOrEqual(cap(1160));
  });

  it('a play event does not bring the allowance back (play, report, play, report … in a burst)', () => {
    const reports: [TrackingEventName, number, number][] = [];
    for (let i = 0; i < 10; i++) reports.push(['tracking play', i * 1.5, i * 10], ['tracking', (i + 1) * 1.5, i * 10 + 5]);
    const s = run(fresh(60), 60, reports);
    expect(playedSeconds(s.coverage)).toBeLessThanOrEqual(cap(100));
  });

  it('real-time play at 1× and at 2× is credited in full and completes the lesson, also with network jitter', () => {
    for (const speed of [1, 1.5, 2]) {
      for (const duration of [7, 7.4, 60, 183.2]) {
        for (const jitterMs of [0, 150]) {
          const { state } = playAt(fresh(duration), 0, duration, speed, 1_700_000_000_000, duration, jitterMs);
          expect(state.completed, `${speed}× ${duration} s ±${jitterMs} ms`).toBe(true);
          expect(playedSeconds(state.coverage), `${speed}× ${duration} s ±${jitterMs} ms`).toBe(Math.ceil(duration));
        }
      }
    }
  });

  it('a pause, then resuming minutes later, is credited in full', () => {
    const half = playAt(fresh(60), 0, 30, 1, 0, 60);
    const paused = applyProgress(half.state, 'tracking', 30, half.t + 200, 60, half.clock);
    const resumed = playAt(paused.lesson, 30, 60, 1, half.t + 10 * 60_000, 60, 0, paused.clock);
    expect(playedSeconds(resumed.state.coverage)).toBe(60);
    expect(resumed.state.completed).toBe(true);
  });

  it('time away buys at most a minute of credit: a long pause followed by a burst', () => {
    const start = applyProgress(fresh(900), 'tracking play', 0, 0, 900, null);
    const reports: [TrackingEventName, number, number][] = [['tracking play', 0, 3_600_000]];
    for (let i = 1; i <= 600; i++) reports.push(['tracking', i * 1.5, 3_600_000 + i]);
    const s = run(start.lesson, 900, reports, start.clock);
    expect(playedSeconds(s.coverage)).toBeLessThanOrEqual(CREDIT_ALLOWANCE_SECONDS + MAX_PLAYBACK_RATE * ((CREDIT_IDLE_MS + 600) / 1000));
    expect(playedSeconds(s.coverage)).toBeGreaterThan(100);
  });

  it('two tabs share one budget: taking turns in a burst credits no more than one tab would', () => {
    // The person's tabs report into the same lesson state, each going on from where the other is.
    const reports: [TrackingEventName, number, number][] = [
      ['tracking play', 0, 0], // tab A
      ['tracking play', 0, 5], // tab B
    ];
    for (let i = 1; i <= 4; i++) reports.push(['tracking', i * 1.5, 10 * i], ['tracking play', i * 1.5, 10 * i + 5]);
    reports.push(['tracking end', 7, 60]);
    const s = run(fresh(7), 7, reports);
    expect(playedSeconds(s.coverage)).toBeLessThanOrEqual(cap(60));
    expect(s.completed).toBe(false);
  });

  it('two tabs: the second one taking over where the first stopped completes the lesson', () => {
    const tabA = playAt(fresh(60), 0, 30, 1, 0, 60);
    const paused = applyProgress(tabA.state, 'tracking', 30, tabA.t + 100, 60, tabA.clock);
    const tabB = playAt(paused.lesson, 30, 60, 2, tabA.t + 3000, 60, 0, paused.clock);
    expect(playedSeconds(tabB.state.coverage)).toBe(60);
    expect(tabB.state.completed).toBe(true);
  });

  it('whatever the reports, the seconds credited never exceed real time × the fastest speed + the allowance', () => {
    // Each report moves the video a little (mostly forward, as fast-forwarding does) after a short while.
    const report = fc.tuple(fc.constantFrom(...TRACKING_EVENTS), fc.integer({ min: -30, max: 60 }).map((tenths) => tenths / 10), fc.oneof(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 5000 })));
    fc.assert(
      fc.property(fc.array(report, { minLength: 1, maxLength: 80 }), (steps) => {
        let t = 1_000_000;
        let pos = 0;
        const reports = steps.map(([e, move, gap]) => [e, (pos = Math.min(120, Math.max(0, pos + move))), (t += gap)] as [TrackingEventName, number, number]);
        const s = run(fresh(120), 120, reports);
        expect(playedSeconds(s.coverage)).toBeLessThanOrEqual(cap(t - reports[0]![2]));
      }),
    );
  });

  it('counts whole seconds that may still be credited', () => {
    expect(creditAvailable(null, 5000)).toBe(Math.floor(CREDIT_ALLOWANCE_SECONDS));
    expect(creditAvailable(0, 5000)).toBe(11);
    expect(creditAvailable(10_000, 5000)).toBe(0);
    expect(creditAvailable(0, 10 * 60_000)).toBe(Math.floor(CREDIT_ALLOWANCE_SECONDS + (MAX_PLAYBACK_RATE * CREDIT_IDLE_MS) / 1000));
  });

  it('spends credit: each second moves the clock, crediting nothing leaves it, an unknown one starts at the report', () => {
    expect(spendCredit(0, 5000, 4)).toBe(2000);
    expect(spendCredit(0, 5000, 0)).toBe(0);
    expect(spendCredit(null, 5000, 0)).toBe(5000);
    expect(spendCredit(null, 5000, 1)).toBe(5500);
    // Time away counts for a minute at most.
    expect(spendCredit(0, 10 * 60_000, 2)).toBe(10 * 60_000 - CREDIT_IDLE_MS + 1000);
    expect(laterClock(null, 3)).toBe(3);
    expect(laterClock(4, 3)).toBe(4);
    expect(laterClock(null, null)).toBeNull();
  });

  it('marks at most the given number of seconds not played yet, the first ones', () => {
    expect(markPlayedUpTo('0000000000', 1.5, 6.2, 3)).toEqual({ coverage: '0111000000', added: 3 });
    expect(markPlayedUpTo('0010100000', 1.5, 6.2, 3)).toEqual({ coverage: '0111110000', added: 3 });
    expect(markPlayedUpTo('0000', 0, 4, 0)).toEqual({ coverage: '0000', added: 0 });
    expect(markPlayedUpTo('0000', 3, 9, 9)).toEqual({ coverage: '0001', added: 1 });
  });
});

describe('the credit clock is per person: one budget for all their lessons and courses', () => {
  /** Durations of a course like the demo's basic course: ten lessons of 6.5 to 9 seconds. */
  const course = Object.fromEntries([6.51, 7.01, 7.51, 8.01, 8.51, 9.01, 7.51, 8.01, 6.51, 9.01].map((d, i) => [i + 1, d]));
  const ids = Object.keys(course).map(Number);

  it('parallel bursts over every lesson of a course credit no more than one budget and complete none', () => {
    const p = new Person(course);
    const t0 = 1_700_000_000_000;
    for (const id of ids) p.report(id, 'tracking play', 0, t0);
    // Every second every lesson reports 2 s further on, as a 2× player would: each lesson on its own
    // is within what real time allows, all of them together are not.
    let t = t0;
    for (let round = 1; round <= 5; round++) {
      t += 1000;
      for (const k of ids.keys()) {
        const id = ids[(k + round) % ids.length]!;
        const pos = Math.min(course[id]!, 1 + 2 * round);
        p.report(id, pos >= course[id]! ? 'tracking end' : 'tracking', pos, t);
      }
    }
    expect(p.played).toBeLessThanOrEqual(cap(t - t0));
    expect([...p.lessons.values()].filter((l) => l.completed)).toEqual([]);
  });

  it('two tabs playing two lessons at once share the budget: together they go no faster than one 2× player', () => {
    const p = new Person({ 1: 60, 2: 60 });
    p.report(1, 'tracking play', 0, 0);
    p.report(2, 'tracking play', 0, 0);
    for (let t = 5000; t <= 30_000; t += 5000) {
      p.report(1, 'tracking', (t / 1000) * 2, t);
      p.report(2, 'tracking', (t / 1000) * 2, t);
    }
    expect(p.played).toBeLessThanOrEqual(cap(30_000));
    expect(p.played).toBeGreaterThanOrEqual(cap(30_000) - 2);
  });

  it('real-time play at 1× or 2× of one lesson after the other completes every lesson of the course', () => {
    for (const speed of [1, 2]) {
      const p = new Person(course);
      let t = 1_700_000_000_000;
      for (const id of ids) {
        const d = course[id]!;
        p.report(id, 'tracking play', 0, t);
        let pos = 0;
        while (pos + 5 * speed < d) {
          t += 5000;
          pos += 5 * speed;
          p.report(id, 'tracking', pos, t);
        }
        t += ((d - pos) / speed) * 1000;
        expect(p.report(id, 'tracking end', d, t).completed, `${speed}× lesson ${id}`).toBe(true);
        t += 1500; // the next lesson loads
      }
    }
  });

  it('whatever the reports over several lessons, the seconds credited to the person never exceed real time × the fastest speed + the allowance', () => {
    const report = fc.tuple(fc.integer({ min: 1, max: 4 }), fc.constantFrom(...TRACKING_EVENTS), fc.integer({ min: -30, max: 60 }).map((tenths) => tenths / 10), fc.oneof(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 3000 })));
    fc.assert(
      fc.property(fc.array(report, { minLength: 1, maxLength: 120 }), (steps) => {
        const p = new Person({ 1: 30, 2: 30, 3: 30, 4: 30 });
        const pos = [0, 0, 0, 0, 0];
        const t0 = 1_000_000;
        let t = t0;
        for (const [id, e, move, gap] of steps) {
          t += gap;
          pos[id] = Math.min(30, Math.max(0, pos[id]! + move));
          p.report(id, e, pos[id]!, t);
        }
        expect(p.played).toBeLessThanOrEqual(cap(t - t0));
      }),
    );
  });
});

describe('grantCredit: the database pays for the seconds of a write with each person\'s clock', () => {
  const claim = (o: Partial<CreditClaim>): CreditClaim => ({ contactId: 1, at: 10_000, stored: null, wanted: '0000000000', completed: false, ...o });

  it('takes the new seconds the clock pays for, the first ones, and keeps what was stored', () => {
    const { grants, clocks } = grantCredit(new Map([[1, 8000]]), [claim({ stored: '1100000000', wanted: '1111111111', completed: true })]);
    // At 10 s a clock at 8 s pays for (2 s + the allowance) × 2 = 5 seconds.
    expect(grants).toEqual([{ coverage: '1111111000', completed: false }]);
    expect(clocks.get(1)).toBe(8000 + 5 * 500);
  });

  it('charges nothing for seconds already stored, and keeps the claimed completion when every new one is paid for', () => {
    const { grants, clocks } = grantCredit(new Map([[1, 10_000]]), [claim({ stored: '1111111110', wanted: '1111111111', completed: true })]);
    expect(grants).toEqual([{ coverage: '1111111111', completed: true }]);
    expect(clocks.get(1)).toBe(10_500);
    const nothing = grantCredit(new Map([[1, 10_000]]), [claim({ stored: '1111111111', wanted: '1111111111', completed: true })]);
    expect(nothing.grants).toEqual([{ coverage: '1111111111', completed: true }]);
    expect(nothing.clocks.size).toBe(0);
  });

  it('one person’s rows in one write share the clock, taken in the order they were reported', () => {
    const { grants, clocks } = grantCredit(new Map([[1, 10_000], [2, 10_000]]), [
      claim({ at: 10_002, wanted: '1100000000' }),
      claim({ at: 10_001, wanted: '0000000111' }),
      claim({ contactId: 2, at: 10_001, wanted: '0000000111' }),
    ]);
    // The allowance pays for one second at 10 s (1.5 s, whole seconds only) for each person.
    expect(grants.map((g) => g.coverage)).toEqual(['0000000000', '0000000100', '0000000100']);
    expect(clocks).toEqual(new Map([[1, 10_500], [2, 10_500]]));
  });

  it('a stored coverage of another length (the video changed) is replaced, and charged again', () => {
    const { grants } = grantCredit(new Map([[1, 0]]), [claim({ stored: '11111', wanted: '1110000000' })]);
    expect(grants).toEqual([{ coverage: '1110000000', completed: false }]);
  });

  it('the database and the process agree: what a tracker credited for itself, the database takes', () => {
    const durations = { 1: 7, 2: 9 };
    const p = new Person(durations);
    // The first report started the person's clock in the database too.
    let db = new Map([[1, 0]]);
    const stored: Record<number, string> = { 1: emptyCoverage(7), 2: emptyCoverage(9) };
    const write = (id: number, at: number) => {
      const l = p.lessons.get(id)!;
      const { grants, clocks } = grantCredit(db, [claim({ at, stored: stored[id]!, wanted: l.coverage, completed: l.completed })]);
      db = new Map([...db, ...clocks]);
      stored[id] = grants[0]!.coverage;
      return grants[0]!;
    };
    p.report(1, 'tracking play', 0, 0);
    for (const [id, event, pos, at] of [
      [1, 'tracking', 4, 2000],
      [2, 'tracking play', 0, 2500],
      [2, 'tracking', 5, 5000],
      [1, 'tracking end', 7, 8000],
      [2, 'tracking end', 9, 9000],
    ] as const) {
      const l = p.report(id, event, pos, at);
      expect(write(id, at), `${event} ${id} at ${at}`).toEqual({ coverage: l.coverage, completed: l.completed });
    }
    expect(playedEnough(stored[1]!, 7)).toBe(true);
  });
});

describe('settleWrite: what the database took', () => {
  const state = { ...fresh(4), coverage: '1110', completed: true };
  it('keeps what this process played when the database took it', () => {
    const s = settleWrite(state, '1110', { furthestPosition: 4, coverage: '1111', completed: false });
    expect(s).toMatchObject({ coverage: '1111', completed: true, furthestPosition: 4 });
  });

  it('drops the seconds, and the completion, the database refused (another process spent the budget)', () => {
    const s = settleWrite(state, '1110', { furthestPosition: 4, coverage: '1001', completed: false });
    expect(s).toMatchObject({ coverage: '1001', completed: false });
    expect(covers('1001', '1000')).toBe(true);
    expect(covers('1001', '1100')).toBe(false);
    expect(covers('100', '1000')).toBe(false);
  });
});

describe('mergeStored and orCoverage', () => {
  it('joins the seconds played in another tab or process', () => {
    expect(orCoverage('1100', '0110')).toBe('1110');
    const s = mergeStored({ ...fresh(4), coverage: '1100', furthestPosition: 2 }, { furthestPosition: 3, coverage: '0011', completed: true });
    expect(s.coverage).toBe('1111');
    expect(s.furthestPosition).toBe(3);
    expect(s.completed).toBe(true);
  });

  it('keeps its own coverage when the stored one describes another video length', () => {
    expect(orCoverage('1100', '111')).toBe('1100');
  });
});

describe('token bucket', () => {
  const spec = { ratePerSecond: 8, burst: 20 };
  it('allows a burst, then refuses, then refills with time', () => {
    const b = newBucket(spec, 0);
    let allowed = 0;
    for (let i = 0; i < 50; i++) if (takeToken(b, spec, 0)) allowed++;
    expect(allowed).toBe(20);
    expect(takeToken(b, spec, 100)).toBe(false);
    expect(takeToken(b, spec, 125)).toBe(true);
    // A full second refills 8 tokens, never more than the burst.
    let later = 0;
    for (let i = 0; i < 50; i++) if (takeToken(b, spec, 1125)) later++;
    expect(later).toBe(8);
    for (let i = 0; i < 50; i++) takeToken(b, spec, 100_000);
    expect(b.tokens).toBeLessThan(1);
  });

  it('a steady event every 5 s is never refused', () => {
    const b = newBucket(spec, 0);
    for (let t = 0; t < 600_000; t += 5000) expect(takeToken(b, spec, t)).toBe(true);
  });
});

describe('wire helpers', () => {
  it('accepts a course id as a positive integer or its digits only', () => {
    expect(courseIdSchema.parse(31)).toBe(31);
    expect(courseIdSchema.parse('31')).toBe(31);
    for (const bad of [0, -1, 1.5, '1e3', '', 'abc', null, undefined, {}, 2 ** 40, Number.NaN]) expect(courseIdSchema.safeParse(bad).success).toBe(false);
  });

  it('checks the HTTP fallback body shape', () => {
    expect(trackingRequestSchema.safeParse({ event: 'tracking', courseId: 1, payload: {} }).success).toBe(true);
    expect(trackingRequestSchema.safeParse({ event: 'tracking pause', courseId: 1, payload: {} }).success).toBe(false);
    expect(trackingRequestSchema.safeParse({ event: 'tracking', courseId: 'x', payload: {} }).success).toBe(false);
  });

  it('names one room per person and course', () => {
    expect(progressRoom(42, 31)).toBe('progress:42:31');
    expect(progressRoom(42, 32)).not.toBe(progressRoom(42, 31));
    expect(progressRoom(4, 231)).not.toBe(progressRoom(42, 31));
  });
});
