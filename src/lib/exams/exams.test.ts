import { describe, expect, it } from 'vitest';
import {
  DEFAULT_EXAM_SETTINGS,
  MAX_OPTIONS,
  correctOptions,
  drawAttempt,
  drawnAttemptSchema,
  examSettings,
  examSettingsSchema,
  gradeAttempt,
  normalizeAnswer,
  passed,
  presentAttempt,
  reviewFor,
  revealsAnswers,
  seededRandom,
  validateQuestion,
  type ExamQuestion,
  type QuestionKind,
} from './exams';
import * as barrel from './index';
import { GRACE_MS } from './clock';
import { canStart } from './standing';

/* ───────────── fixtures ───────────── */

/** A question with options `optionIds`, of which `right` are correct. */
function question(id: number, kind: QuestionKind, optionIds: number[], right: number[]): ExamQuestion {
  return {
    id,
    kind,
    promptEs: `Pregunta ${id}`,
    promptEn: `Question ${id}`,
    options: optionIds.map((o) => ({ id: o, textEs: `Opción ${o}`, textEn: `Option ${o}`, correct: right.includes(o) })),
  };
}
const single = (id: number, right = id * 10 + 1) => question(id, 'single', [id * 10 + 1, id * 10 + 2, id * 10 + 3, id * 10 + 4], [right]);
const multiple = (id: number, right: number[]) => question(id, 'multiple', [id * 10 + 1, id * 10 + 2, id * 10 + 3, id * 10 + 4], right);
/** True is option `id*10+1`, false `id*10+2`. */
const trueFalse = (id: number, isTrue = true) => question(id, 'true-false', [id * 10 + 1, id * 10 + 2], [isTrue ? id * 10 + 1 : id * 10 + 2]);

/** A pool of `n` single-choice questions with ids 1..n. */
const pool = (n: number) => Array.from({ length: n }, (_, i) => single(i + 1));

/* ───────────── settings ───────────── */

describe('examSettings', () => {
  it('has the product defaults', () => {
    expect(DEFAULT_EXAM_SETTINGS).toEqual({ attempts: 3, questions: 10, minutes: 20, minimumScore: 70 });
  });
  it('fills every missing (or null) field with its default', () => {
    expect(examSettings({}, 50)).toEqual({ attempts: 3, questions: 10, minutes: 20, minimumScore: 70 });
    expect(examSettings({ attempts: null, questions: undefined, minutes: 45, minimumScore: 80 }, 50)).toEqual({ attempts: 3, questions: 10, minutes: 45, minimumScore: 80 });
  });
  it('keeps the values given', () => {
    expect(examSettings({ attempts: 5, questions: 25, minutes: 90, minimumScore: 60 }, 30)).toEqual({ attempts: 5, questions: 25, minutes: 90, minimumScore: 60 });
  });
  it('draws the whole pool when it is smaller than the default or the setting', () => {
    expect(examSettings({}, 6).questions).toBe(6);
    expect(examSettings({ questions: 40 }, 12).questions).toBe(12);
    expect(examSettings({ questions: 10 }, 10).questions).toBe(10);
  });
  it('asks no question from an empty pool', () => {
    expect(examSettings({}, 0).questions).toBe(0);
    expect(examSettings({}, -3).questions).toBe(0);
    expect(examSettings({}, Number.NaN).questions).toBe(0);
  });
  it('refuses invalid stored values instead of guessing', () => {
    expect(() => examSettings({ attempts: 0 }, 10)).toThrow();
    expect(() => examSettings({ minutes: 241 }, 10)).toThrow();
    expect(() => examSettings({ minimumScore: 70.5 }, 10)).toThrow();
  });
  it('does not change the defaults object', () => {
    examSettings({ attempts: 7 }, 3);
    expect(DEFAULT_EXAM_SETTINGS.attempts).toBe(3);
    expect(Object.isFrozen(DEFAULT_EXAM_SETTINGS)).toBe(true);
  });
});

