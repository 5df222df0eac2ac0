import { describe, expect, it } from 'vitest';
import { emptyCoverage, playedSeconds } from './learning';
import {
  applyProgress,
  BoundedCache,
  contactRoom,
  cookieValue,
  courseIdSchema,
  mergeStored,
  newBucket,
  orCoverage,
  SAMPLE_STALE_MS,
  takeToken,
  trackingRequestSchema,
  type LessonState,
} from './tracking';

const fresh = (duration: number): LessonState => ({ lastPosition: 0, furthestPosition: 0, coverage: emptyCoverage(duration), completed: false, sample: null });

/** Plays a lesson from `from` to `to`, one report every `step` seconds of real time at normal speed. */
function play(state: LessonState, from: number, to: number, step: number, t0: number, duration: number): { state: LessonState; t: number } {
  let s = applyProgress(state, 'tracking play', from, t0, duration);
  let t = t0;
  for (let pos = from + step; pos <= to; pos += step) {
    t += step * 1000;
    s = applyProgress(s, 'tracking', pos, t, duration);
  }
  return { state: s, t };
}

describe('applyProgress', () => {
  it('credits only the seconds played between reports, not the start', () => {
    const s1 = applyProgress(fresh(60), 'tracking play', 0, 0, 60);
    expect(playedSeconds(s1.coverage)).toBe(0);
    expect(s1.sample).toEqual({ position: 0, at: 0 });
    const s2 = applyProgress(s1, 'tracking', 5, 5000, 60);
    expect(playedSeconds(s2.coverage)).toBe(5);
    expect(s2.lastPosition).toBe(5);
    expect(s2.furthestPosition).toBe(5);
  });

  it('keeps the furthest position when the viewer goes back, and credits nothing for going back', () => {
    const { state, t } = play(fresh(60), 0, 30, 5, 0, 60);
    const back = applyProgress(state, 'tracking', 10, t + 5000, 60);
    expect(back.lastPosition).toBe(10);
    expect(back.furthestPosition).toBe(30);
    expect(playedSeconds(back.coverage)).toBe(30);
  });

  it('does not complete a lesson whose end was reached by seeking', () => {
    let s = applyProgress(fresh(60), 'tracking play', 0, 0, 60);
    s = applyProgress(s, 'tracking', 5, 5000, 60);
    s = applyProgress(s, 'tracking end', 60, 6000, 60);
    expect(s.completed).toBe(false);
    expect(s.furthestPosition).toBe(60);
    expect(playedSeconds(s.coverage)).toBe(5);
  });

  it('completes a lesson really played to its end, and it stays completed', () => {
    const { state, t } = play(fresh(60), 0, 55, 5, 0, 60);
    const end = applyProgress(state, 'tracking end', 60, t + 5000, 60);
    expect(end.completed).toBe(true);
    const again = applyProgress(applyProgress(end, 'tracking play', 0, t + 9000, 60), 'tracking end', 0, t + 9500, 60);
    expect(again.completed).toBe(true);
  });

  it('a play event restarts the count (a seek followed by play is not credited)', () => {
    const { state, t } = play(fresh(60), 0, 10, 5, 0, 60);
    const seeked = applyProgress(state, 'tracking play', 50, t + 1000, 60);
    const after = applyProgress(seeked, 'tracking', 55, t + 6000, 60);
    expect(playedSeconds(after.coverage)).toBe(15);
  });

  it('after a long pause the next report credits nothing (the gap could hide a seek)', () => {
    const s1 = applyProgress(fresh(600), 'tracking play', 0, 0, 600);
    const s2 = applyProgress(s1, 'tracking', 100, SAMPLE_STALE_MS + 1, 600);
    expect(playedSeconds(s2.coverage)).toBe(0);
    const s3 = applyProgress(s2, 'tracking', 105, SAMPLE_STALE_MS + 5001, 600);
    expect(playedSeconds(s3.coverage)).toBe(5);
  });

  it('an end event alone (no play before) completes nothing', () => {
    expect(applyProgress(fresh(8), 'tracking end', 8, 0, 8).completed).toBe(false);
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

describe('BoundedCache', () => {
  it('forgets the least recently used entry beyond its size', () => {
    const c = new BoundedCache<string, number>(2, 1000);
    c.set('a', 1, 0);
    c.set('b', 2, 0);
    expect(c.get('a', 1)).toBe(1);
    c.set('c', 3, 2);
    expect(c.get('b', 3)).toBeUndefined();
    expect(c.get('a', 3)).toBe(1);
    expect(c.get('c', 3)).toBe(3);
    expect(c.size).toBe(2);
  });

  it('forgets entries unused for longer than its time to live', () => {
    const c = new BoundedCache<string, number>(10, 1000);
    c.set('a', 1, 0);
    c.set('b', 2, 900);
    expect(c.get('a', 1500)).toBeUndefined();
    expect(c.get('b', 1500)).toBe(2);
    c.set('c', 3, 5000);
    expect(c.size).toBe(1);
  });
});

describe('wire helpers', () => {
  it('reads the session cookie among others', () => {
    expect(cookieValue('a=1; session=abc%2Bdef; b=2', 'session')).toBe('abc+def');
    expect(cookieValue('xsession=1; session_x=2', 'session')).toBeUndefined();
    expect(cookieValue(undefined, 'session')).toBeUndefined();
    expect(cookieValue('session=%E0%A4%A', 'session')).toBe('%E0%A4%A');
  });

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

  it('names one room per person', () => {
    expect(contactRoom(42)).toBe('contact:42');
  });
});
