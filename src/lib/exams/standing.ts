/**
 * A person's standing in a course's exam: attempts left and best score, who may start an attempt, when
 * the course is completed, and the short summary "my learning" shows. Pure, no imports.
 */

/* ───────────── attempts ───────────── */

/** Attempts still available (never negative). */
export function attemptsLeft(used: number, allowed: number): number {
  return Math.max(0, allowed - used);
}

/** The highest score of the graded attempts (ungraded ones have `score: null`), or `null` when none. */
export function bestScore(attempts: readonly { score: number | null }[]): number | null {
  return attempts.reduce<number | null>((best, a) => (a.score !== null && (best === null || a.score > best) ? a.score : best), null);
}

/** What decides whether a person may start an attempt. */
export interface StartInput {
  loggedIn: boolean;
  /** A learner's session (an IBO session is logged in but not a learner). */
  isLearner: boolean;
  lessonsTotal: number;
  lessonsCompleted: number;
  /** Attempts started so far, the one in progress included or not (see `canStart`). */
  attemptsUsed: number;
  attemptsAllowed: number;
  passedAlready: boolean;
  /** An attempt is in progress (started, not submitted, before its deadline and grace). */
  openAttempt: boolean;
}

/** Why an attempt may not start. */
export type StartRefusal = 'login' | 'lessons' | 'no-attempts' | 'passed' | 'open-attempt';

/** Whether an attempt may start; `remaining` (lessons not completed) comes with `'lessons'`. */
export type StartDecision = { ok: true } | { ok: false; reason: Exclude<StartRefusal, 'lessons'> } | { ok: false; reason: 'lessons'; remaining: number };

/**
 * Whether a new attempt may start, or the first reason why not: `'login'` (a guest or an IBO session),
 * `'lessons'` (with how many are not completed), `'passed'`, `'no-attempts'`, `'open-attempt'` (not an
 * error: the page resumes that attempt). An attempt in progress is resumed even when it was the last
 * one, whether `attemptsUsed` counts it or not.
 */
export function canStart(input: StartInput): StartDecision {
  if (!input.loggedIn || !input.isLearner) return { ok: false, reason: 'login' };
  const remaining = Math.max(0, input.lessonsTotal - input.lessonsCompleted);
  if (remaining > 0) return { ok: false, reason: 'lessons', remaining };
  if (input.passedAlready) return { ok: false, reason: 'passed' };
  if (input.openAttempt) return { ok: false, reason: 'open-attempt' };
  if (attemptsLeft(input.attemptsUsed, input.attemptsAllowed) === 0) return { ok: false, reason: 'no-attempts' };
  return { ok: true };
}

/* ───────────── the course ───────────── */

/** What decides whether a course is completed. */
export interface CompletionInput {
  lessonsTotal: number;
  lessonsCompleted: number;
  hasExam: boolean;
  examPassed: boolean;
}

/**
 * True when every lesson is completed and, when the course has an exam, the exam is passed. A course
 * with neither lessons nor an exam has nothing to complete and is not completed.
 */
export function courseCompleted({ lessonsTotal, lessonsCompleted, hasExam, examPassed }: CompletionInput): boolean {
  if (lessonsTotal <= 0 && !hasExam) return false;
  return lessonsCompleted >= lessonsTotal && (!hasExam || examPassed);
}

/* ───────────── a person's standing, in short ───────────── */

/**
 * Where a person stands in a course's exam: never started, an attempt in progress (started and not
 * graded yet), failed with attempts left, failed with none left, or passed.
 */
export type ExamStatus = 'not-taken' | 'in-progress' | 'failed' | 'out-of-attempts' | 'passed';

/** One attempt as the summary reads it (`graded: false` while it is in progress). */
export interface AttemptOutcome {
  score: number | null;
  passed: boolean | null;
  graded: boolean;
}

/** A person's standing in one exam: its status, best score (whole percent, `null` before a grade) and attempts left. */
export interface ExamSummary {
  status: ExamStatus;
  best: number | null;
  attemptsLeft: number;
}

/**
 * Sums up a person's attempts at an exam ("my learning"). A pass wins over anything else; an attempt
 * not yet graded is in progress (the server grades it at its deadline at the latest).
 */
export function examSummary(attempts: readonly AttemptOutcome[], attemptsAllowed: number): ExamSummary {
  const left = attemptsLeft(attempts.length, attemptsAllowed);
  const best = bestScore(attempts.filter((a) => a.graded));
  const status: ExamStatus = attempts.some((a) => a.graded && a.passed === true)
    ? 'passed'
    : attempts.some((a) => !a.graded)
      ? 'in-progress'
      : attempts.length === 0
        ? 'not-taken'
        : left > 0
          ? 'failed'
          : 'out-of-attempts';
  return { status, best, attemptsLeft: left };
}