describe('examSettingsSchema', () => {
  const ok = { attempts: 3, questions: 10, minutes: 20, minimumScore: 70 };
  it('accepts the defaults and every bound', () => {
    expect(examSettingsSchema.safeParse(ok).success).toBe(true);
    expect(examSettingsSchema.safeParse({ attempts: 1, questions: 1, minutes: 1, minimumScore: 1 }).success).toBe(true);
    expect(examSettingsSchema.safeParse({ attempts: 20, questions: 100, minutes: 240, minimumScore: 100 }).success).toBe(true);
  });
  it.each([
    ['attempts', 0],
    ['attempts', 21],
    ['questions', 0],
    ['questions', 101],
    ['minutes', 0],
    ['minutes', 241],
    ['minimumScore', 0],
    ['minimumScore', 101],
    ['attempts', 2.5],
    ['minutes', Number.NaN],
    ['questions', '10'],
    ['minimumScore', null],
  ])('refuses %s = %s', (key, value) => {
    expect(examSettingsSchema.safeParse({ ...ok, [key]: value }).success).toBe(false);
  });
  it('refuses a missing field', () => {
    const { minutes: _minutes, ...rest } = ok;
    expect(examSettingsSchema.safeParse(rest).success).toBe(false);
  });
});

/* ───────────── questions ───────────── */

describe('validateQuestion', () => {
  it('accepts well-formed questions of every kind', () => {
    expect(validateQuestion(single(1))).toEqual([]);
    expect(validateQuestion(multiple(2, [21, 23]))).toEqual([]);
    expect(validateQuestion(multiple(3, [31, 32, 33, 34]))).toEqual([]);
    expect(validateQuestion(trueFalse(4))).toEqual([]);
    expect(validateQuestion(trueFalse(5, false))).toEqual([]);
  });
  it('wants exactly two options for true/false', () => {
    expect(validateQuestion(question(1, 'true-false', [1, 2, 3], [1]))).toEqual(['true-false-needs-two-options']);
    expect(validateQuestion(question(1, 'true-false', [1], [1]))).toEqual(['true-false-needs-two-options']);
  });
  it('wants exactly one right option for true/false', () => {
    expect(validateQuestion(question(1, 'true-false', [1, 2], [1, 2]))).toEqual(['needs-one-correct']);
    expect(validateQuestion(question(1, 'true-false', [1, 2], []))).toEqual(['needs-one-correct']);
  });
  it('wants exactly one right option for single choice', () => {
    expect(validateQuestion(question(1, 'single', [1, 2, 3], [1, 3]))).toEqual(['needs-one-correct']);
    expect(validateQuestion(question(1, 'single', [1, 2, 3], []))).toEqual(['needs-one-correct']);
  });
  it('wants at least one right option for multiple choice', () => {
    expect(validateQuestion(question(1, 'multiple', [1, 2, 3], []))).toEqual(['needs-a-correct']);
    expect(validateQuestion(question(1, 'multiple', [1, 2, 3], [2]))).toEqual([]);
  });
  it('wants at least two options to choose from', () => {
    expect(validateQuestion(question(1, 'single', [1], [1]))).toEqual(['too-few-options']);
    expect(validateQuestion(question(1, 'multiple', [1], [1]))).toEqual(['too-few-options']);
    expect(validateQuestion(question(1, 'multiple', [], []))).toEqual(['too-few-options', 'needs-a-correct']);
  });
  it(`allows at most ${MAX_OPTIONS} options`, () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
    expect(validateQuestion(question(1, 'multiple', ids(MAX_OPTIONS), [1]))).toEqual([]);
    expect(validateQuestion(question(1, 'multiple', ids(MAX_OPTIONS + 1), [1]))).toEqual(['too-many-options']);
  });
  it('wants both prompts and every option text in both languages', () => {
    expect(validateQuestion({ ...single(1), promptEn: '  ' })).toEqual(['prompt-missing']);
    expect(validateQuestion({ ...single(1), promptEs: '' })).toEqual(['prompt-missing']);
    const q = single(1);
    expect(validateQuestion({ ...q, options: q.options.map((o, i) => (i === 2 ? { ...o, textEs: '' } : o)) })).toEqual(['option-text-missing']);
    expect(validateQuestion({ ...q, options: q.options.map((o, i) => (i === 0 ? { ...o, textEn: '\n' } : o)) })).toEqual(['option-text-missing']);
  });
  it('wants distinct positive whole option ids', () => {
    expect(validateQuestion(question(1, 'single', [1, 1, 2], [2]))).toEqual(['duplicate-option-id']);
    expect(validateQuestion(question(1, 'single', [0, 2], [2]))).toEqual(['invalid-option-id']);
    expect(validateQuestion(question(1, 'single', [-4, 2], [2]))).toEqual(['invalid-option-id']);
    expect(validateQuestion(question(1, 'single', [1.5, 2], [2]))).toEqual(['invalid-option-id']);
  });
  it('refuses an unknown kind', () => {
    expect(validateQuestion({ ...single(1), kind: 'essay' as QuestionKind })).toContain('unknown-kind');
  });
  it('reports every problem, each once', () => {
    const q = question(1, 'single', [1, 1, 2], []);
    expect(validateQuestion({ ...q, promptEs: '', options: q.options.map((o) => ({ ...o, textEn: '' })) }).sort()).toEqual(
      ['duplicate-option-id', 'needs-one-correct', 'option-text-missing', 'prompt-missing'].sort(),
    );
  });
});

