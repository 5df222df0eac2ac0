/**
 * What the exam pages show one viewer: the rules page (`/course-exam-info/{id}`), the attempt in
 * progress (`/course-exam/{id}`) and the result with its review (`/course-result`). Each answers
 * `not-found` for unknown courses, courses without an exam and courses the viewer may not know of,
 * exactly like the course pages. The correct options leave this module only in a review that
 * `reviewFor` allows to show them. Reading a page grades an attempt whose time is up, so each loader
 * answers the page and what that changed (`PageRead`), for the page to tell the runtime.
 */
import type { Db } from '../db/client';
import { refusal, type Viewer } from '../access';
import { courseDetails, type CatalogCourse, type CatalogSnapshot, type CourseDetails } from '../catalog';
import type { Locale } from '~/i18n/locales';
import type { PageRead } from '../runtime/changes';
import { examStanding, type ExamStanding } from './exams.server';
import { loadExam, type CourseExam, type ExamSource } from './exam-source.server';
import { loadExamInfo } from './exam-info.server';
import { gradeAttempt, gradedQuestions, presentAttempt, remainingMs, reviewFor, type ExamSettings, type PresentedQuestion, type QuestionKind, type StartDecision } from './exams';

/** A course whose exam the viewer may know of. */
export interface ExamCourse {
  course: CatalogCourse;
  details: CourseDetails;
  /** Whether the viewer may watch the course now (`null`: yes). */
  mayWatch: boolean;
}

/** The course of an exam page for this viewer, or `null` (unknown, not listed for them). */
export function examCourse(catalog: CatalogSnapshot, viewer: Viewer, courseId: number, locale: Locale): ExamCourse | null {
  const course = catalog.byId.get(courseId);
  if (!course) return null;
  const refused = refusal(course, viewer);
  if (refused === 'not-found') return null;
  const details = courseDetails(catalog, courseId, viewer, locale);
  return details ? { course, details, mayWatch: refused === null } : null;
}

/** Why the rules page offers no start: `canStart`'s reasons, and `watch` (the course may not be watched yet). */
export type InfoDecision = StartDecision | { ok: false; reason: 'watch' };

/** The rules page. */
export type ExamInfoPage =
  | { kind: 'not-found' }
  | {
      kind: 'info';
      course: CourseDetails;
      settings: ExamSettings;
      used: number;
      left: number;
      best: number | null;
      decision: InfoDecision;
      /** The attempt in progress: time left on the server's clock. */
      open: { remainingMs: number } | null;
      /** The latest graded attempt's number, for a link to its result. */
      lastGraded: number | null;
    };

/** Loads the rules page of `courseId`'s exam for a viewer. */
export async function loadExamInfoPage(
  db: Db,
  catalog: CatalogSnapshot,
  viewer: Viewer,
  courseId: number,
  locale: Locale,
  now: number,
  exams: ExamSource = (id) => loadExam(db, id),
): Promise<PageRead<ExamInfoPage>> {
  const found = examCourse(catalog, viewer, courseId, locale);
  if (!found) return { page: { kind: 'not-found' }, changed: [] };
  const info = await loadExamInfo(db, found.course, viewer, now, exams);
  if (!info) return { page: { kind: 'not-found' }, changed: [] };
  const standing = info.standing;
  const decision: InfoDecision = info.decision.ok === false && info.decision.reason === 'login' ? info.decision : found.mayWatch ? info.decision : { ok: false, reason: 'watch' };
  const graded = standing?.attempts.filter((a) => a.gradedAt !== null) ?? [];
  const page: ExamInfoPage = {
    kind: 'info',
    course: found.details,
    settings: info.exam.settings,
    used: standing?.used ?? 0,
    left: standing?.left ?? info.exam.settings.attempts,
    best: standing?.best ?? null,
    decision,
    open: standing?.open ? { remainingMs: remainingMs(standing.open.deadline, now) } : null,
    lastGraded: graded.at(-1)?.number ?? null,
  };
  return { page, changed: info.changed };
}

/** The exam page: the attempt in progress, or why there is none. */
export type ExamRunPage =
  | { kind: 'not-found' }
  /** No attempt in progress (never started, graded, or its time is up): the rules page says what next. */
  | { kind: 'no-attempt' }
  | {
      kind: 'run';
      course: CourseDetails;
      attempt: { id: number; number: number; allowed: number };
      questions: PresentedQuestion[];
      /** The answers stored so far, by question id. */
      answers: Record<string, number[]>;
      /** Time left on the server's clock when the page was made. */
      remainingMs: number;
    };

/** Loads the attempt in progress of the viewer (a learner) at `courseId`'s exam. */
export async function loadExamRun(
  db: Db,
  catalog: CatalogSnapshot,
  viewer: Viewer,
  courseId: number,
  locale: Locale,
  now: number,
  exams: ExamSource = (id) => loadExam(db, id),
): Promise<PageRead<ExamRunPage>> {
  const found = examCourse(catalog, viewer, courseId, locale);
  if (!found) return { page: { kind: 'not-found' }, changed: [] };
  const exam = await exams(courseId);
  if (!exam) return { page: { kind: 'not-found' }, changed: [] };
  if (viewer.kind !== 'learner' || viewer.contactId === null) return { page: { kind: 'no-attempt' }, changed: [] };
  const { standing, changed } = await examStanding(db, exam, viewer.contactId, now);
  const { open } = standing;
  if (!open) return { page: { kind: 'no-attempt' }, changed };
  const page: ExamRunPage = {
    kind: 'run',
    course: found.details,
    attempt: { id: open.id, number: open.number, allowed: exam.settings.attempts },
    questions: presentAttempt([...exam.versions.values()], open.drawn, locale),
    answers: open.answers,
    remainingMs: remainingMs(open.deadline, now),
  };
  return { page, changed };
}

