/** Tracking credit rules: played seconds no faster than real time allows, one budget per person, and the database granting each write. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { emptyCoverage, MAX_PLAYBACK_RATE, playedEnough, playedSeconds, TRACKING_EVENTS, type TrackingEventName } from './learning';
import { applyProgress, CREDIT_ALLOWANCE_SECONDS, CREDIT_IDLE_MS, creditAvailable, grantCredit, laterClock, markPlayedUpTo, spendCredit, type CreditClaim } from './tracking';
import { cap, fresh, Person, playAt, run, runWithClock } from './tracking.testing';

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
