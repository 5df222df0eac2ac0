/**
 * Regrading: when an edit gave a drawn question a new key, the graded attempts that used an older
 * version are scored again with the newest version's key (options matched by position), pass or fail
 * recomputed against the exam's minimum, and certificates follow: a person who no longer passes has
 * their certificate revoked; one who passes again gets back a certificate a regrade had revoked (a
 * person passing for the first time generates theirs as after any pass).
 *
 * One transaction: the attempts are locked, rescored, and the audit trail written together, so a crash
 * leaves all or nothing. Idempotent: each attempt remembers the versions it was scored with
 * (`gradedKeys`), and an attempt already scored with the newest keys is not pending.
 */
import { and, desc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { auditEvents, certificates, evaluations, examAttempts, questions } from '../db/schema';
import { recordAudit, userRef } from '../privacy/audit.server';
import { examChange, pagesChange, personChange, type Change } from '../runtime/changes';
import { gradeAttempt, gradedQuestions, keyChanged, passed as passes, type ExamQuestion } from '../exams/exams';
import { loadExam, type CourseExam } from '../exams/exam-source.server';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
type AttemptRow = typeof examAttempts.$inferSelect;

/** The newest version of each question of an evaluation (a question never replaced is its own newest). */
async function newestVersions(db: Db | Tx, evaluationId: number): Promise<Map<number, number>> {
  const rows = await db.select({ id: questions.id, replacesId: questions.replacesId }).from(questions).where(eq(questions.evaluationId, evaluationId));
  const successor = new Map<number, number>();
  for (const r of rows) if (r.replacesId !== null) successor.set(r.replacesId, r.id);
  const newest = new Map<number, number>();
  for (const r of rows) {
    let id = r.id;
    // A chain of edits (bounded: ids only grow along it, and each has one successor).
    for (let hops = 0; successor.has(id) && hops < rows.length; hops++) id = successor.get(id)!;
    newest.set(r.id, id);
  }
  return newest;
}

/** The keys an attempt would be scored with now: each drawn question's newest version (only those replaced). */
function newestKeys(row: Pick<AttemptRow, 'questionIds'>, newest: ReadonlyMap<number, number>): Record<string, number> {
  const keys: Record<string, number> = {};
  for (const id of row.questionIds) {
    const n = newest.get(id);
    if (n !== undefined && n !== id) keys[String(id)] = n;
  }
  return keys;
}

/** True when scoring the attempt with `keys` could change it: some drawn question's key differs from the one it was scored with. */
function pending(row: Pick<AttemptRow, 'questionIds' | 'gradedKeys'>, keys: Record<string, number>, versions: ReadonlyMap<number, ExamQuestion>): boolean {
  return row.questionIds.some((id) => {
    const was = versions.get(row.gradedKeys?.[String(id)] ?? id);
    const now = versions.get(keys[String(id)] ?? id);
    return was !== undefined && now !== undefined && keyChanged(was, now);
  });
}

/** The graded attempts of an evaluation that drew a question replaced since (locked when `lock`). */
async function candidates(db: Db | Tx, evaluationId: number, newest: ReadonlyMap<number, number>, lock: boolean): Promise<AttemptRow[]> {
  const replaced = [...newest].filter(([id, n]) => id !== n).map(([id]) => id);
  if (replaced.length === 0) return [];
  const query = db
    .select()
    .from(examAttempts)
    .where(
      and(
        eq(examAttempts.evaluationId, evaluationId),
        isNotNull(examAttempts.submittedAt),
        sql`exists (select 1 from jsonb_array_elements(${examAttempts.questionIds}) x where (x)::int in (${sql.join(
          replaced.map((id) => sql`${id}`),
          sql`, `,
        )}))`,
      ),
    )
    .orderBy(examAttempts.id);
  return lock ? query.for('update') : query;
}

/** The exam, its newest versions and the graded attempts a regrade would score again. */
async function regradeWork(db: Db | Tx, courseId: number, lock: boolean): Promise<{ exam: CourseExam; rows: { row: AttemptRow; keys: Record<string, number> }[] } | null> {
  const exam = await loadExam(db, courseId);
  if (!exam) return null;
  const newest = await newestVersions(db, exam.evaluationId);
  const rows = (await candidates(db, exam.evaluationId, newest, lock)).map((row) => ({ row, keys: newestKeys(row, newest) })).filter((c) => pending(c.row, c.keys, exam.versions));
  return { exam, rows };
}

/** The graded attempts of a course's exam that a regrade would score again (their ids). */
export async function pendingRegrades(db: Db | Tx, courseId: number): Promise<number[]> {
  const work = await regradeWork(db, courseId, false);
  return work?.rows.map((c) => c.row.id) ?? [];
}

/** What a regrade did. */
export interface RegradeOutcome {
  status: 'ok';
  /** Attempts scored again. */
  attempts: number;
  /** Of those, attempts whose score or pass changed. */
  changedScores: number;
  /** People who pass now and did not, and who no longer pass. */
  nowPassing: number;
  noLongerPassing: number;
  /** Certificates revoked and given back. */
  revoked: number;
  restored: number;
  changed: Change[];
}

/** Whether each of `contactIds` has a passed attempt at the evaluation. */
async function passing(tx: Tx, evaluationId: number, contactIds: number[]): Promise<Set<number>> {
  if (contactIds.length === 0) return new Set();
  const rows = await tx
    .selectDistinct({ contactId: examAttempts.contactId })
    .from(examAttempts)
    .where(and(eq(examAttempts.evaluationId, evaluationId), inArray(examAttempts.contactId, contactIds), eq(examAttempts.passed, true)));
  return new Set(rows.map((r) => r.contactId));
}

const REVOKED_BY_REGRADE = 'questions.regrade.certificate.revoked';

/**
 * Regrades the course's pending attempts (see the top of this file); `not-found` for a course without
 * an exam. Running it again finds nothing pending and changes nothing. `step` is told each point it
 * reaches (`attempt-rescored`, `certificates-settled`, `committed`): the fault tests stop the process there.
 */
export async function regradeCourse(db: Db, actorId: number, courseId: number, now = new Date(), step: (name: string) => void | Promise<void> = () => undefined): Promise<RegradeOutcome | { status: 'not-found' }> {
  const outcome = await db.transaction(async (tx) => {
    // Bank writes of the course wait: the keys read here stay the newest until the regrade commits.
    const [evaluation] = await tx.select({ id: evaluations.id }).from(evaluations).where(eq(evaluations.courseId, courseId)).for('update');
    if (!evaluation) return { status: 'not-found' } as const;
    const work = await regradeWork(tx, courseId, true);
    if (!work) return { status: 'not-found' } as const;
    const { exam, rows } = work;
    const contactIds = [...new Set(rows.map((c) => c.row.contactId))];
    const passedBefore = await passing(tx, exam.evaluationId, contactIds);
    const before: { attempt: number; score: number | null; passed: boolean | null }[] = [];
    const after: typeof before = [];
    const scoreChanged = new Set<number>();
    let changedScores = 0;
    for (const { row, keys } of rows) {
      const grade = gradeAttempt(gradedQuestions(exam.versions, row.questionIds, keys), row.answers ?? {});
      const passedNow = passes(grade.score, exam.settings.minimumScore);
      await tx.update(examAttempts).set({ score: grade.score, passed: passedNow, gradedKeys: keys }).where(eq(examAttempts.id, row.id));
      before.push({ attempt: row.id, score: row.score, passed: row.passed });
      after.push({ attempt: row.id, score: grade.score, passed: passedNow });
      await step('attempt-rescored');
      if (grade.score !== row.score || passedNow !== row.passed) {
        changedScores++;
        scoreChanged.add(row.contactId);
      }
    }
    const passedAfter = await passing(tx, exam.evaluationId, contactIds);
    const nowPassing = contactIds.filter((c) => passedAfter.has(c) && !passedBefore.has(c));
    const noLongerPassing = contactIds.filter((c) => passedBefore.has(c) && !passedAfter.has(c));
    let revoked = 0;
    let restored = 0;
    for (const contactId of noLongerPassing) {
      const gone = await tx
        .update(certificates)
        .set({ revokedAt: now })
        .where(and(eq(certificates.contactId, contactId), eq(certificates.courseId, courseId), isNull(certificates.revokedAt)))
        .returning({ id: certificates.id });
      for (const c of gone) await recordAudit(tx, { action: REVOKED_BY_REGRADE, actor: userRef(actorId), subject: `certificate:${c.id}`, before: { revoked: false }, after: { revoked: true, course: courseId }, at: now });
      revoked += gone.length;
    }
    for (const contactId of nowPassing) {
      const [certificate] = await tx.select({ id: certificates.id, revokedAt: certificates.revokedAt }).from(certificates).where(and(eq(certificates.contactId, contactId), eq(certificates.courseId, courseId)));
      if (!certificate?.revokedAt) continue;
      // Given back only when the last word on it was a regrade's revocation (never one made for another reason).
      const [last] = await tx.select({ action: auditEvents.action }).from(auditEvents).where(eq(auditEvents.subject, `certificate:${certificate.id}`)).orderBy(desc(auditEvents.at), desc(auditEvents.id)).limit(1);
      if (last?.action !== REVOKED_BY_REGRADE) continue;
      await tx.update(certificates).set({ revokedAt: null }).where(eq(certificates.id, certificate.id));
      await recordAudit(tx, { action: 'questions.regrade.certificate.restored', actor: userRef(actorId), subject: `certificate:${certificate.id}`, before: { revoked: true }, after: { revoked: false, course: courseId }, at: now });
      restored++;
    }
    await step('certificates-settled');
    const counts = { attempts: rows.length, changedScores, nowPassing: nowPassing.length, noLongerPassing: noLongerPassing.length, revoked, restored };
    if (rows.length > 0) {
      // The trail keeps attempt ids and scores (at most 500 of each; the counts are always whole).
      await recordAudit(tx, { action: 'questions.regraded', actor: userRef(actorId), subject: `course:${courseId}`, before: { attempts: before.slice(0, 500) }, after: { attempts: after.slice(0, 500), counts }, at: now });
    }
    const flipped = new Set([...nowPassing, ...noLongerPassing]);
    // Pass or fail changed what the person may see (the course completed, the next one open); a score only their pages.
    const changed: Change[] = rows.length === 0 ? [] : [examChange(courseId), ...[...flipped].map((contactId) => personChange({ contactId })), ...[...scoreChanged].filter((c) => !flipped.has(c)).map((c) => pagesChange(c))];
    return { status: 'ok', ...counts, changed } as const;
  });
  await step('committed');
  return outcome;
}
