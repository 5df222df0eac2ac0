/**
 * Question banks on the database (PGlite): an attempt in progress keeps the version it drew through an
 * edit, an undrawn question is edited in place, settings never draw more than the bank holds, imports
 * are all or nothing, and a regrade after a key fix flips pass or fail and the certificate, once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, isNull } from 'drizzle-orm';
import { testDatabases } from '../db/testing';
import type { DbHandle } from '../db/client';
import { auditEvents, certificates, contacts, examAttempts, questions, users } from '../db/schema';
import { correctOptions, type ExamQuestion } from '../exams/exams';
import { loadExam } from '../exams/exam-source.server';
import { examStanding, saveAnswer, startAttempt, submitAttempt } from '../exams/exams.server';
import { examChange, personChange, tellChanges } from '../runtime/changes';
import { testRuntime } from '../testing/runtime';
import { addQuestion, editQuestion, exportBank, importQuestions, loadBank, listBanks, retireQuestion, saveSettings } from './bank.server';
import { pendingRegrades, regradeCourse } from './regrade.server';
import { bankToCsv, readBankCsv } from './bank-csv';
import { NEW_EXAM_SETTINGS, type QuestionDraft, type ValidDraft } from './question-bank';
import { createCourse } from '../authoring';
import { auditOf } from '../privacy/audit.server';

const pglite = (await testDatabases()).find((d) => d.name === 'pglite')!;
const EDITOR = 424242;

/** A stored question as a draft, with `right` (0-based positions) as its key when given. */
function draftOf(q: ExamQuestion, right?: number[]): ValidDraft {
  return {
    kind: q.kind,
    promptEs: q.promptEs,
    promptEn: q.promptEn,
    explanationEs: q.explanationEs ?? '',
    explanationEn: q.explanationEn ?? '',
    options: q.options.map((o, i) => ({ textEs: o.textEs, textEn: o.textEn, correct: right ? right.includes(i) : o.correct })),
  };
}

/** A single-choice key moved to another option. */
const otherKey = (q: ExamQuestion) => {
  const now = q.options.findIndex((o) => o.correct);
  return [(now + 1) % q.options.length];
};

