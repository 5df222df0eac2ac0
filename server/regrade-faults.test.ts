/**
 * `kill -9` in the middle of a regrade after a key fix (`backoffice-faults.child.ts` running
 * `regradeCourse` on a data folder, killing itself at a step): after the second attempt is rescored,
 * after the certificates are settled (both inside its transaction), and after its commit. A run killed
 * inside leaves every attempt as it was; the next run regrades them all; a run after the commit finds
 * nothing to do. In the end every affected attempt is scored once with the fixed key (score, pass or
 * fail, the certificates of those who no longer pass revoked once, one audit record). On PGlite, and on
 * PostgreSQL when it answers (each a copy of the run's seeded database).
 */
import { describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import * as s from '../src/lib/db/schema';
import { gradeAttempt, gradedQuestions, passed, type ExamQuestion } from '../src/lib/exams/exams';
import { loadExam } from '../src/lib/exams/exam-source.server';
import { editQuestion, loadBank, saveSettings } from '../src/lib/question-bank/bank.server';
import { PEOPLE } from '../tests/e2e/support/seed';
import { faultDatabases, useFaultTarget, runWrite, withDb } from '../src/lib/testing/fault-runs';
import { keptFiguresDrift, keptRows } from '../src/lib/testing/kept-figures';

const COURSE = 2;
const EDITOR = 424242;

describe.each(await faultDatabases())('kill -9 in a regrade on $name', ({ name, up, share }) => {
  const target = useFaultTarget('regrade-faults', { name, up });

  it.skipIf(!up)('regrades every affected attempt once, all or nothing, and a second regrade does nothing', async () => {
    // The graduate passed course 2 with every answer right; three more people took the same draw:
    // two right (with certificates), one who chose the option the fix makes right.
    const setup = await withDb(target(), async ({ db }) => {
      const contactOf = async (email: string) => (await db.select({ id: s.contacts.id }).from(s.contacts).innerJoin(s.users, eq(s.users.id, s.contacts.userId)).where(eq(s.users.email, email)))[0]!.id;
      const exam = (await loadExam(db, COURSE))!;
      const bank = (await loadBank(db, COURSE))!;
      expect(await saveSettings(db, EDITOR, { course: COURSE, ...bank.settings, minimumScore: 100, lang: 'es' })).toMatchObject({ status: 'ok' });
      const graduate = await contactOf(PEOPLE.graduate.email);
      const [model] = await db.select().from(s.examAttempts).where(and(eq(s.examAttempts.contactId, graduate), eq(s.examAttempts.evaluationId, exam.evaluationId)));
      expect(model).toMatchObject({ score: 100, passed: true });
      const fixedId = model!.questionIds[0]!;
      const drawn = exam.versions.get(fixedId)!;
      const right = drawn.options.findIndex((o) => o.correct);
      const moved = (right + 1) % drawn.options.length;
      const others = await Promise.all([PEOPLE.learner.email, PEOPLE.buyer.email, PEOPLE.ready.email].map(contactOf));
      const copy = (contactId: number, answers: Record<string, number[]>, score: number, pass: boolean) => ({
        evaluationId: exam.evaluationId,
        contactId,
        attemptNumber: 1,
        questionIds: model!.questionIds,
        optionOrder: model!.optionOrder,
        answers,
        startedAt: model!.startedAt,
        deadlineAt: model!.deadlineAt,
        submittedAt: model!.submittedAt,
        score,
        passed: pass,
      });
      const wrongOne = { ...model!.answers, [String(fixedId)]: [drawn.options[moved]!.id] };
      const wrongScore = gradeAttempt(gradedQuestions(exam.versions, model!.questionIds, null), wrongOne).score;
      await db.insert(s.examAttempts).values([copy(others[0]!, model!.answers!, 100, true), copy(others[1]!, model!.answers!, 100, true), copy(others[2]!, wrongOne, wrongScore, false)]);
      await db.insert(s.certificates).values(others.slice(0, 2).map((contactId, i) => ({ contactId, courseId: COURSE, code: `ACAD-FALT-2026-0000-000${i + 1}`, holderName: 'Fault', issuedAt: new Date() })));
      // The fix: the key of the first drawn question moves to the next option (a new version).
      const fixed = await editQuestion(db, EDITOR, COURSE, fixedId, {
        kind: drawn.kind,
        promptEs: drawn.promptEs,
        promptEn: drawn.promptEn,
        explanationEs: drawn.explanationEs ?? '',
        explanationEn: drawn.explanationEn ?? '',
        options: drawn.options.map((o, i) => ({ textEs: o.textEs, textEn: o.textEn, correct: i === moved })),
      });
      expect(fixed).toMatchObject({ status: 'ok', mode: 'version', keyChanged: true, regradable: 4 });
      const attempts = (await db.select({ id: s.examAttempts.id }).from(s.examAttempts).where(and(eq(s.examAttempts.evaluationId, exam.evaluationId), inArray(s.examAttempts.contactId, [graduate, ...others])))).map((a) => a.id);
      return { graduate, others, fixedId, newId: (fixed as { id: number }).id, attempts, evaluationId: exam.evaluationId };
    });
    const admin = await withDb(target(), async ({ db }) => (await db.select({ id: s.users.id }).from(s.users).where(eq(s.users.email, PEOPLE.admin.email)))[0]!.id);
    const args = { actor: admin, course: COURSE };
    const state = () =>
      withDb(target(), async ({ db }) => ({
        attempts: await db.select().from(s.examAttempts).where(inArray(s.examAttempts.id, setup.attempts)).orderBy(s.examAttempts.id),
        certificates: await db.select().from(s.certificates).where(eq(s.certificates.courseId, COURSE)).orderBy(s.certificates.id),
        regraded: await db.select().from(s.auditEvents).where(eq(s.auditEvents.action, 'questions.regraded')),
        revocations: await db.select().from(s.auditEvents).where(eq(s.auditEvents.action, 'questions.regrade.certificate.revoked')),
        enrolments: await keptRows(db, 'enrolments'),
        items: await keptRows(db, 'exam_item_results'),
      }));
    const before = await state();

    // Killed inside the transaction, half-way through the attempts, then once the certificates are settled: nothing changed.
    for (const [at, nth] of share([['attempt-rescored', 2], ['certificates-settled', 1]] as const)) {
      const run = await runWrite('regrade', target(), { at, nth, args });
      expect(run.end, at).toBe('killed');
      expect(await state(), at).toEqual(before);
    }
    // Killed just after the commit: everything changed at once.
    const committed = await runWrite('regrade', target(), { at: 'committed', args });
    expect(committed).toMatchObject({ end: 'killed', steps: [...Array(4).fill('attempt-rescored'), 'certificates-settled', 'committed'] });
    // Run again: nothing is pending, nothing is written twice.
    expect(await runWrite('regrade', target(), { args })).toMatchObject({ end: 'done', steps: ['certificates-settled', 'committed'], result: { status: 'ok', attempts: 0, revoked: 0, restored: 0 } });

    const after = await state();
    const exam = (await withDb(target(), ({ db }) => loadExam(db, COURSE)))!;
    for (const a of after.attempts) {
      const score = gradeAttempt(gradedQuestions(exam.versions as ReadonlyMap<number, ExamQuestion>, a.questionIds, { [String(setup.fixedId)]: setup.newId }), a.answers ?? {}).score;
      expect(a, `attempt ${a.id}`).toMatchObject({ score, passed: passed(score, 100), gradedKeys: { [String(setup.fixedId)]: setup.newId } });
    }
    const passing = after.attempts.filter((a) => a.passed).map((a) => a.contactId);
    expect(passing).toEqual([setup.others[2]]);
    // Those who no longer pass lost their certificate once; nobody else's changed.
    const revoked = after.certificates.filter((c) => c.revokedAt !== null).map((c) => c.contactId).sort();
    expect(revoked).toEqual([setup.graduate, setup.others[0]!, setup.others[1]!].sort());
    expect(after.certificates.filter((c) => c.revokedAt === null)).toEqual(before.certificates.filter((c) => c.revokedAt === null && !revoked.includes(c.contactId)));
    expect(after.revocations).toHaveLength(3);
    expect(after.regraded).toHaveLength(1);
    expect(after.regraded[0]!.after).toMatchObject({ counts: { attempts: 4, noLongerPassing: 3, nowPassing: 1, revoked: 3 } });
    // The enrolments' passes and certificates, and each question's result, kept by the regrade's own transaction.
    expect(await withDb(target(), ({ db }) => keptFiguresDrift(db))).toEqual([]);
  }, 600_000);
});
