import { describe, expect, it } from 'vitest';
import { attemptsLeft, bestScore, canStart, courseCompleted, examSummary, type StartInput } from './standing';

describe('attemptsLeft and bestScore', () => {
  it('counts the attempts left, never below zero', () => {
    expect(attemptsLeft(0, 3)).toBe(3);
    expect(attemptsLeft(2, 3)).toBe(1);
    expect(attemptsLeft(3, 3)).toBe(0);
    expect(attemptsLeft(5, 3)).toBe(0);
  });
  it('keeps the highest graded score', () => {
    expect(bestScore([{ score: 40 }, { score: 90 }, { score: 70 }])).toBe(90);
    expect(bestScore([{ score: null }, { score: 0 }])).toBe(0);
    expect(bestScore([{ score: 55 }, { score: null }])).toBe(55);
  });
  it('has no best score without a graded attempt', () => {
    expect(bestScore([])).toBeNull();
    expect(bestScore([{ score: null }])).toBeNull();
  });
});

describe('canStart', () => {
  const ready: StartInput = {
    loggedIn: true,
    isLearner: true,
    lessonsTotal: 8,
    lessonsCompleted: 8,
    attemptsUsed: 1,
    attemptsAllowed: 3,
    passedAlready: false,
    openAttempt: false,
  };
  /** Everything wrong at once. */
  const worst: StartInput = { loggedIn: false, isLearner: false, lessonsTotal: 8, lessonsCompleted: 5, attemptsUsed: 3, attemptsAllowed: 3, passedAlready: true, openAttempt: true };

  it('lets a learner who completed every lesson start', () => {
    expect(canStart(ready)).toEqual({ ok: true });
    expect(canStart({ ...ready, attemptsUsed: 2 })).toEqual({ ok: true });
    expect(canStart({ ...ready, lessonsCompleted: 9 })).toEqual({ ok: true });
  });
  it('asks guests and IBO sessions to log in as learners', () => {
    expect(canStart({ ...ready, loggedIn: false })).toEqual({ ok: false, reason: 'login' });
    expect(canStart({ ...ready, isLearner: false })).toEqual({ ok: false, reason: 'login' });
  });
  it('says how many lessons remain', () => {
    expect(canStart({ ...ready, lessonsCompleted: 5 })).toEqual({ ok: false, reason: 'lessons', remaining: 3 });
    expect(canStart({ ...ready, lessonsCompleted: 0 })).toEqual({ ok: false, reason: 'lessons', remaining: 8 });
  });
  it('refuses after a pass', () => {
    expect(canStart({ ...ready, passedAlready: true })).toEqual({ ok: false, reason: 'passed' });
  });
  it('refuses when no attempt is left', () => {
    expect(canStart({ ...ready, attemptsUsed: 3 })).toEqual({ ok: false, reason: 'no-attempts' });
    expect(canStart({ ...ready, attemptsUsed: 4 })).toEqual({ ok: false, reason: 'no-attempts' });
  });
  it('resumes an attempt in progress', () => {
    expect(canStart({ ...ready, openAttempt: true })).toEqual({ ok: false, reason: 'open-attempt' });
  });
  it('resumes an attempt in progress even when it is the last one', () => {
    expect(canStart({ ...ready, attemptsUsed: 3, openAttempt: true })).toEqual({ ok: false, reason: 'open-attempt' });
    expect(canStart({ ...ready, attemptsUsed: 2, openAttempt: true })).toEqual({ ok: false, reason: 'open-attempt' });
  });
  it('gives the reasons in order: login, lessons, passed, then attempts', () => {
    expect(canStart(worst)).toEqual({ ok: false, reason: 'login' });
    expect(canStart({ ...worst, loggedIn: true })).toEqual({ ok: false, reason: 'login' });
    expect(canStart({ ...worst, loggedIn: true, isLearner: true })).toEqual({ ok: false, reason: 'lessons', remaining: 3 });
    expect(canStart({ ...worst, loggedIn: true, isLearner: true, lessonsCompleted: 8 })).toEqual({ ok: false, reason: 'passed' });
    expect(canStart({ ...worst, loggedIn: true, isLearner: true, lessonsCompleted: 8, passedAlready: false, openAttempt: false })).toEqual({
      ok: false,
      reason: 'no-attempts',
    });
    expect(canStart({ ...ready, passedAlready: true, attemptsUsed: 3 })).toEqual({ ok: false, reason: 'passed' });
    expect(canStart({ ...ready, lessonsCompleted: 7, attemptsUsed: 3 })).toEqual({ ok: false, reason: 'lessons', remaining: 1 });
  });
});

