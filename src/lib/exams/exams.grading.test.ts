/** Exam rules: reading a submitted answer, grading an attempt, the pass mark and the review shown afterwards; the module's exports. */
import { describe, expect, it } from 'vitest';
import { gradeAttempt, normalizeAnswer, passed, reviewFor, revealsAnswers } from './exams';
import * as barrel from './index';
import { GRACE_MS } from './clock';
import { canStart } from './standing';
import { single, multiple, trueFalse } from './exams.testing';

/* ───────────── time ───────────── */

describe('normalizeAnswer', () => {
  const s = single(1); // options 11..14
  const m = multiple(2, [21, 23]); // options 21..24
  const tf = trueFalse(3); // options 31, 32

  it('reads a single id as a list of one', () => {
    expect(normalizeAnswer(s, 12)).toEqual({ ok: true, answer: [12] });
    expect(normalizeAnswer(tf, 32)).toEqual({ ok: true, answer: [32] });
  });
  it('reads a list of one for single choice and true/false', () => {
    expect(normalizeAnswer(s, [14])).toEqual({ ok: true, answer: [14] });
    expect(normalizeAnswer(tf, [31])).toEqual({ ok: true, answer: [31] });
  });
  it('sorts and removes repeats', () => {
    expect(normalizeAnswer(m, [24, 21, 24, 22])).toEqual({ ok: true, answer: [21, 22, 24] });
    expect(normalizeAnswer(s, [13, 13])).toEqual({ ok: true, answer: [13] });
  });
  it('allows one or more options for multiple choice', () => {
    expect(normalizeAnswer(m, [22])).toEqual({ ok: true, answer: [22] });
    expect(normalizeAnswer(m, [24, 23, 22, 21])).toEqual({ ok: true, answer: [21, 22, 23, 24] });
  });
  it('refuses more than one option for single choice and true/false', () => {
    expect(normalizeAnswer(s, [11, 12])).toEqual({ ok: false, error: 'too-many' });
    expect(normalizeAnswer(tf, [31, 32])).toEqual({ ok: false, error: 'too-many' });
  });
  it('refuses an empty answer', () => {
    expect(normalizeAnswer(s, [])).toEqual({ ok: false, error: 'empty' });
    expect(normalizeAnswer(m, [])).toEqual({ ok: false, error: 'empty' });
  });
  it("refuses ids that are not the question's options", () => {
    expect(normalizeAnswer(s, 21)).toEqual({ ok: false, error: 'unknown-option' });
    expect(normalizeAnswer(m, [21, 99])).toEqual({ ok: false, error: 'unknown-option' });
    expect(normalizeAnswer(s, [11, 99])).toEqual({ ok: false, error: 'unknown-option' });
    expect(normalizeAnswer(tf, 33)).toEqual({ ok: false, error: 'unknown-option' });
  });
  it.each([
    ['a negative id', -11],
    ['a negative id in a list', [21, -22]],
    ['zero', 0],
    ['a fraction', 11.5],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['an unsafe integer', 2 ** 53],
    ['a numeric string', '11'],
    ['a list of numeric strings', ['11']],
    ['a NUL character', '\u0000'],
    ['NUL characters in a list', ['\u0000', '\u0000\u0000']],
    ['an id followed by NUL', '11\u0000'],
    ['a 100 KB string', 'x'.repeat(100_000)],
    ['a 100 KB list of ids in a string', '11,'.repeat(34_000)],
    ['a list with a 100 KB string', [11, '1'.repeat(100_000)]],
    ['more than 20 ids', Array.from({ length: 21 }, () => 21)],
    ['a nested list', [[11]]],
    ['an object', { 0: 11 }],
    ['null', null],
    ['undefined', undefined],
    ['a boolean', true],
    ['a bigint', 11n],
  ])('refuses %s as invalid', (_label, raw) => {
    expect(normalizeAnswer(m, raw)).toEqual({ ok: false, error: 'invalid' });
    expect(normalizeAnswer(s, raw)).toEqual({ ok: false, error: 'invalid' });
  });
  it('accepts up to 20 ids (then checks them against the options)', () => {
    expect(normalizeAnswer(m, Array.from({ length: 20 }, () => 21))).toEqual({ ok: true, answer: [21] });
  });
});

/* ───────────── grading ───────────── */