/** One question of the review, in the page's language. */
export interface ReviewItem {
  n: number;
  kind: QuestionKind;
  prompt: string;
  correct: boolean;
  /** Each option: whether it was given, and whether it is right (only when the answers may be shown). */
  options: { id: number; text: string; given: boolean; right?: boolean }[];
  /** The question's explanation in the page's language, once the answers may be shown (absent: none). */
  explanation?: string;
}

/** The result page. */
export type ExamResultPage =
  | { kind: 'not-found' }
  /** No graded attempt yet. */
  | { kind: 'none'; course: CourseDetails; inProgress: boolean }
  | {
      kind: 'result';
      course: CourseDetails;
      /** An attempt is in progress (its grading, by the clock or a submit, will change what this page says). */
      inProgress: boolean;
      attempt: { number: number; gradedAt: number };
      score: number;
      correct: number;
      total: number;
      passed: boolean;
      minimumScore: number;
      attemptsLeft: number;
      /** True when the review shows the right options. */
      revealed: boolean;
      review: ReviewItem[];
      /** A new attempt may start (not passed, attempts left). */
      mayRetry: boolean;
    };

/**
 * Loads the result of the viewer's attempt number `attemptNumber` at `courseId`'s exam, or of their
 * latest graded attempt. An attempt whose time is up is graded first; one still in progress has no result.
 */
export async function loadExamResult(
  db: Db,
  catalog: CatalogSnapshot,
  viewer: Viewer,
  courseId: number,
  attemptNumber: number | null,
  locale: Locale,
  now: number,
  exams: ExamSource = (id) => loadExam(db, id),
): Promise<PageRead<ExamResultPage>> {
  const found = examCourse(catalog, viewer, courseId, locale);
  if (!found) return { page: { kind: 'not-found' }, changed: [] };
  const exam = await exams(courseId);
  if (!exam) return { page: { kind: 'not-found' }, changed: [] };
  if (viewer.kind !== 'learner' || viewer.contactId === null) return { page: { kind: 'none', course: found.details, inProgress: false }, changed: [] };
  const { standing, changed } = await examStanding(db, exam, viewer.contactId, now);
  const graded = standing.attempts.filter((a) => a.gradedAt !== null);
  const attempt = attemptNumber === null ? graded.at(-1) : graded.find((a) => a.number === attemptNumber);
  if (!attempt) return { page: attemptNumber === null ? { kind: 'none', course: found.details, inProgress: standing.open !== null } : { kind: 'not-found' }, changed };
  return { page: resultOf(exam, standing, attempt, found.details, locale), changed };
}

function resultOf(exam: CourseExam, standing: ExamStanding, attempt: ExamStanding['attempts'][number], course: CourseDetails, locale: Locale): ExamResultPage {
  const asked = presentAttempt([...exam.versions.values()], attempt.drawn, locale);
  // The versions the attempt drew, with the key (and explanation) of a regrade once regraded.
  const graded = gradedQuestions(exam.versions, attempt.drawn.questionIds, attempt.keys);
  const explanations = new Map(graded.map((q) => [q.id, (locale === 'en' ? q.explanationEn : q.explanationEs)?.trim() ?? '']));
  const grade = gradeAttempt(graded, attempt.answers);
  const status = { passed: standing.passed, attemptsLeft: standing.left };
  const review = new Map(reviewFor(grade, status).map((r) => [r.questionId, r]));
  const revealed = standing.passed || standing.left <= 0;
  return {
    kind: 'result',
    course,
    inProgress: standing.open !== null,
    attempt: { number: attempt.number, gradedAt: attempt.gradedAt ?? 0 },
    // The stored score is the one that counted (graded once); the review is recomputed from the stored answers.
    score: attempt.score ?? grade.score,
    correct: grade.correct,
    total: grade.total,
    passed: attempt.passed === true,
    minimumScore: exam.settings.minimumScore,
    attemptsLeft: standing.left,
    revealed,
    mayRetry: !standing.passed && standing.left > 0,
    review: asked.map((q, i) => {
      const r = review.get(q.id);
      const given = new Set(r?.given ?? []);
      const right = r?.correctOptions ? new Set(r.correctOptions) : null;
      return {
        n: i + 1,
        kind: q.kind,
        prompt: q.prompt,
        correct: r?.correct ?? false,
        options: q.options.map((o) => ({ id: o.id, text: o.text, given: given.has(o.id), ...(right ? { right: right.has(o.id) } : {}) })),
        ...(revealed && explanations.get(q.id) ? { explanation: explanations.get(q.id)! } : {}),
      };
    }),
  };
}