/* ───────────── the course ───────────── */

describe('courseCompleted', () => {
  it('needs every lesson completed', () => {
    expect(courseCompleted({ lessonsTotal: 5, lessonsCompleted: 5, hasExam: false, examPassed: false })).toBe(true);
    expect(courseCompleted({ lessonsTotal: 5, lessonsCompleted: 4, hasExam: false, examPassed: false })).toBe(false);
  });
  it('needs the exam passed when the course has one', () => {
    expect(courseCompleted({ lessonsTotal: 5, lessonsCompleted: 5, hasExam: true, examPassed: false })).toBe(false);
    expect(courseCompleted({ lessonsTotal: 5, lessonsCompleted: 5, hasExam: true, examPassed: true })).toBe(true);
    expect(courseCompleted({ lessonsTotal: 5, lessonsCompleted: 4, hasExam: true, examPassed: true })).toBe(false);
  });
  it('has nothing to complete in a course without lessons or exam', () => {
    expect(courseCompleted({ lessonsTotal: 0, lessonsCompleted: 0, hasExam: false, examPassed: false })).toBe(false);
    expect(courseCompleted({ lessonsTotal: 0, lessonsCompleted: 0, hasExam: true, examPassed: true })).toBe(true);
  });
});

describe('examSummary', () => {
  const graded = (score: number, pass: boolean) => ({ score, passed: pass, graded: true });
  const open = { score: null, passed: null, graded: false };
  it('is not taken before the first attempt', () => {
    expect(examSummary([], 3)).toEqual({ status: 'not-taken', best: null, attemptsLeft: 3 });
  });
  it('is in progress while an attempt is not graded, without a best score before the first grade', () => {
    expect(examSummary([open], 3)).toEqual({ status: 'in-progress', best: null, attemptsLeft: 2 });
    expect(examSummary([graded(40, false), open], 3)).toEqual({ status: 'in-progress', best: 40, attemptsLeft: 1 });
    // The last attempt in progress is still in progress, not out of attempts.
    expect(examSummary([graded(40, false), graded(50, false), open], 3).status).toBe('in-progress');
  });
  it('is failed while attempts are left, then out of attempts, keeping the best score', () => {
    expect(examSummary([graded(40, false)], 3)).toEqual({ status: 'failed', best: 40, attemptsLeft: 2 });
    expect(examSummary([graded(60, false), graded(30, false)], 3)).toEqual({ status: 'failed', best: 60, attemptsLeft: 1 });
    expect(examSummary([graded(60, false), graded(30, false), graded(65, false)], 3)).toEqual({ status: 'out-of-attempts', best: 65, attemptsLeft: 0 });
    expect(examSummary([graded(0, false)], 1)).toEqual({ status: 'out-of-attempts', best: 0, attemptsLeft: 0 });
  });
  it('is passed once any attempt passed, even the last one allowed', () => {
    expect(examSummary([graded(100, true)], 3)).toEqual({ status: 'passed', best: 100, attemptsLeft: 2 });
    expect(examSummary([graded(40, false), graded(50, false), graded(80, true)], 3)).toEqual({ status: 'passed', best: 80, attemptsLeft: 0 });
  });
});