describe('gradeAttempt', () => {
  const qs = [single(1, 12), multiple(2, [21, 23]), trueFalse(3, false)];

  it('grades every right answer right', () => {
    const g = gradeAttempt(qs, { '1': [12], '2': [23, 21], '3': [32] });
    expect(g).toEqual({
      correct: 3,
      total: 3,
      score: 100,
      perQuestion: [
        { questionId: 1, correct: true, given: [12], correctOptions: [12] },
        { questionId: 2, correct: true, given: [21, 23], correctOptions: [21, 23] },
        { questionId: 3, correct: true, given: [32], correctOptions: [32] },
      ],
    });
  });
  it('gives nothing for a partial multiple-choice answer', () => {
    const g = gradeAttempt(qs, { '1': [12], '2': [21], '3': [32] });
    expect(g.perQuestion[1]).toEqual({ questionId: 2, correct: false, given: [21], correctOptions: [21, 23] });
    expect(g.correct).toBe(2);
  });
  it('gives nothing for a multiple-choice answer with an extra option', () => {
    expect(gradeAttempt(qs, { '2': [21, 22, 23] }).perQuestion[1]!.correct).toBe(false);
    expect(gradeAttempt(qs, { '2': [21, 22, 23, 24] }).perQuestion[1]!.correct).toBe(false);
  });
  it('rounds the percentage down (2 of 3 is 66)', () => {
    expect(gradeAttempt(qs, { '1': [12], '2': [21, 23] }).score).toBe(66);
    expect(gradeAttempt(qs, { '1': [12] }).score).toBe(33);
    const seven = Array.from({ length: 7 }, (_, i) => single(i + 1));
    const answers = Object.fromEntries(seven.slice(0, 6).map((q) => [String(q.id), [q.id * 10 + 1]]));
    expect(gradeAttempt(seven, answers).score).toBe(85); // 6/7 = 85.71…
  });
  it('counts unanswered questions wrong', () => {
    const g = gradeAttempt(qs, { '1': [12] });
    expect(g.correct).toBe(1);
    expect(g.perQuestion[1]).toEqual({ questionId: 2, correct: false, given: [], correctOptions: [21, 23] });
    expect(g.perQuestion[2]!.correct).toBe(false);
    expect(gradeAttempt(qs, {}).score).toBe(0);
  });
  it('counts answers that do not read wrong, and ignores answers to other questions', () => {
    const junk = { '1': [12, 13], '2': [21, 23, 99], '3': [] as number[], '4': [41] } as Record<string, number[]>;
    const g = gradeAttempt(qs, junk);
    expect(g.correct).toBe(0);
    expect(g.total).toBe(3);
    expect(g.perQuestion.map((p) => p.given)).toEqual([[], [], []]);
  });
  it('does not read answers from the prototype', () => {
    expect(gradeAttempt([single(1)], Object.create({ '1': [11] }) as Record<string, number[]>).correct).toBe(0);
    expect(gradeAttempt([single(1)], { '1': [11] }).correct).toBe(1);
  });
  it('scores an attempt without questions 0', () => {
    expect(gradeAttempt([], {})).toEqual({ correct: 0, total: 0, score: 0, perQuestion: [] });
  });
  it('grades a wrong single answer wrong', () => {
    expect(gradeAttempt(qs, { '1': [11], '3': [31] }).perQuestion.map((p) => p.correct)).toEqual([false, false, false]);
  });
});

describe('passed', () => {
  it('passes at the minimum score and above, not below', () => {
    expect(passed(70, 70)).toBe(true);
    expect(passed(100, 70)).toBe(true);
    expect(passed(69, 70)).toBe(false);
    expect(passed(66, 67)).toBe(false);
  });
});

/* ───────────── review ───────────── */

describe('reviewFor', () => {
  const grade = gradeAttempt([single(1, 12), multiple(2, [21, 23])], { '1': [11], '2': [21, 23] });

  it('hides the right options while the learner may try again', () => {
    const review = reviewFor(grade, { passed: false, attemptsLeft: 2 });
    expect(review).toEqual([
      { questionId: 1, correct: false, given: [11] },
      { questionId: 2, correct: true, given: [21, 23] },
    ]);
    for (const r of review) expect(r).not.toHaveProperty('correctOptions');
    expect(JSON.stringify(review)).not.toContain('correctOptions');
    expect(revealsAnswers({ passed: false, attemptsLeft: 1 })).toBe(false);
  });
  it('shows them once the learner passed', () => {
    expect(reviewFor(grade, { passed: true, attemptsLeft: 2 })).toEqual([
      { questionId: 1, correct: false, given: [11], correctOptions: [12] },
      { questionId: 2, correct: true, given: [21, 23], correctOptions: [21, 23] },
    ]);
  });
  it('shows them once no attempt is left', () => {
    expect(reviewFor(grade, { passed: false, attemptsLeft: 0 })[0]).toEqual({ questionId: 1, correct: false, given: [11], correctOptions: [12] });
    expect(revealsAnswers({ passed: false, attemptsLeft: 0 })).toBe(true);
  });
  it('does not share arrays with the grade', () => {
    const review = reviewFor(grade, { passed: true, attemptsLeft: 0 });
    review[0]!.correctOptions!.push(99);
    review[0]!.given.push(99);
    expect(grade.perQuestion[0]).toEqual({ questionId: 1, correct: false, given: [11], correctOptions: [12] });
  });
});

/* ───────────── attempts ───────────── */

describe('index', () => {
  it('re-exports the module', () => {
    expect(barrel.gradeAttempt).toBe(gradeAttempt);
    expect(barrel.canStart).toBe(canStart);
    expect(barrel.GRACE_MS).toBe(GRACE_MS);
  });
});
