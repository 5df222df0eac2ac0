/** Tracking rules for one lesson: how reports move its positions and coverage, and what a write to the database settles. */
import { describe, expect, it } from 'vitest';
import { playedSeconds } from './learning';
import { applyProgress, covers, mergeStored, orCoverage, SAMPLE_STALE_MS, settleWrite } from './tracking';
import { fresh, play, run } from './tracking.testing';

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
