/**
 * A person's exam attempts: their standing, starting an attempt (atomically: concurrent starts never
 * exceed the attempts allowed and never open two), saving each answer as it is given, and grading — by the learner's submit
 * (idempotent) or by the server once the deadline and its grace have passed, even if the browser never
 * comes back. The rules themselves are in `exams.ts`; the correct options never leave this module
 * except in a grade.
 */
import { and, asc, eq, isNull, lt, sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client';
import { retryConflicts } from '../db/retry';
import type { Scheduler } from '../jobs/jobs.server';
import { evaluations, examAttempts } from '../db/schema';
import { pagesChange, personChange, type Change } from '../runtime/changes';
import {
  answerWindow,
  attemptsLeft,
  bestScore,
  drawAttempt,
  GRACE_MS,
  gradeAttempt,
  gradedQuestions,
  normalizeAnswer,
  passed as passes,
  type AnswerError,
  type DrawnAttempt,
  type Grade,
  type Random,
} from './exams';
import { loadExam, type CourseExam } from './exam-source.server';

/** One attempt as the exam pages use it (answers as given; grade fields once graded). */
export interface Attempt {
  id: number;
  number: number;
  drawn: DrawnAttempt;
  answers: Record<string, number[]>;
  /** The versions a regrade took the key of, by drawn question id (`{}`: graded with the versions drawn). */
  keys: Record<string, number>;
  startedAt: number;
  deadline: number;
  /** When it was graded (`null`: in progress). */
  gradedAt: number | null;
  score: number | null;
  passed: boolean | null;
}

type AttemptRow = typeof examAttempts.$inferSelect;
/** A transaction of `Db`. */
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

function toAttempt(row: AttemptRow): Attempt {
  return {
    id: row.id,
    number: row.attemptNumber,
    drawn: { questionIds: row.questionIds, optionOrder: row.optionOrder },
    answers: row.answers ?? {},
    keys: row.gradedKeys ?? {},
    startedAt: row.startedAt.getTime(),
    deadline: row.deadlineAt.getTime(),
    gradedAt: row.submittedAt?.getTime() ?? null,
    score: row.score,
    passed: row.passed,
  };
}

/** A person's standing in an exam: their attempts (oldest first) and what follows from them. */
export interface ExamStanding {
  attempts: Attempt[];
  used: number;
  left: number;
  best: number | null;
  passed: boolean;
  /** The attempt in progress, if any (still open on the server's clock). */
  open: Attempt | null;
}

/**
 * What grading one of a person's attempts changed: a pass, what they may see (the course is completed,
 * the courses requiring it open); anything else, only their own pages (my learning's status and best
 * score, the exam's pages).
 */
export function gradedChange(contactId: number, passed: boolean): Change {
  return passed ? personChange({ contactId }) : pagesChange(contactId);
}

/**
 * A person's attempts at an exam, after grading any of theirs whose time is up (the "next read"), and
 * what that grading changed (none when this read graded nothing): the caller tells the runtime, as the
 * scheduled grading and the submit do.
 */
export async function examStanding(db: Db, exam: CourseExam, contactId: number, now: number): Promise<{ standing: ExamStanding; changed: Change[] }> {
  const rows = await attemptRows(db, exam, contactId);
  const changed: Change[] = [];
  // One read: an attempt whose time is up is graded from it (rare), instead of a query looking for one first.
  for (const [i, row] of rows.entries()) {
    if (!overdue(row, now)) continue;
    const graded = await gradeStored(db, exam, row.id, now);
    if (!graded) continue;
    rows[i] = graded.row;
    // Graded meanwhile by the job or a submit instead: whoever graded it told.
    if (graded.gradedNow) changed.push(gradedChange(contactId, graded.row.passed === true));
  }
  return { standing: standingOf(exam, rows.map(toAttempt)), changed };
}

/** The person's attempts at `exam`, oldest first. */
function attemptRows(db: Db, exam: CourseExam, contactId: number): Promise<AttemptRow[]> {
  return db
    .select()
    .from(examAttempts)
    .where(and(eq(examAttempts.evaluationId, exam.evaluationId), eq(examAttempts.contactId, contactId)))
    .orderBy(asc(examAttempts.attemptNumber));
}

/** True for an attempt still ungraded whose deadline and grace have passed. */
function overdue(row: AttemptRow, now: number): boolean {
  return row.submittedAt === null && row.deadlineAt.getTime() < now - GRACE_MS;
}

function standingOf(exam: CourseExam, attempts: Attempt[]): ExamStanding {
  return {
    attempts,
    used: attempts.length,
    left: attemptsLeft(attempts.length, exam.settings.attempts),
    best: bestScore(attempts),
    passed: attempts.some((a) => a.passed === true),
    open: attempts.find((a) => a.gradedAt === null) ?? null,
  };
}

/** Why an attempt could not be started. */
export type StartError = 'no-questions' | 'no-attempts' | 'passed';

/**
 * Starts an attempt for `contactId`, or returns the one in progress. The person's row is locked for the
 * transaction, so concurrent starts take turns: twenty at once start one attempt, and never more than
 * the attempts allowed. The draw (questions and option order) and the deadline on the server's clock
 * are stored with the attempt. Checking that the lessons are completed is the caller's (`lessonsRemaining`);
 * so is telling the runtime of a new attempt (`runtime.pagesChanged(contactId)`): "my learning" shows
 * the exam in progress.
 *
 * Locks, here and in every other write of a person's attempts, are taken in one order: the person's row
 * (only here, `for no key update`: it does not hold up the foreign-key check of an attempt being
 * inserted, which takes the row `for key share`), then their attempts. A collision PostgreSQL still
 * gives up on (a deadlock, a serialization failure) is run again (`retryConflicts`).
 */
export async function startAttempt(
  db: Db,
  exam: CourseExam,
  contactId: number,
  now: number,
  random: Random = Math.random,
): Promise<StartOutcome> {
  if (exam.settings.questions === 0) return { ok: false, error: 'no-questions', changed: [] };
  const first = await retryConflicts(() => startPlainly(db, exam, contactId, now, random));
  if (first) return { ok: true, attempt: first, resumed: false, changed: [] };
  return retryConflicts(() => db.transaction((tx) => startLocked(tx, exam, contactId, now, random)));
}

/**
 * What a start did: the attempt (new, or the one in progress resumed) or why none, and in both cases
 * what grading an attempt whose time was up on the way changed (`changed`, for the caller to tell).
 */
export type StartOutcome = ({ ok: true; attempt: Attempt; resumed: boolean } | { ok: false; error: StartError }) & { changed: Change[] };

/** How many times the locking start decides again after losing the insert to a start elsewhere (it then resumes that one). */
const START_ROUNDS = 3;

/** The start that decides under the person's lock: resume, grade what is overdue, refuse, or insert the next attempt. */
async function startLocked(tx: Tx, exam: CourseExam, contactId: number, now: number, random: Random): Promise<StartOutcome> {
  await tx.execute(sql`select id from contacts where id = ${contactId} for no key update`);
  for (let round = 0; round < START_ROUNDS; round++) {
    // Their attempts are locked too: grading one (below) must not race an answer being saved.
    const rows = await tx
      .select()
      .from(examAttempts)
      .where(and(eq(examAttempts.evaluationId, exam.evaluationId), eq(examAttempts.contactId, contactId)))
      .orderBy(asc(examAttempts.attemptNumber))
      .for('update');
    // An attempt whose time is up is graded first (the "next read").
    const changed: Change[] = [];
    for (const [i, row] of rows.entries()) {
      if (!overdue(row, now)) continue;
      const graded = await gradeRow(tx, exam, row, now);
      rows[i] = graded.row;
      if (graded.gradedNow) changed.push(gradedChange(contactId, graded.row.passed === true));
    }
    if (rows.some((r) => r.passed === true)) return { ok: false, error: 'passed', changed };
    const open = rows.find((r) => r.submittedAt === null);
    if (open) return { ok: true, attempt: toAttempt(open), resumed: true, changed };
    if (rows.length >= exam.settings.attempts) return { ok: false, error: 'no-attempts', changed };
    const drawn = drawAttempt(exam.pool, exam.settings, random);
    const [row] = await tx
      .insert(examAttempts)
      .values({
        evaluationId: exam.evaluationId,
        contactId,
        attemptNumber: rows.length + 1,
        questionIds: drawn.questionIds,
        optionOrder: drawn.optionOrder,
        answers: {},
        startedAt: new Date(now),
        deadlineAt: new Date(now + exam.settings.minutes * 60_000),
      })
      // A one-statement start elsewhere (which takes no lock of the person) inserted first: decide again, seeing it.
      .onConflictDoNothing()
      .returning();
    if (row) return { ok: true, attempt: toAttempt(row), resumed: false, changed };
  }
  // Lost every round (never seen: the round after a loss resumes the winner): PostgreSQL's word for "collided, run it again".
  throw Object.assign(new Error('the attempt start kept colliding with others'), { code: '40001' });
}

/**
 * The usual start in one statement, holding no connection between round trips: a new attempt numbered
 * after the person's others, inserted only while none is in progress, none passed and attempts are left.
 * Two simultaneous starts compute the same number, so the unique indexes (number; one in progress) let
 * only one in; `null` for everything else (resume, an overdue attempt to grade first, the reasons it
 * cannot start, the loser of such a race), which the locking transaction then decides.
 */
async function startPlainly(db: Db, exam: CourseExam, contactId: number, now: number, random: Random): Promise<Attempt | null> {
  const drawn = drawAttempt(exam.pool, exam.settings, random);
  const deadline = now + exam.settings.minutes * 60_000;
  const rows = await queryRows<{ id: number; attempt_number: number }>(db, sql`
    insert into exam_attempts (evaluation_id, contact_id, attempt_number, question_ids, option_order, answers, started_at, deadline_at)
    select ${exam.evaluationId}, ${contactId}, count(*) + 1, ${JSON.stringify(drawn.questionIds)}::jsonb, ${JSON.stringify(drawn.optionOrder)}::jsonb,
      '{}'::jsonb, ${new Date(now).toISOString()}::timestamptz, ${new Date(deadline).toISOString()}::timestamptz
    from exam_attempts where evaluation_id = ${exam.evaluationId} and contact_id = ${contactId}
    having count(*) < ${exam.settings.attempts} and coalesce(bool_and(submitted_at is not null), true) and not coalesce(bool_or(passed), false)
    on conflict do nothing
    returning id, attempt_number`);
  const row = rows[0];
  if (!row) return null;
  return { id: Number(row.id), number: Number(row.attempt_number), drawn, answers: {}, keys: {}, startedAt: now, deadline, gradedAt: null, score: null, passed: null };
}

/** One of the person's attempts at `exam`: its questions and whether it still takes answers (`null`: not theirs). */
export async function attemptOf(db: Db, exam: CourseExam, contactId: number, attemptId: number, now: number): Promise<{ questionIds: number[]; open: boolean } | null> {
  const [row] = await db
    .select({ questionIds: examAttempts.questionIds, submittedAt: examAttempts.submittedAt, deadlineAt: examAttempts.deadlineAt })
    .from(examAttempts)
    .where(and(eq(examAttempts.id, attemptId), eq(examAttempts.contactId, contactId), eq(examAttempts.evaluationId, exam.evaluationId)));
  if (!row) return null;
  return { questionIds: row.questionIds, open: row.submittedAt === null && answerWindow(row.deadlineAt.getTime(), now) !== 'closed' };
}

/** Why an answer was not saved. */
export type SaveError = 'not-found' | 'closed' | 'not-in-attempt' | AnswerError;

/**
 * Saves one answer of an attempt in progress (the person's own), replacing an earlier answer to the
 * same question. Refused once the deadline and its grace have passed, or once the attempt is graded.
 */
export async function saveAnswer(
  db: Db,
  exam: CourseExam,
  contactId: number,
  attemptId: number,
  questionId: number,
  raw: unknown,
  now: number,
): Promise<{ ok: true; answer: number[] } | { ok: false; error: SaveError }> {
  // The version the attempt drew, even if an edit has retired it since.
  const question = exam.versions.get(questionId);
  const normalized = question ? normalizeAnswer(question, raw) : null;
  // The usual case in one statement: the person's own attempt, still open, that asked this question.
  if (normalized?.ok && (await storeAnswer(db, exam, { contactId, attemptId, questionId, answer: normalized.answer, now }))) return { ok: true, answer: normalized.answer };
  // Refused (or the attempt closed meanwhile): read the attempt to say why, in the order the checks are documented.
  const [row] = await db
    .select({ questionIds: examAttempts.questionIds, submittedAt: examAttempts.submittedAt, deadlineAt: examAttempts.deadlineAt })
    .from(examAttempts)
    .where(and(eq(examAttempts.id, attemptId), eq(examAttempts.contactId, contactId), eq(examAttempts.evaluationId, exam.evaluationId)));
  if (!row) return { ok: false, error: 'not-found' };
  if (row.submittedAt !== null || answerWindow(row.deadlineAt.getTime(), now) === 'closed') return { ok: false, error: 'closed' };
  if (!row.questionIds.includes(questionId) || !question || !normalized) return { ok: false, error: 'not-in-attempt' };
  if (!normalized.ok) return normalized;
  // The checks pass now: the attempt took the answer in between (or closed just after); try once more.
  if (await storeAnswer(db, exam, { contactId, attemptId, questionId, answer: normalized.answer, now })) return { ok: true, answer: normalized.answer };
  return { ok: false, error: 'closed' };
}

/**
 * Merges one answer into the person's own attempt while it is open and asked that question, in one
 * statement (a grade in between wins). False when no attempt took it.
 */
async function storeAnswer(db: Db, exam: CourseExam, a: { contactId: number; attemptId: number; questionId: number; answer: number[]; now: number }): Promise<boolean> {
  const updated = await db
    .update(examAttempts)
    .set({ answers: sql`coalesce(${examAttempts.answers}, '{}'::jsonb) || ${JSON.stringify({ [a.questionId]: a.answer })}::jsonb` })
    .where(
      and(
        eq(examAttempts.id, a.attemptId),
        eq(examAttempts.contactId, a.contactId),
        eq(examAttempts.evaluationId, exam.evaluationId),
        isNull(examAttempts.submittedAt),
        sql`${examAttempts.deadlineAt} + ${`${GRACE_MS} milliseconds`}::interval >= ${new Date(a.now)}`,
        sql`${examAttempts.questionIds} @> ${JSON.stringify([a.questionId])}::jsonb`,
      ),
    )
    .returning({ id: examAttempts.id });
  return updated.length > 0;
}

/** A graded attempt: its grade against the pool, and the attempt as stored. */
export interface GradedAttempt {
  attempt: Attempt;
  grade: Grade;
}

/**
 * Grades an attempt with what it holds (the person's own; `null` for someone else's or an unknown id).
 * Idempotent: grading twice, or a submit racing the deadline's grading, stores one grade and answers
 * the stored one. `now` is when the learner submitted (or the server graded). The caller tells the
 * runtime {@link gradedChange}: of a pass, what the person may see (it completes the course, opening
 * the courses that require it), else their own pages ("my learning" shows the new status and best score).
 */
export async function submitAttempt(db: Db, exam: CourseExam, contactId: number, attemptId: number, now: number): Promise<GradedAttempt | null> {
  const graded = await gradeStored(db, exam, attemptId, now, contactId);
  return graded && { attempt: toAttempt(graded.row), grade: graded.grade };
}


/**
 * Grades one attempt of `exam` (only `contactId`'s when given: `null` for anyone else's) unless it is
 * graded already, and answers the stored row. The row is locked while it is graded: an answer being
 * saved at that moment waits, then finds the attempt closed, so the stored score is always the grade of
 * the stored answers.
 */
async function gradeStored(db: Db, exam: CourseExam, attemptId: number, now: number, contactId?: number): Promise<StoredGrade | null> {
  return retryConflicts(() => db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(examAttempts)
      .where(and(eq(examAttempts.id, attemptId), eq(examAttempts.evaluationId, exam.evaluationId), contactId === undefined ? undefined : eq(examAttempts.contactId, contactId)))
      .for('update');
    return row ? gradeRow(tx, exam, row, now) : null;
  }));
}

