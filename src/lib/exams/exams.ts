/**
 * The timed exams' rules that need no I/O: a course's exam settings, what makes a question well
 * formed, drawing an attempt's questions and option order, reading an answer, grading, and what the
 * review may show; with, re-exported, the attempt's clock (`clock.ts`: deadline, grace period,
 * countdown) and a person's standing (`standing.ts`: who may start an attempt, when a course is
 * completed). Time is always passed in (ms since epoch) and randomness is injected, so every rule is
 * deterministic under test. Safe to bundle for the browser: no correct answer leaves this module
 * unless a function says so (`reviewFor`, once the learner passed or has no attempts left).
 */
import { z } from '../zod';
import type { Locale } from '~/i18n/locales';

/** The attempt's clock (deadline, grace, countdown): zod-free, so the exam island bundles it alone. */
export * from './clock';
/** Who may start an attempt, when a course is completed, and a person's standing in short. */
export * from './standing';
/** Grading an attempt with a corrected key (a regrade): options matched by position. */
export * from './keys';

/* ───────────── settings ───────────── */

/** A course's exam settings. */
export interface ExamSettings {
  /** Attempts a learner may start. */
  attempts: number;
  /** Questions drawn from the pool for each attempt (never more than the pool holds). */
  questions: number;
  /** Time allowed for an attempt. */
  minutes: number;
  /** Score (whole percent) needed to pass. */
  minimumScore: number;
}

/** The settings of an exam nobody configured: what every exam falls back to. */
export const DEFAULT_EXAM_SETTINGS: Readonly<ExamSettings> = Object.freeze({ attempts: 3, questions: 10, minutes: 20, minimumScore: 70 });

/** Valid exam settings (what the course editor may save). */
export const examSettingsSchema = z.object({
  attempts: z.number().int().min(1).max(20),
  questions: z.number().int().min(1).max(100),
  minutes: z.number().int().min(1).max(240),
  // 0: every graded attempt passes (an exam that only checks the course was followed).
  minimumScore: z.number().int().min(0).max(100),
});

/** Stored or submitted settings: any field may be missing (`undefined` or `null`). */
export type ExamSettingsInput = { [K in keyof ExamSettings]?: number | null | undefined };

/**
 * A course's settings: missing fields take `DEFAULT_EXAM_SETTINGS`, and the questions per attempt are
 * cut to the pool's size (so `questions` is 0 for an empty pool: such an exam cannot be taken). Throws
 * the schema's `ZodError` for a present but invalid value (out of range, not a whole number): those
 * never come from a form, which validates with `examSettingsSchema` first.
 */
export function examSettings(partial: ExamSettingsInput, poolSize: number): ExamSettings {
  const pick = (key: keyof ExamSettings) => partial[key] ?? DEFAULT_EXAM_SETTINGS[key];
  const settings = examSettingsSchema.parse({
    attempts: pick('attempts'),
    questions: pick('questions'),
    minutes: pick('minutes'),
    minimumScore: pick('minimumScore'),
  });
  const pool = Number.isFinite(poolSize) ? Math.max(0, Math.floor(poolSize)) : 0;
  return { ...settings, questions: Math.min(settings.questions, pool) };
}

/* ───────────── questions ───────────── */

/** The kinds of question: one right option, one or more right options, or true/false. */
export const QUESTION_KINDS = ['single', 'multiple', 'true-false'] as const;
export type QuestionKind = (typeof QUESTION_KINDS)[number];

/** Most options a question may have (and most option ids an answer may name). */
export const MAX_OPTIONS = 20;

/** An answer option, with its text in both languages and whether it is right. */
export interface ExamOption {
  id: number;
  textEs: string;
  textEn: string;
  correct: boolean;
}

/**
 * A question of an exam's pool. A true/false question's options are stored true first, then false,
 * and keep that order whenever shown.
 */
export interface ExamQuestion {
  id: number;
  kind: QuestionKind;
  promptEs: string;
  promptEn: string;
  options: readonly ExamOption[];
  /** Shown after grading, on the result page (empty or absent: none). */
  explanationEs?: string;
  explanationEn?: string;
}

/** What can be wrong with a question (each reported once). */
export type QuestionProblem =
  /** Not one of `QUESTION_KINDS`. */
  | 'unknown-kind'
  /** A prompt is empty (or only spaces) in Spanish or English. */
  | 'prompt-missing'
  /** An option's text is empty in Spanish or English. */
  | 'option-text-missing'
  /** An option id is not a positive whole number. */
  | 'invalid-option-id'
  /** Two options share an id. */
  | 'duplicate-option-id'
  /** Fewer than two options (a choice needs two). */
  | 'too-few-options'
  /** More than `MAX_OPTIONS` options. */
  | 'too-many-options'
  /** A true/false question without exactly two options. */
  | 'true-false-needs-two-options'
  /** A single-choice or true/false question without exactly one right option. */
  | 'needs-one-correct'
  /** A multiple-choice question without any right option. */
  | 'needs-a-correct';

const optionIdSchema = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const blank = (text: string) => text.trim() === '';

