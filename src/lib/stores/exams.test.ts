import { beforeEach, describe, expect, it } from 'vitest';
import { $pendingAnswers, decodePending, MAX_PENDING_ATTEMPTS, withoutAttempt, withoutConfirmed, withPending } from './exams';
import { clearIdentity } from './identity';

describe('exam answers the server has not confirmed yet', () => {
  beforeEach(() => $pendingAnswers.set({}));

  it('keeps the latest answer per question of each attempt', () => {
    let p = withPending({}, 7, 3, [12]);
    p = withPending(p, 7, 4, [15, 16]);
    p = withPending(p, 7, 3, [11]);
    expect(p).toEqual({ '7': { '3': [11], '4': [15, 16] } });
  });

  it('forgets a confirmed answer, but not when a newer one was given while it was on its way', () => {
    const p = withPending(withPending({}, 7, 3, [12]), 7, 4, [15]);
    expect(withoutConfirmed(p, 7, 3, [12])).toEqual({ '7': { '4': [15] } });
    const newer = withPending(p, 7, 3, [13]);
    expect(withoutConfirmed(newer, 7, 3, [12])).toEqual(newer);
    expect(withoutConfirmed(withoutConfirmed(p, 7, 3, [12]), 7, 4, [15])).toEqual({});
  });

  it('forgets a whole attempt once it is graded', () => {
    const p = withPending(withPending({}, 7, 3, [12]), 8, 1, [2]);
    expect(withoutAttempt(p, 7)).toEqual({ '8': { '1': [2] } });
    expect(withoutAttempt(p, 99)).toBe(p);
  });

  it(`keeps at most ${MAX_PENDING_ATTEMPTS} attempts, dropping the oldest`, () => {
    let p = {};
    for (let a = 1; a <= MAX_PENDING_ATTEMPTS + 2; a++) p = withPending(p, a, 1, [a]);
    expect(Object.keys(p)).toEqual(['3', '4', '5', '6', '7']);
  });

  it('reads anything stored that is not well formed as nothing pending', () => {
    expect(decodePending('not json')).toEqual({});
    expect(decodePending('[1,2]')).toEqual({});
    expect(decodePending(JSON.stringify({ '7': { '3': [12], x: [1], '4': ['a'], '5': [-1], '6': Array(21).fill(1) }, bad: { '1': [1] }, '8': [1] }))).toEqual({ '7': { '3': [12] } });
  });

  it('logging out (or a lost session) clears them: the next person on this device never sends them', () => {
    $pendingAnswers.set(withPending({}, 7, 3, [12]));
    clearIdentity();
    expect($pendingAnswers.get()).toEqual({});
  });
});