/** An attempt's grade and its row as stored; `gradedNow`: this call stored the grade (it was in progress). */
interface StoredGrade {
  row: AttemptRow;
  grade: Grade;
  gradedNow: boolean;
}

/** Grades an attempt row its caller has locked, unless it is graded already (then answers it as stored). */
async function gradeRow(tx: Tx, exam: CourseExam, row: AttemptRow, now: number): Promise<StoredGrade> {
  // The versions drawn (an edit since never changes them), with a regrade's keys once regraded.
  const grade = gradeAttempt(gradedQuestions(exam.versions, row.questionIds, row.gradedKeys), row.answers ?? {});
  if (row.submittedAt !== null) return { row, grade, gradedNow: false };
  // Graded no later than the deadline's grace, whenever the grading runs.
  const at = Math.max(Math.min(now, row.deadlineAt.getTime() + GRACE_MS), row.startedAt.getTime());
  const [updated] = await tx
    .update(examAttempts)
    .set({ submittedAt: new Date(at), score: grade.score, passed: passes(grade.score, exam.settings.minimumScore) })
    .where(eq(examAttempts.id, row.id))
    .returning();
  return { row: updated!, grade, gradedNow: true };
}

/**
 * Grades every attempt whose deadline and grace have passed, up to 500 per call (the scheduled job).
 * Returns the graded attempts' people and whether they passed.
 */
