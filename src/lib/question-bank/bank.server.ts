/**
 * A course's question bank as editors change it: the banks listed, one bank read, the exam settings
 * saved, questions added, edited, retired and imported. Every write locks the course's evaluation row
 * (bank writes of one course take turns), writes the audit trail in its transaction and returns what
 * changed: the course's exam, which every process forgets with its kept pages.
 *
 * A question an attempt drew is never changed: an edit writes a new version (`replacesId`) and retires
 * the old one, which the attempts that drew it keep being shown and graded with. A question no attempt
 * drew yet is changed in place (or deleted when retired).
 */
import { and, asc, count, eq, isNull, max, sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client';
import { courses, evaluations, questionOptions, questions } from '../db/schema';
import { recordAudit, userRef } from '../privacy/audit.server';
import { examChange, type Change } from '../runtime/changes';
import { keyPositions } from '../exams/keys';
import type { ExamQuestion } from '../exams/exams';
import { BANK_LIMITS, NEW_EXAM_SETTINGS, draftChangesKey, sameQuestion, type QuestionDraft, type SettingsForm, type ValidDraft } from './question-bank';
import { pendingRegrades } from './regrade.server';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** A course with an exam, as the list of banks shows it. */
export interface BankSummary {
  courseId: number;
  nameEs: string;
  nameEn: string;
  /** Questions in the pool. */
  size: number;
  /** Questions drawn per attempt, as set (an attempt draws at most the pool's size). */
  drawn: number;
}

/** Every course with an exam (test courses included: editors prepare them too), by name. */
export async function listBanks(db: Db): Promise<BankSummary[]> {
  const rows = await db
    .select({ courseId: courses.id, nameEs: courses.nameEs, nameEn: courses.nameEn, drawn: evaluations.questionCount, size: count(questions.id) })
    .from(evaluations)
    .innerJoin(courses, eq(courses.id, evaluations.courseId))
    .leftJoin(questions, and(eq(questions.evaluationId, evaluations.id), isNull(questions.retiredAt)))
    .groupBy(courses.id, evaluations.id)
    .orderBy(asc(courses.id));
  return rows.map((r) => ({ ...r, size: Number(r.size) }));
}

/** A question of the pool as the bank page lists it. */
export interface BankQuestion extends ExamQuestion {
  explanationEs: string;
  explanationEn: string;
  /** 1-based place in the bank's list. */
  n: number;
  /** Some attempt drew this version: an edit saves a new version. */
  drawn: boolean;
}

/** One course's bank. */
export interface Bank {
  courseId: number;
  /** Null until the bank gets its first question (the course has no exam yet). */
  evaluationId: number | null;
  nameEs: string;
  nameEn: string;
  settings: { attempts: number; questions: number; minutes: number; minimumScore: number };
  questions: BankQuestion[];
  /** Graded attempts whose questions were given a new key since (a regrade would score them again). */
  regradable: number;
}

/** The evaluation of a course, or `null`. */
async function evaluationOf(db: Db | Tx, courseId: number, lock = false) {
  if (!Number.isSafeInteger(courseId) || courseId <= 0 || courseId > 2_147_483_647) return null;
  const query = db.select().from(evaluations).where(eq(evaluations.courseId, courseId));
  const [row] = lock ? await query.for('update') : await query;
  return row ?? null;
}

/** Whether course `courseId` exists (locked, when `lock`: its exam is being made). */
async function courseExists(db: Db | Tx, courseId: number, lock = false): Promise<boolean> {
  if (!Number.isSafeInteger(courseId) || courseId <= 0 || courseId > 2_147_483_647) return false;
  const query = db.select({ id: courses.id }).from(courses).where(eq(courses.id, courseId));
  return (lock ? await query.for('update') : await query).length > 0;
}

/**
 * The evaluation a bank write adds questions to, locked: the course's, or a new one with the first
 * exam's settings when the course has none yet (audited); `null` when there is no such course.
 */
async function evaluationToFill(tx: Tx, actorId: number, courseId: number, now: Date) {
  const found = await evaluationOf(tx, courseId, true);
  if (found || !(await courseExists(tx, courseId, true))) return found;
  const s = NEW_EXAM_SETTINGS;
  await tx.insert(evaluations).values({ courseId, minutes: s.minutes, questionCount: s.questions, passingScore: s.minimumScore, maxAttempts: s.attempts }).onConflictDoNothing();
  await recordAudit(tx, { action: 'questions.exam.created', actor: userRef(actorId), subject: courseRef(courseId), after: { ...s }, at: now });
  return evaluationOf(tx, courseId, true);
}

/** The ids of an evaluation's questions that some attempt drew, or was regraded with (both are kept as they are). */
async function drawnIds(db: Db | Tx, evaluationId: number): Promise<Set<number>> {
  const rows = await queryRows<{ id: number }>(
    db as Db,
    sql`select (x)::int as id from exam_attempts a, jsonb_array_elements(a.question_ids) x where a.evaluation_id = ${evaluationId}
      union select (k.value)::int from exam_attempts a, jsonb_each_text(coalesce(a.graded_keys, '{}'::jsonb)) k where a.evaluation_id = ${evaluationId}`,
  );
  return new Set(rows.map((r) => Number(r.id)));
}

/** The questions of an evaluation's pool (not retired), in bank order, with their options. */
async function poolOf(db: Db | Tx, evaluationId: number): Promise<(ExamQuestion & { explanationEs: string; explanationEn: string; position: number })[]> {
  const rows = await db
    .select({ q: questions, o: questionOptions })
    .from(questions)
    .innerJoin(questionOptions, eq(questionOptions.questionId, questions.id))
    .where(and(eq(questions.evaluationId, evaluationId), isNull(questions.retiredAt)))
    .orderBy(asc(questions.position), asc(questionOptions.position));
  const byId = new Map<number, ExamQuestion & { explanationEs: string; explanationEn: string; position: number; options: ExamQuestion['options'][number][] }>();
  for (const { q, o } of rows) {
    const question = byId.get(q.id) ?? { id: q.id, kind: q.kind, promptEs: q.promptEs, promptEn: q.promptEn, explanationEs: q.explanationEs, explanationEn: q.explanationEn, position: q.position, options: [] };
    question.options.push({ id: o.id, textEs: o.textEs, textEn: o.textEn, correct: o.isCorrect });
    byId.set(q.id, question);
  }
  return [...byId.values()];
}

/** A course's bank (empty, with the first exam's settings, while the course has no exam yet), or `null` when there is no such course. */
export async function loadBank(db: Db, courseId: number): Promise<Bank | null> {
  const evaluation = await evaluationOf(db, courseId);
  if (!evaluation) return emptyBank(db, courseId);
  const [[course], pool, drawn, regradable] = await Promise.all([
    db.select({ nameEs: courses.nameEs, nameEn: courses.nameEn }).from(courses).where(eq(courses.id, courseId)),
    poolOf(db, evaluation.id),
    drawnIds(db, evaluation.id),
    pendingRegrades(db, courseId),
  ]);
  return {
    courseId,
    evaluationId: evaluation.id,
    nameEs: course?.nameEs ?? '',
    nameEn: course?.nameEn ?? '',
    settings: { attempts: evaluation.maxAttempts, questions: evaluation.questionCount, minutes: evaluation.minutes, minimumScore: evaluation.passingScore },
    questions: pool.map(({ position: _position, ...q }, i) => ({ ...q, n: i + 1, drawn: drawn.has(q.id) })),
    regradable: regradable.length,
  };
}

/** The bank of a course without an exam yet (none when there is no such course): empty, with the first exam's settings. */
async function emptyBank(db: Db, courseId: number): Promise<Bank | null> {
  if (!(await courseExists(db, courseId))) return null;
  const [course] = await db.select({ nameEs: courses.nameEs, nameEn: courses.nameEn }).from(courses).where(eq(courses.id, courseId));
  return { courseId, evaluationId: null, nameEs: course?.nameEs ?? '', nameEn: course?.nameEn ?? '', settings: { ...NEW_EXAM_SETTINGS }, questions: [], regradable: 0 };
}

/** A course's bank as drafts (the CSV export), or `null` when the course has no exam. */
export async function exportBank(db: Db, courseId: number): Promise<QuestionDraft[] | null> {
  const evaluation = await evaluationOf(db, courseId);
  if (!evaluation) return null;
  return (await poolOf(db, evaluation.id)).map((q) => ({
    kind: q.kind,
    promptEs: q.promptEs,
    promptEn: q.promptEn,
    explanationEs: q.explanationEs,
    explanationEn: q.explanationEn,
    options: q.options.map((o) => ({ textEs: o.textEs, textEn: o.textEn, correct: o.correct })),
  }));
}

/* ───────────── writes ───────────── */

/** What every write of a bank answers besides its own facts. */
type Written<T> = ({ status: 'ok'; changed: Change[] } & T) | { status: 'not-found' };

const courseRef = (courseId: number) => `course:${courseId}`;
const questionRef = (id: number) => `question:${id}`;
/** A question in the audit trail: facts, never the texts. */
const facts = (d: Pick<QuestionDraft, 'kind' | 'options'>) => ({ kind: d.kind, options: d.options.length, right: keyPositions(d).map((p) => p + 1) });

/** Saves a course's exam settings; the questions drawn may not exceed the bank's size (`tooMany` with the size). */
export function saveSettings(db: Db, actorId: number, form: SettingsForm, now = new Date()): Promise<Written<object> | { status: 'tooMany'; size: number }> {
  return db.transaction(async (tx) => {
    const evaluation = await evaluationOf(tx, form.course, true);
    // A course without an exam has no questions to draw yet.
    if (!evaluation) return (await courseExists(tx, form.course)) ? ({ status: 'tooMany', size: 0 } as const) : ({ status: 'not-found' } as const);
    const [row] = await tx.select({ n: count() }).from(questions).where(and(eq(questions.evaluationId, evaluation.id), isNull(questions.retiredAt)));
    const size = Number(row?.n ?? 0);
    if (form.questions > size) return { status: 'tooMany', size } as const;
    const before = { attempts: evaluation.maxAttempts, questions: evaluation.questionCount, minutes: evaluation.minutes, minimumScore: evaluation.passingScore };
    const after = { attempts: form.attempts, questions: form.questions, minutes: form.minutes, minimumScore: form.minimumScore };
    await tx.update(evaluations).set({ maxAttempts: after.attempts, questionCount: after.questions, minutes: after.minutes, passingScore: after.minimumScore }).where(eq(evaluations.id, evaluation.id));
    await recordAudit(tx, { action: 'questions.settings.saved', actor: userRef(actorId), subject: courseRef(form.course), before, after, at: now });
    return { status: 'ok', changed: [examChange(form.course)] } as const;
  });
}

/** Writes a question's options (positions 1 …). */
async function insertOptions(tx: Tx, questionId: number, draft: QuestionDraft): Promise<void> {
  await tx.insert(questionOptions).values(draft.options.map((o, i) => ({ questionId, textEs: o.textEs, textEn: o.textEn, isCorrect: o.correct, position: i + 1 })));
}

/** Inserts a question at the end of the pool (`replacesId`: the version it replaces, at that one's position). */
async function insertQuestion(tx: Tx, evaluationId: number, draft: ValidDraft, position: number, replacesId: number | null = null): Promise<number> {
  const [row] = await tx
    .insert(questions)
    .values({ evaluationId, kind: draft.kind, promptEs: draft.promptEs, promptEn: draft.promptEn, explanationEs: draft.explanationEs, explanationEn: draft.explanationEn, position, replacesId })
    .returning({ id: questions.id });
  await insertOptions(tx, row!.id, draft);
  return row!.id;
}

/** The pool's size and the next free position. */
async function poolSlots(tx: Tx, evaluationId: number): Promise<{ size: number; next: number }> {
  const [row] = await tx.select({ n: count(), last: max(questions.position) }).from(questions).where(and(eq(questions.evaluationId, evaluationId), isNull(questions.retiredAt)));
  return { size: Number(row?.n ?? 0), next: Number(row?.last ?? 0) + 1 };
}

/** Adds a question to a course's bank. */
export function addQuestion(db: Db, actorId: number, courseId: number, draft: ValidDraft, now = new Date()): Promise<Written<{ id: number }> | { status: 'full' }> {
  return db.transaction(async (tx) => {
    const evaluation = await evaluationToFill(tx, actorId, courseId, now);
    if (!evaluation) return { status: 'not-found' } as const;
    const slots = await poolSlots(tx, evaluation.id);
    if (slots.size >= BANK_LIMITS.questions) return { status: 'full' } as const;
    const id = await insertQuestion(tx, evaluation.id, draft, slots.next);
    await recordAudit(tx, { action: 'questions.question.added', actor: userRef(actorId), subject: questionRef(id), after: { course: courseId, ...facts(draft) }, at: now });
    return { status: 'ok', id, changed: [examChange(courseId)] } as const;
  });
}

/** The pool's question `questionId` of the evaluation, locked, or `null`. */
async function poolQuestion(tx: Tx, evaluationId: number, questionId: number) {
  if (!Number.isSafeInteger(questionId) || questionId <= 0 || questionId > 2_147_483_647) return null;
  const [row] = await tx
    .select()
    .from(questions)
    .where(and(eq(questions.id, questionId), eq(questions.evaluationId, evaluationId), isNull(questions.retiredAt)))
    .for('update');
  if (!row) return null;
  const options = await tx.select().from(questionOptions).where(eq(questionOptions.questionId, row.id)).orderBy(asc(questionOptions.position));
  return { ...row, options: options.map((o) => ({ id: o.id, textEs: o.textEs, textEn: o.textEn, correct: o.isCorrect })) };
}

/** How an edit was saved: in place (never drawn), as a new version (drawn), or not at all (nothing changed). */
export type EditMode = 'in-place' | 'version' | 'unchanged';

/**
 * Edits a question of the pool. `keyChanged`: its right options (by position) changed, and `regradable`
 * counts the graded attempts of the course that a regrade would now score again.
 */
export function editQuestion(db: Db, actorId: number, courseId: number, questionId: number, draft: ValidDraft, now = new Date()): Promise<Written<{ id: number; mode: EditMode; keyChanged: boolean; regradable: number }>> {
  return db.transaction(async (tx) => {
    const evaluation = await evaluationOf(tx, courseId, true);
    if (!evaluation) return { status: 'not-found' } as const;
    const old = await poolQuestion(tx, evaluation.id, questionId);
    if (!old) return { status: 'not-found' } as const;
    if (sameQuestion(old, draft)) return { status: 'ok', id: old.id, mode: 'unchanged', keyChanged: false, regradable: 0, changed: [] } as const;
    const keyChanged = draftChangesKey(old, draft);
    const drawn = (await drawnIds(tx, evaluation.id)).has(old.id);
    let id = old.id;
    if (drawn) {
      // The drawn version stays as it is, out of the pool; the new one takes its place.
      await tx.update(questions).set({ retiredAt: now }).where(eq(questions.id, old.id));
      id = await insertQuestion(tx, evaluation.id, draft, old.position, old.id);
    } else {
      await tx
        .update(questions)
        .set({ kind: draft.kind, promptEs: draft.promptEs, promptEn: draft.promptEn, explanationEs: draft.explanationEs, explanationEn: draft.explanationEn })
        .where(eq(questions.id, old.id));
      await tx.delete(questionOptions).where(eq(questionOptions.questionId, old.id));
      await insertOptions(tx, old.id, draft);
    }
    const mode: EditMode = drawn ? 'version' : 'in-place';
    await recordAudit(tx, { action: 'questions.question.edited', actor: userRef(actorId), subject: questionRef(old.id), before: { course: courseId, ...facts(old) }, after: { course: courseId, ...facts(draft), mode, version: id }, at: now });
    const regradable = keyChanged && drawn ? (await pendingRegrades(tx, courseId)).length : 0;
    return { status: 'ok', id, mode, keyChanged, regradable, changed: [examChange(courseId)] } as const;
  });
}

/** Takes a question out of the pool: retired (kept for the attempts that drew it) or, never drawn, deleted. */
export function retireQuestion(db: Db, actorId: number, courseId: number, questionId: number, now = new Date()): Promise<Written<{ mode: 'retired' | 'deleted' }>> {
  return db.transaction(async (tx) => {
    const evaluation = await evaluationOf(tx, courseId, true);
    if (!evaluation) return { status: 'not-found' } as const;
    const old = await poolQuestion(tx, evaluation.id, questionId);
    if (!old) return { status: 'not-found' } as const;
    const drawn = (await drawnIds(tx, evaluation.id)).has(old.id);
    if (drawn) await tx.update(questions).set({ retiredAt: now }).where(eq(questions.id, old.id));
    else await tx.delete(questions).where(eq(questions.id, old.id));
    const mode = drawn ? 'retired' : 'deleted';
    await recordAudit(tx, { action: 'questions.question.retired', actor: userRef(actorId), subject: questionRef(old.id), before: { course: courseId, ...facts(old) }, after: { mode }, at: now });
    return { status: 'ok', mode, changed: [examChange(courseId)] } as const;
  });
}

/**
 * Imports questions (all checked already): added after the pool's, or, with `replace`, instead of it
 * (the pool's questions retired, or deleted when never drawn). All or nothing, in one transaction.
 */
export function importQuestions(db: Db, actorId: number, courseId: number, drafts: readonly ValidDraft[], replace: boolean, now = new Date()): Promise<Written<{ count: number }> | { status: 'full' }> {
  // Refused before anything is written (the course's exam included): a transaction that answers commits what it wrote.
  if (drafts.length > BANK_LIMITS.questions) return Promise.resolve({ status: 'full' } as const);
  return db.transaction(async (tx) => {
    const evaluation = await evaluationToFill(tx, actorId, courseId, now);
    if (!evaluation) return { status: 'not-found' } as const;
    const before = await poolSlots(tx, evaluation.id);
    // Refused before anything is written: a transaction that answers commits what it wrote.
    if ((replace ? 0 : before.size) + drafts.length > BANK_LIMITS.questions) return { status: 'full' } as const;
    if (replace) {
      const drawn = await drawnIds(tx, evaluation.id);
      const pool = await tx.select({ id: questions.id }).from(questions).where(and(eq(questions.evaluationId, evaluation.id), isNull(questions.retiredAt)));
      for (const { id } of pool) {
        if (drawn.has(id)) await tx.update(questions).set({ retiredAt: now }).where(eq(questions.id, id));
        else await tx.delete(questions).where(eq(questions.id, id));
      }
    }
    const slots = replace ? await poolSlots(tx, evaluation.id) : before;
    for (const [i, draft] of drafts.entries()) await insertQuestion(tx, evaluation.id, draft, slots.next + i);
    await recordAudit(tx, { action: 'questions.imported', actor: userRef(actorId), subject: courseRef(courseId), before: { questions: before.size }, after: { questions: slots.size + drafts.length, imported: drafts.length, replaced: replace }, at: now });
    return { status: 'ok', count: drafts.length, changed: [examChange(courseId)] } as const;
  });
}