describe('correctOptions', () => {
  it('lists the right options sorted by id', () => {
    const q = question(1, 'multiple', [9, 3, 7, 1], [9, 1, 7]);
    expect(correctOptions(q)).toEqual([1, 7, 9]);
  });
});

/* ───────────── randomness ───────────── */

describe('seededRandom', () => {
  it('gives the same sequence for the same seed and another for another seed', () => {
    const take = (seed: number) => {
      const r = seededRandom(seed);
      return Array.from({ length: 20 }, () => r());
    };
    expect(take(42)).toEqual(take(42));
    expect(take(42)).not.toEqual(take(43));
    expect(new Set(take(42)).size).toBe(20);
  });
  it('stays in [0, 1) and averages one half', () => {
    // 100,000 uniform values: the mean's standard deviation is 0.2887 / √100000 ≈ 0.0009; 0.01 is > 10 σ.
    const r = seededRandom(7);
    let sum = 0;
    let min = 1;
    let max = 0;
    for (let i = 0; i < 100_000; i++) {
      const x = r();
      sum += x;
      min = Math.min(min, x);
      max = Math.max(max, x);
    }
    expect(min).toBeGreaterThanOrEqual(0);
    expect(max).toBeLessThan(1);
    expect(Math.abs(sum / 100_000 - 0.5)).toBeLessThan(0.01);
    expect(min).toBeLessThan(0.001);
    expect(max).toBeGreaterThan(0.999);
  });
});

/* ───────────── drawing ───────────── */