export async function gradeOverdue(db: Db, now: number): Promise<{ contactId: number; courseId: number; passed: boolean }[]> {
  const rows = await db
    .select({ id: examAttempts.id, contactId: examAttempts.contactId, courseId: evaluations.courseId })
    .from(examAttempts)
    .innerJoin(evaluations, eq(evaluations.id, examAttempts.evaluationId))
    .where(and(isNull(examAttempts.submittedAt), lt(examAttempts.deadlineAt, new Date(now - GRACE_MS))))
    .limit(500);
  const exams = new Map<number, CourseExam | null>();
  const graded: { contactId: number; courseId: number; passed: boolean }[] = [];
  for (const row of rows) {
    if (!exams.has(row.courseId)) exams.set(row.courseId, await loadExam(db, row.courseId));
    const exam = exams.get(row.courseId);
    if (!exam) continue;
    const stored = await gradeStored(db, exam, row.id, now);
    if (stored) graded.push({ contactId: row.contactId, courseId: row.courseId, passed: stored.row.passed === true });
  }
  return graded;
}

/** How often the server looks for attempts whose time is up (they are graded at most this long after their grace). */
export const EXAM_GRADING_INTERVAL_MS = 30_000;

/**
 * The scheduled grading of attempts whose deadline and grace have passed, once per interval across
 * every process; `onGraded` hears of each person graded (a passed exam completes a course).
 */
export function registerExamGrading(scheduler: Scheduler, db: Db, onGraded: (contactId: number) => void, intervalMs = EXAM_GRADING_INTERVAL_MS): void {
  scheduler.every('exam-grading', intervalMs, async ({ now }) => {
    for (const graded of await gradeOverdue(db, now.getTime())) onGraded(graded.contactId);
  });
}