/** The problems of a question, empty when it may be asked. */
export function validateQuestion(q: ExamQuestion): QuestionProblem[] {
  const problems = new Set<QuestionProblem>();
  const options = q.options;
  const correct = options.filter((o) => o.correct).length;
  if (!(QUESTION_KINDS as readonly string[]).includes(q.kind)) problems.add('unknown-kind');
  if (blank(q.promptEs) || blank(q.promptEn)) problems.add('prompt-missing');
  if (options.some((o) => blank(o.textEs) || blank(o.textEn))) problems.add('option-text-missing');
  if (options.some((o) => !optionIdSchema.safeParse(o.id).success)) problems.add('invalid-option-id');
  if (new Set(options.map((o) => o.id)).size !== options.length) problems.add('duplicate-option-id');
  if (q.kind === 'true-false') {
    if (options.length !== 2) problems.add('true-false-needs-two-options');
  } else if (options.length < 2) problems.add('too-few-options');
  if (options.length > MAX_OPTIONS) problems.add('too-many-options');
  if ((q.kind === 'single' || q.kind === 'true-false') && correct !== 1) problems.add('needs-one-correct');
  if (q.kind === 'multiple' && correct === 0) problems.add('needs-a-correct');
  return [...problems];
}

/** The right options of a question, sorted by id. */
export function correctOptions(question: ExamQuestion): number[] {
  return question.options
    .filter((o) => o.correct)
    .map((o) => o.id)
    .sort((a, b) => a - b);
}

/* ───────────── drawing an attempt ───────────── */

/** A source of random numbers in [0, 1), like `Math.random`. */
export type Random = () => number;

/**
 * A small seeded generator (mulberry32) for tests and reproducible draws: the same seed (its low 32
 * bits) always gives the same sequence. Not for secrets.
 */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A whole number in [0, n) from `random`; throws a `RangeError` when `random` leaves [0, 1). */
function randomIndex(random: Random, n: number): number {
  const r = random();
  if (!(r >= 0 && r < 1)) throw new RangeError(`random() returned ${r}, outside [0, 1)`);
  return Math.floor(r * n);
}

/** Fisher–Yates: the first `k` items of a uniformly random permutation of `items` (a new array). */
function shuffled<T>(items: readonly T[], random: Random, k = items.length): T[] {
  const a = [...items];
  const n = a.length;
  const take = Math.min(n, k);
  for (let i = 0; i < take; i++) {
    const j = i + randomIndex(random, n - i);
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a.slice(0, take);
}

/** What the server stores with an attempt: the questions in the order asked, and each one's option order. */
export interface DrawnAttempt {
  questionIds: number[];
  /** Option ids in the order shown, by question id. */
  optionOrder: Record<string, number[]>;
}

/** A stored draw read back (the database's JSON is checked, not trusted). */
export const drawnAttemptSchema = z.object({
  questionIds: z.array(optionIdSchema).max(100),
  optionOrder: z.record(z.string().regex(/^[1-9]\d*$/), z.array(optionIdSchema).max(MAX_OPTIONS)),
});

/**
 * Draws an attempt: `settings.questions` distinct questions of the pool chosen uniformly at random
 * (never more than the pool holds; a question id listed twice counts once), in a random order, with
 * each question's options shuffled, except true/false, which stay true then false.
 */
export function drawAttempt(pool: readonly ExamQuestion[], settings: Pick<ExamSettings, 'questions'>, random: Random): DrawnAttempt {
  const seen = new Set<number>();
  const distinct = pool.filter((q) => !seen.has(q.id) && seen.add(q.id));
  const k = Number.isFinite(settings.questions) ? Math.max(0, Math.floor(settings.questions)) : 0;
  const chosen = shuffled(distinct, random, k);
  const optionOrder: Record<string, number[]> = {};
  for (const q of chosen) {
    const ids = q.options.map((o) => o.id);
    optionOrder[String(q.id)] = q.kind === 'true-false' ? ids : shuffled(ids, random);
  }
  return { questionIds: chosen.map((q) => q.id), optionOrder };
}

/** A question as the learner sees it during an attempt: one language, no hint of which options are right. */
export interface PresentedQuestion {
  id: number;
  kind: QuestionKind;
  prompt: string;
  options: { id: number; text: string }[];
}

/**
 * The attempt's questions as the exam island shows them: in the drawn order, options in the drawn
 * order, without `correct`. Questions deleted since the draw are left out; options added since are
 * shown after the drawn ones, options deleted since are left out.
 */
export function presentAttempt(questions: readonly ExamQuestion[], drawn: DrawnAttempt, locale: Locale): PresentedQuestion[] {
  const byId = new Map(questions.map((q) => [q.id, q]));
  const en = locale === 'en';
  return drawn.questionIds.flatMap((id) => {
    const q = byId.get(id);
    if (!q) return [];
    const order = Object.hasOwn(drawn.optionOrder, String(id)) ? (drawn.optionOrder[String(id)] ?? []) : [];
    const rank = new Map(order.map((optionId, i) => [optionId, i]));
    const options = [...q.options]
      .sort((a, b) => (rank.get(a.id) ?? order.length) - (rank.get(b.id) ?? order.length))
      .map((o) => ({ id: o.id, text: en ? o.textEn : o.textEs }));
    return [{ id: q.id, kind: q.kind, prompt: en ? q.promptEn : q.promptEs, options }];
  });
}

/* ───────────── answers ───────────── */

/** Why an answer was refused. */
export type AnswerError =
  /** Not an option id nor a list of them (strings, fractions, negatives, over `MAX_OPTIONS` ids…). */
  | 'invalid'
  /** No option. */
  | 'empty'
  /** An id that is not one of the question's options. */
  | 'unknown-option'
  /** More than one option for a single-choice or true/false question. */
  | 'too-many';

/** An answer as it arrives: one option id, or a list of up to `MAX_OPTIONS` option ids. */
export const rawAnswerSchema = z.union([optionIdSchema, z.array(optionIdSchema).max(MAX_OPTIONS)]);

/** An answer read, or why not. */
export type NormalizedAnswer = { ok: true; answer: number[] } | { ok: false; error: AnswerError };

/**
 * Reads an answer to a question: the chosen option ids, sorted and without repeats. A single id means
 * a list of one. Checks in this order: the shape (`'invalid'`), at least one option (`'empty'`), every
 * id one of the question's options (`'unknown-option'`), one option only for single-choice and
 * true/false (`'too-many'`).
 */
export function normalizeAnswer(question: ExamQuestion, raw: unknown): NormalizedAnswer {
  const parsed = rawAnswerSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, error: 'invalid' };
  const ids = [...new Set(typeof parsed.data === 'number' ? [parsed.data] : parsed.data)].sort((a, b) => a - b);
  if (ids.length === 0) return { ok: false, error: 'empty' };
  const known = new Set(question.options.map((o) => o.id));
  if (!ids.every((id) => known.has(id))) return { ok: false, error: 'unknown-option' };
  if (question.kind !== 'multiple' && ids.length > 1) return { ok: false, error: 'too-many' };
  return { ok: true, answer: ids };
}