describe('question banks', () => {
  let handle: DbHandle;
  const contactOf = async (email: string) => (await handle.db.select({ id: contacts.id }).from(contacts).innerJoin(users, eq(users.id, contacts.userId)).where(eq(users.email, email)))[0]!.id;

  beforeAll(async () => {
    handle = await pglite.create({ seed: true });
  });
  afterAll(async () => {
    await handle?.close();
  });

  it('lists every course with an exam and the size of its bank', async () => {
    const banks = await listBanks(handle.db);
    const exam = (await loadExam(handle.db, 1))!;
    expect(banks.find((b) => b.courseId === 1)).toMatchObject({ size: exam.pool.length });
  });

  it('an attempt in progress survives an edit of a question it drew: it is shown and graded with the version it drew', async () => {
    const learner = await contactOf('learner@academia.example');
    const exam = (await loadExam(handle.db, 1))!;
    const now = Date.now();
    const started = await startAttempt(handle.db, exam, learner, now);
    if (!started.ok) throw new Error(started.error);
    const drawnId = started.attempt.drawn.questionIds[0]!;
    const drawn = exam.versions.get(drawnId)!;

    // The editor moves the drawn question's key (and rewords it): a new version, the drawn one retired.
    const edited = await editQuestion(handle.db, EDITOR, 1, drawnId, { ...draftOf(drawn, otherKey(drawn)), promptEn: `${drawn.promptEn} (reworded)` });
    expect(edited).toMatchObject({ status: 'ok', mode: 'version', keyChanged: true });
    if (edited.status !== 'ok') throw new Error('not edited');
    expect(edited.changed).toEqual([examChange(1)]);
    const after = (await loadExam(handle.db, 1))!;
    expect(after.pool.map((q) => q.id)).not.toContain(drawnId);
    expect(after.pool.map((q) => q.id)).toContain(edited.id);
    expect(after.versions.get(drawnId)!.promptEn).toBe(drawn.promptEn);

    // The learner answers every drawn question with the drawn version's key, then submits: all right.
    for (const id of started.attempt.drawn.questionIds) {
      const saved = await saveAnswer(handle.db, after, learner, started.attempt.id, id, correctOptions(after.versions.get(id)!), now + 1000);
      expect(saved.ok).toBe(true);
    }
    const graded = await submitAttempt(handle.db, after, learner, started.attempt.id, now + 2000);
    expect(graded!.grade.score).toBe(100);
    // Graded against the old key, so a regrade is offered for it.
    expect(await pendingRegrades(handle.db, 1)).toContain(started.attempt.id);
    const { standing } = await examStanding(handle.db, after, learner, now + 3000);
    expect(standing.attempts[0]!.drawn.questionIds).toContain(drawnId);
  });

  it('edits a question no attempt drew in place, and retires or deletes as drawn or not', async () => {
    const added = await addQuestion(handle.db, EDITOR, 1, {
      kind: 'multiple',
      promptEs: '¿Cuáles son colores?',
      promptEn: 'Which are colours?',
      explanationEs: 'Rojo y azul lo son.',
      explanationEn: 'Red and blue are.',
      options: [
        { textEs: 'Rojo', textEn: 'Red', correct: true },
        { textEs: 'Mesa', textEn: 'Table', correct: false },
        { textEs: 'Azul', textEn: 'Blue', correct: true },
      ],
    });
    if (added.status !== 'ok') throw new Error(added.status);
    const bank = (await loadBank(handle.db, 1))!;
    const row = bank.questions.find((q) => q.id === added.id)!;
    expect(row).toMatchObject({ drawn: false, explanationEn: 'Red and blue are.' });
    const inPlace = await editQuestion(handle.db, EDITOR, 1, added.id, { ...draftOf(row), promptEn: 'Which ones are colours?' });
    expect(inPlace).toMatchObject({ status: 'ok', mode: 'in-place', id: added.id });
    expect(await editQuestion(handle.db, EDITOR, 1, added.id, { ...draftOf(row), promptEn: 'Which ones are colours?' })).toMatchObject({ mode: 'unchanged', changed: [] });
    // Another course's id, or a retired version: not found, nothing written.
    expect(await editQuestion(handle.db, EDITOR, 2, added.id, draftOf(row))).toEqual({ status: 'not-found' });
    expect(await retireQuestion(handle.db, EDITOR, 1, added.id)).toMatchObject({ status: 'ok', mode: 'deleted' });
    expect(await handle.db.select().from(questions).where(eq(questions.id, added.id))).toEqual([]);
    const audit = await handle.db.select().from(auditEvents).where(eq(auditEvents.subject, `question:${added.id}`));
    expect(audit.map((e) => e.action).sort()).toEqual(['questions.question.added', 'questions.question.edited', 'questions.question.retired']);
  });

  it('never draws more questions than the bank holds', async () => {
    const bank = (await loadBank(handle.db, 1))!;
    const form = { course: 1, attempts: 4, questions: bank.questions.length + 1, minutes: 30, minimumScore: 0, lang: 'es' as const };
    expect(await saveSettings(handle.db, EDITOR, form)).toEqual({ status: 'tooMany', size: bank.questions.length });
    expect(await saveSettings(handle.db, EDITOR, { ...form, questions: bank.questions.length })).toMatchObject({ status: 'ok' });
    expect((await loadExam(handle.db, 1))!.settings).toEqual({ attempts: 4, questions: bank.questions.length, minutes: 30, minimumScore: 0 });
    expect(await saveSettings(handle.db, EDITOR, { ...form, course: 999_999 })).toEqual({ status: 'not-found' });
  });

  it('exports a bank as CSV that imports back to the same questions, all or nothing', async () => {
    const before = (await exportBank(handle.db, 3))!;
    const read = readBankCsv(new TextEncoder().encode(bankToCsv(before)));
    if (!read.ok) throw new Error(JSON.stringify(read));
    expect(read.questions).toEqual(before);
    const replaced = await importQuestions(handle.db, EDITOR, 3, read.questions, true);
    expect(replaced).toMatchObject({ status: 'ok', count: before.length });
    expect(await exportBank(handle.db, 3)).toEqual(before);
    // Over the bank's limit: refused, and the bank is as it was.
    const many: QuestionDraft[] = Array.from({ length: 501 }, () => before[0]!);
    expect(await importQuestions(handle.db, EDITOR, 3, many as ValidDraft[], false)).toEqual({ status: 'full' });
    expect(await exportBank(handle.db, 3)).toEqual(before);
  });

  it('a key fix offers a regrade that flips pass and fail and the certificate, once, and back again', async () => {
    const graduate = await contactOf('graduate@academia.example');
    const [attempt] = await handle.db.select().from(examAttempts).where(and(eq(examAttempts.contactId, graduate), eq(examAttempts.evaluationId, (await loadExam(handle.db, 2))!.evaluationId)));
    expect(attempt).toMatchObject({ passed: true, score: 100 });
    const exam = (await loadExam(handle.db, 2))!;
    // Everything must be right to pass; then the key of a question the graduate answered is moved.
    const bank = (await loadBank(handle.db, 2))!;
    expect(await saveSettings(handle.db, EDITOR, { course: 2, ...bank.settings, minimumScore: 100, lang: 'es' })).toMatchObject({ status: 'ok' });
    const drawnId = attempt!.questionIds[0]!;
    const drawn = exam.versions.get(drawnId)!;
    const fixed = await editQuestion(handle.db, EDITOR, 2, drawnId, draftOf(drawn, otherKey(drawn)));
    if (fixed.status !== 'ok') throw new Error('not edited');
    expect(fixed).toMatchObject({ mode: 'version', keyChanged: true, regradable: 1 });

    const first = await regradeCourse(handle.db, EDITOR, 2);
    if (first.status !== 'ok') throw new Error('not regraded');
    expect(first).toMatchObject({ attempts: 1, changedScores: 1, nowPassing: 0, noLongerPassing: 1, revoked: 1, restored: 0 });
    expect(first.changed).toEqual([examChange(2), personChange({ contactId: graduate })]);
    const [rescored] = await handle.db.select().from(examAttempts).where(eq(examAttempts.id, attempt!.id));
    expect(rescored!.passed).toBe(false);
    expect(rescored!.score).toBeLessThan(100);
    expect(rescored!.gradedKeys).toEqual({ [String(drawnId)]: fixed.id });
    const [certificate] = await handle.db.select().from(certificates).where(and(eq(certificates.contactId, graduate), eq(certificates.courseId, 2)));
    expect(certificate!.revokedAt).not.toBeNull();

    // Idempotent: nothing is pending, a second run changes nothing and writes no audit.
    expect(await pendingRegrades(handle.db, 2)).toEqual([]);
    const audits = (await handle.db.select().from(auditEvents).where(eq(auditEvents.action, 'questions.regraded'))).length;
    expect(await regradeCourse(handle.db, EDITOR, 2)).toMatchObject({ attempts: 0, changed: [] });
    expect(await handle.db.select().from(auditEvents).where(eq(auditEvents.action, 'questions.regraded'))).toHaveLength(audits);

    // The fix was wrong: the key goes back; a regrade passes the graduate again and gives the certificate back.
    const newest = (await loadExam(handle.db, 2))!.versions.get(fixed.id)!;
    const back = await editQuestion(handle.db, EDITOR, 2, fixed.id, draftOf(newest, drawn.options.flatMap((o, i) => (o.correct ? [i] : []))));
    expect(back).toMatchObject({ status: 'ok', keyChanged: true, regradable: 1 });
    expect(await regradeCourse(handle.db, EDITOR, 2)).toMatchObject({ attempts: 1, nowPassing: 1, noLongerPassing: 0, restored: 1 });
    const [again] = await handle.db.select().from(examAttempts).where(eq(examAttempts.id, attempt!.id));
    expect(again).toMatchObject({ passed: true, score: 100 });
    const [restored] = await handle.db.select().from(certificates).where(eq(certificates.id, certificate!.id));
    expect(restored!.revokedAt).toBeNull();
    const [trail] = await handle.db.select().from(auditEvents).where(and(eq(auditEvents.action, 'questions.regraded'), eq(auditEvents.subject, 'course:2')));
    expect(trail!.before).toMatchObject({ attempts: [{ attempt: attempt!.id, score: 100, passed: true }] });
    expect(trail!.after).toMatchObject({ counts: { attempts: 1, noLongerPassing: 1 } });
  });

  it("a bank's change makes every process forget that exam and the pages showing it", async () => {
    const runtime = await testRuntime(handle);
    try {
      const told: unknown[] = [];
      runtime.bus.subscribe('catalog', (data) => told.push(data));
      const kept = runtime.exams.get(1);
      const other = runtime.exams.get(3);
      const version = runtime.catalog.version;
      await tellChanges(runtime, [examChange(1)]);
      expect(told).toEqual([{ exam: 1 }]);
      expect(runtime.catalog.version).toBe(version + 1);
      expect(runtime.exams.get(1)).not.toBe(kept);
      expect(runtime.exams.get(3)).toBe(other);
    } finally {
      await runtime.close();
    }
  });

  it("gives a course made in the back office its exam with its bank's first question, and nothing before", async () => {
    const editor = (await handle.db.select({ id: users.id }).from(users).where(eq(users.email, 'editor@academia.example')))[0]!.id;
    const made = await createCourse(handle.db, editor, { code: 'BANCO-NUEVO', nameEs: 'Curso nuevo', nameEn: 'New course', categoryId: 2, businessId: 1 });
    if (made.status !== 'ok') throw new Error(made.status);
    const course = made.courseId;
    // The empty bank shows the first exam's settings; saving them draws from nothing, refused, nothing written.
    expect(await loadBank(handle.db, course)).toMatchObject({ courseId: course, evaluationId: null, nameEn: 'New course', settings: NEW_EXAM_SETTINGS, questions: [] });
    expect(await saveSettings(handle.db, EDITOR, { course, attempts: 2, questions: 1, minutes: 5, minimumScore: 50, lang: 'es' })).toEqual({ status: 'tooMany', size: 0 });
    expect(await loadExam(handle.db, course)).toBeNull();
    expect(await loadBank(handle.db, 999_999)).toBeNull();
    expect(await addQuestion(handle.db, EDITOR, 999_999, draftOf((await loadExam(handle.db, 1))!.pool[0]!))).toEqual({ status: 'not-found' });

    const first = draftOf((await loadExam(handle.db, 1))!.pool[0]!);
    expect(await addQuestion(handle.db, EDITOR, course, first)).toMatchObject({ status: 'ok', changed: [examChange(course)] });
    const exam = (await loadExam(handle.db, course))!;
    expect(exam.pool.map((q) => q.promptEs)).toEqual([first.promptEs]);
    expect(exam.settings).toEqual({ ...NEW_EXAM_SETTINGS, questions: 1 });
    expect((await auditOf(handle.db, `course:${course}`, 'questions.exam.created')).map((e) => e.after)).toEqual([{ ...NEW_EXAM_SETTINGS }]);
    expect(await saveSettings(handle.db, EDITOR, { course, attempts: 2, questions: 1, minutes: 5, minimumScore: 50, lang: 'es' })).toMatchObject({ status: 'ok' });
    expect((await listBanks(handle.db)).find((b) => b.courseId === course)).toMatchObject({ size: 1, drawn: 1 });
  });

  it('keeps positions unique in the pool only', async () => {
    const pool = await handle.db.select({ position: questions.position }).from(questions).where(and(eq(questions.evaluationId, (await loadExam(handle.db, 2))!.evaluationId), isNull(questions.retiredAt)));
    expect(new Set(pool.map((p) => p.position)).size).toBe(pool.length);
  });
});