describe('drawAttempt', () => {
  it('draws the set number of distinct questions of the pool', () => {
    const p = pool(30);
    const random = seededRandom(1);
    for (let i = 0; i < 200; i++) {
      const { questionIds } = drawAttempt(p, { questions: 10 }, random);
      expect(questionIds).toHaveLength(10);
      expect(new Set(questionIds).size).toBe(10);
      for (const id of questionIds) expect(id >= 1 && id <= 30).toBe(true);
    }
  });
  it('never draws more than the pool holds, nor a question twice', () => {
    const random = seededRandom(2);
    for (const [size, asked] of [
      [3, 10],
      [10, 10],
      [1, 100],
      [0, 10],
    ] as const) {
      const { questionIds, optionOrder } = drawAttempt(pool(size), { questions: asked }, random);
      expect(questionIds).toHaveLength(size);
      expect([...questionIds].sort((a, b) => a - b)).toEqual(Array.from({ length: size }, (_, i) => i + 1));
      expect(Object.keys(optionOrder)).toHaveLength(size);
    }
  });
  it('counts a question listed twice in the pool once', () => {
    const p = [single(1), single(2), single(1), single(2)];
    const { questionIds } = drawAttempt(p, { questions: 4 }, seededRandom(3));
    expect([...questionIds].sort()).toEqual([1, 2]);
  });
  it('draws nothing when no question is asked', () => {
    expect(drawAttempt(pool(5), { questions: 0 }, seededRandom(4))).toEqual({ questionIds: [], optionOrder: {} });
  });
  it('is reproducible with the same seed and varies with another', () => {
    const p = pool(40);
    expect(drawAttempt(p, { questions: 10 }, seededRandom(99))).toEqual(drawAttempt(p, { questions: 10 }, seededRandom(99)));
    expect(drawAttempt(p, { questions: 10 }, seededRandom(99))).not.toEqual(drawAttempt(p, { questions: 10 }, seededRandom(100)));
  });
  it('does not change the pool', () => {
    const p = pool(8);
    const copy = structuredClone(p);
    drawAttempt(p, { questions: 5 }, seededRandom(5));
    expect(p).toEqual(copy);
  });

  /*
   * Uniformity. 10,000 draws of 5 questions from 20: each question is drawn with probability 1/4 per
   * draw, so its count is Binomial(10000, 0.25): mean 2500, σ = √(10000·0.25·0.75) ≈ 43.3. A tolerance
   * of ±200 (≈ 4.6 σ) fails a correct draw with probability ≈ 4·10⁻⁶ per question whatever the seed,
   * yet catches real biases: always taking the head of the pool (10,000 vs 0), or the off-by-one
   * Fisher–Yates that never leaves an item in place (Sattolo: the first five drawn ≈ 2105 times).
   */
  it('picks every question with the same frequency (10,000 seeded draws)', () => {
    const n = 20;
    const k = 5;
    const draws = 10_000;
    const random = seededRandom(2024);
    const picked = new Array<number>(n + 1).fill(0);
    const first = new Array<number>(n + 1).fill(0);
    for (let i = 0; i < draws; i++) {
      const { questionIds } = drawAttempt(pool(n), { questions: k }, random);
      for (const id of questionIds) picked[id]!++;
      first[questionIds[0]!]!++;
    }
    const expected = (draws * k) / n;
    for (let id = 1; id <= n; id++) expect(Math.abs(picked[id]! - expected)).toBeLessThan(200);
    // The order is random too: each question comes first in 1/20 of the draws, 500 ± 21.8 (σ); ±100 ≈ 4.6 σ.
    for (let id = 1; id <= n; id++) expect(Math.abs(first[id]! - draws / n)).toBeLessThan(100);
  });

  it('shuffles the options of single and multiple choice, keeping the same options', () => {
    const p = [single(1), multiple(2, [21, 22])];
    const random = seededRandom(6);
    const orders = new Set<string>();
    for (let i = 0; i < 100; i++) {
      const { optionOrder } = drawAttempt(p, { questions: 2 }, random);
      expect([...optionOrder['1']!].sort()).toEqual([11, 12, 13, 14]);
      expect([...optionOrder['2']!].sort()).toEqual([21, 22, 23, 24]);
      orders.add(optionOrder['1']!.join());
    }
    expect(orders.size).toBeGreaterThan(10);
  });

  /*
   * 24,000 shuffles of four options: each of the 24 orders is expected 1000 times, σ = √(24000·(1/24)·(23/24)) ≈ 31;
   * ±150 (≈ 4.8 σ). Sattolo's off-by-one would give only the 6 cyclic orders; a swap-with-any-index
   * shuffle gives some orders ≈ 1.4 times as often as others.
   */
  it('gives every option order the same chance', () => {
    const random = seededRandom(77);
    const counts = new Map<string, number>();
    for (let i = 0; i < 24_000; i++) {
      const key = drawAttempt([single(1)], { questions: 1 }, random).optionOrder['1']!.join();
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    expect(counts.size).toBe(24);
    for (const c of counts.values()) expect(Math.abs(c - 1000)).toBeLessThan(150);
  });

  it('keeps true/false options true then false', () => {
    const random = seededRandom(8);
    for (let i = 0; i < 50; i++) {
      const { optionOrder } = drawAttempt([trueFalse(1), trueFalse(2, false), single(3)], { questions: 3 }, random);
      expect(optionOrder['1']).toEqual([11, 12]);
      expect(optionOrder['2']).toEqual([21, 22]);
    }
  });

  it('refuses a random source that leaves [0, 1)', () => {
    expect(() => drawAttempt(pool(3), { questions: 2 }, () => 1)).toThrow(RangeError);
    expect(() => drawAttempt(pool(3), { questions: 2 }, () => -0.1)).toThrow(RangeError);
    expect(() => drawAttempt(pool(3), { questions: 2 }, () => Number.NaN)).toThrow(RangeError);
  });

  it('gives a draw its stored schema accepts', () => {
    const drawn = drawAttempt([...pool(5), trueFalse(9)], { questions: 6 }, seededRandom(9));
    expect(drawnAttemptSchema.parse(JSON.parse(JSON.stringify(drawn)))).toEqual(drawn);
  });
});

describe('drawnAttemptSchema', () => {
  it('refuses stored junk', () => {
    expect(drawnAttemptSchema.safeParse({ questionIds: [1, -2], optionOrder: {} }).success).toBe(false);
    expect(drawnAttemptSchema.safeParse({ questionIds: [1], optionOrder: { abc: [1] } }).success).toBe(false);
    expect(drawnAttemptSchema.safeParse({ questionIds: [1], optionOrder: { '1': ['1'] } }).success).toBe(false);
    expect(drawnAttemptSchema.safeParse({ questionIds: '1,2' }).success).toBe(false);
  });
});

describe('presentAttempt', () => {
  const questions = [single(1), trueFalse(2), multiple(3, [31, 34])];
  const drawn = { questionIds: [3, 1, 2], optionOrder: { '1': [13, 11, 14, 12], '2': [21, 22], '3': [34, 32, 33, 31] } };

  it('shows the questions and options in the drawn order, in the page language', () => {
    const shown = presentAttempt(questions, drawn, 'en');
    expect(shown.map((q) => q.id)).toEqual([3, 1, 2]);
    expect(shown[0]).toEqual({
      id: 3,
      kind: 'multiple',
      prompt: 'Question 3',
      options: [
        { id: 34, text: 'Option 34' },
        { id: 32, text: 'Option 32' },
        { id: 33, text: 'Option 33' },
        { id: 31, text: 'Option 31' },
      ],
    });
    expect(shown[1]!.options.map((o) => o.id)).toEqual([13, 11, 14, 12]);
    expect(presentAttempt(questions, drawn, 'es')[2]).toMatchObject({ prompt: 'Pregunta 2', options: [{ text: 'Opción 21' }, { text: 'Opción 22' }] });
  });
  it('never says which options are right', () => {
    const text = JSON.stringify(presentAttempt(questions, drawn, 'es'));
    expect(text).not.toContain('correct');
    expect(text).not.toMatch(/:(true|false)\b/);
    for (const q of presentAttempt(questions, drawn, 'en')) for (const o of q.options) expect(Object.keys(o).sort()).toEqual(['id', 'text']);
  });
  it('copes with questions and options changed since the draw', () => {
    const edited = [{ ...single(1), options: [...single(1).options.filter((o) => o.id !== 14), { id: 15, textEs: 'Nueva', textEn: 'New', correct: false }] }];
    const shown = presentAttempt(edited, { questionIds: [7, 1], optionOrder: { '1': [14, 13, 11, 12] } }, 'es');
    expect(shown.map((q) => q.id)).toEqual([1]);
    expect(shown[0]!.options.map((o) => o.id)).toEqual([13, 11, 12, 15]);
  });
});

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
