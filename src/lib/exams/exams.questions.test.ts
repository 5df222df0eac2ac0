/** Exam rules: a course's exam settings and the questions an exam may hold. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_EXAM_SETTINGS, MAX_OPTIONS, correctOptions, examSettings, examSettingsSchema, validateQuestion, type QuestionKind } from './exams';
import { question, single, multiple, trueFalse } from './exams.testing';

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
    expect(examSettingsSchema.safeParse({ attempts: 1, questions: 1, minutes: 1, minimumScore: 0 }).success).toBe(true);
    expect(examSettingsSchema.safeParse({ attempts: 20, questions: 100, minutes: 240, minimumScore: 100 }).success).toBe(true);
  });
  it.each([
    ['attempts', 0],
    ['attempts', 21],
    ['questions', 0],
    ['questions', 101],
    ['minutes', 0],
    ['minutes', 241],
    ['minimumScore', -1],
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