/* ───────────── grading ───────────── */

/** How one question was answered. */
export interface GradedQuestion {
  questionId: number;
  correct: boolean;
  /** The options given (sorted; empty when unanswered or the stored answer was not a valid one). */
  given: number[];
  /** The right options (sorted). Never sent to the browser as such: see `reviewFor`. */
  correctOptions: number[];
}

/** An attempt's grade. */
export interface Grade {
  correct: number;
  total: number;
  /** Whole percent, rounded down (2 of 3 is 66). 0 for an attempt without questions. */
  score: number;
  perQuestion: GradedQuestion[];
}

/**
 * Grades an attempt (`getCalification`): a question is right only when the options given are
 * exactly its right options (no partial credit for multiple choice); an unanswered question, or one
 * whose answer does not read (`normalizeAnswer`), is wrong. `answers` is keyed by question id;
 * answers to other questions are ignored.
 */
export function gradeAttempt(questions: readonly ExamQuestion[], answers: Readonly<Record<string, readonly number[]>>): Grade {
  const perQuestion = questions.map((q): GradedQuestion => {
    const key = String(q.id);
    const read = Object.hasOwn(answers, key) ? normalizeAnswer(q, answers[key]) : null;
    const given = read?.ok ? read.answer : [];
    const right = correctOptions(q);
    const correct = given.length > 0 && given.length === right.length && given.every((id, i) => id === right[i]);
    return { questionId: q.id, correct, given, correctOptions: right };
  });
  const correct = perQuestion.filter((p) => p.correct).length;
  const total = questions.length;
  return { correct, total, score: total === 0 ? 0 : Math.floor((correct * 100) / total), perQuestion };
}

/** True when a score reaches the exam's minimum. */
export function passed(score: number, minimumScore: number): boolean {
  return score >= minimumScore;
}

/* ───────────── review ───────────── */

/** Where the learner stands after an attempt. */
export interface ReviewStatus {
  passed: boolean;
  attemptsLeft: number;
}

/** One question of the review; `correctOptions` only once they may be shown. */
export interface ReviewQuestion {
  questionId: number;
  correct: boolean;
  given: number[];
  correctOptions?: number[];
}

/** True when the review may show the right options: the learner passed or has no attempts left. */
export function revealsAnswers(status: ReviewStatus): boolean {
  return status.passed || status.attemptsLeft <= 0;
}

/**
 * What the review shows of a graded attempt: per question whether it was right and what was given,
 * and the right options only when `revealsAnswers` (otherwise the field is absent, so the right
 * answers never reach the browser while the learner may still try again).
 */
export function reviewFor(grade: Grade, status: ReviewStatus): ReviewQuestion[] {
  const reveal = revealsAnswers(status);
  return grade.perQuestion.map((p) => ({
    questionId: p.questionId,
    correct: p.correct,
    given: [...p.given],
    ...(reveal ? { correctOptions: [...p.correctOptions] } : {}),
  }));
}
