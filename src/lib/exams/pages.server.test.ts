/**
 * What the exam pages show each viewer (PGlite, and PostgreSQL when it answers): the rules page's
 * numbers and reasons, the attempt in progress without a hint of the right answers, and the result
 * whose review shows the right options only once passed or out of attempts.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { testDatabases } from '../db/testing';
import type { DbHandle } from '../db/client';
import * as s from '../db/schema';
import { loadViewer, type Identity, type Viewer } from '../access';
import { courseDetails, loadCatalog, type CatalogSnapshot } from '../catalog';
import { correctOptions } from './exams';
import { examStanding, saveAnswer, startAttempt, submitAttempt, attemptOf } from './exams.server';
import { loadExam, type CourseExam } from './exam-source.server';
import { loadExamInfoPage, loadExamResult, loadExamRun } from './pages.server';
import { pagesChange, personChange } from '../runtime/changes';

const databases = await testDatabases();

describe.each(databases)('the exam pages on $name', ({ create }) => {
  let handle: DbHandle;
  let catalog: CatalogSnapshot;
  let exam: CourseExam;
  let me: Identity;
  let other: Identity;
  const now = Date.now();

  const learner = async (email: string): Promise<Identity> => {
    const [u] = await handle.db.select().from(s.users).where(eq(s.users.email, email));
    const [c] = await handle.db.select().from(s.contacts).where(eq(s.contacts.userId, u!.id));
    return { kind: 'learner', userId: u!.id, contactId: c!.id };
  };
  const viewer = (identity: Identity | null): Promise<Viewer> => loadViewer(handle.db, identity);
  const completeLessons = (identity: Identity, courseId: number) =>
    handle.db.execute(sql`insert into tracking (contact_id, course_id, subtopic_id, completed_at)
      select ${identity.contactId}, ${courseId}, s.id, now() from subtopics s join topics t on t.id = s.topic_id where t.course_id = ${courseId}
      on conflict do nothing`);
  /** Answers every question of the attempt right (or wrong: the first option that is not right). */
  const answerAll = async (identity: Identity, attemptId: number, right: boolean) => {
    const attempt = (await examStanding(handle.db, exam, identity.contactId!, now)).standing.open!;
    for (const id of attempt.drawn.questionIds) {
      const q = exam.pool.find((x) => x.id === id)!;
      const good = correctOptions(q);
      const answer = right ? good : [q.options.find((o) => !good.includes(o.id))!.id];
      expect(await saveAnswer(handle.db, exam, identity.contactId!, attemptId, id, answer, now)).toMatchObject({ ok: true });
    }
  };

  beforeAll(async () => {
    handle = await create({ seed: true });
    catalog = await loadCatalog(handle.db);
    exam = (await loadExam(handle.db, 1))!;
    me = await learner('learner@academia.example');
    other = await learner('buyer@academia.example');
  });
  beforeEach(async () => {
    await handle.db.delete(s.examAttempts);
    await handle.db.delete(s.tracking);
  });
  afterAll(async () => {
    await handle?.close();
  });

  it("shows a visitor and an IBO session the course's real numbers and tells them to log in", async () => {
    for (const who of [null, { kind: 'ibo', userId: null, contactId: null } as Identity]) {
      const page = (await loadExamInfoPage(handle.db, catalog, await viewer(who), 1, 'es', now)).page;
      expect(page).toMatchObject({ kind: 'info', decision: { ok: false, reason: 'login' }, used: 0, left: exam.settings.attempts, best: null });
      if (page.kind === 'info') expect(page.settings).toEqual(exam.settings);
    }
  });

  it('tells a learner how many lessons remain, then offers the start once every lesson is completed', async () => {
    const total = catalog.byId.get(1)!.modules.flatMap((m) => m.lessons).length;
    expect((await loadExamInfoPage(handle.db, catalog, await viewer(me), 1, 'en', now)).page).toMatchObject({ decision: { ok: false, reason: 'lessons', remaining: total } });
    await completeLessons(me, 1);
    expect((await loadExamInfoPage(handle.db, catalog, await viewer(me), 1, 'en', now)).page).toMatchObject({ decision: { ok: true }, open: null });
  });

  it('answers not-found for unknown courses, courses without an exam and courses the viewer may not know of', async () => {
    const v = await viewer(me);
    const withoutExam: number[] = [];
    for (const id of catalog.byId.keys()) if (!(await loadExam(handle.db, id)) && courseDetails(catalog, id, v, 'es')) withoutExam.push(id);
    for (const id of [999_999, 12, ...withoutExam.slice(0, 1)]) {
      expect((await loadExamInfoPage(handle.db, catalog, v, id, 'es', now)).page).toEqual({ kind: 'not-found' });
      expect((await loadExamRun(handle.db, catalog, v, id, 'es', now)).page).toEqual({ kind: 'not-found' });
      expect((await loadExamResult(handle.db, catalog, v, id, null, 'es', now)).page).toEqual({ kind: 'not-found' });
    }
  });

  it('shows the attempt in progress in the drawn order with its saved answers and the time left, and never which option is right', async () => {
    await completeLessons(me, 1);
    const started = await startAttempt(handle.db, exam, me.contactId!, now);
    if (!started.ok) throw new Error('not started');
    const first = started.attempt.drawn.questionIds[0]!;
    const option = exam.pool.find((q) => q.id === first)!.options[0]!.id;
    await saveAnswer(handle.db, exam, me.contactId!, started.attempt.id, first, [option], now);
    const page = (await loadExamRun(handle.db, catalog, await viewer(me), 1, 'en', now + 60_000)).page;
    expect(page.kind).toBe('run');
    if (page.kind !== 'run') return;
    expect(page.questions.map((q) => q.id)).toEqual(started.attempt.drawn.questionIds);
    expect(page.answers).toEqual({ [first]: [option] });
    expect(page.remainingMs).toBe(exam.settings.minutes * 60_000 - 60_000);
    expect(JSON.stringify(page)).not.toMatch(/correct|isCorrect/i);
    // Another person has no attempt in progress here, and cannot read or answer this one.
    expect((await loadExamRun(handle.db, catalog, await viewer(other), 1, 'en', now)).page).toEqual({ kind: 'no-attempt' });
    expect(await attemptOf(handle.db, exam, other.contactId!, started.attempt.id, now)).toBeNull();
    // The rules page offers to resume it.
    expect((await loadExamInfoPage(handle.db, catalog, await viewer(me), 1, 'es', now)).page).toMatchObject({ decision: { ok: false, reason: 'open-attempt' }, open: { remainingMs: exam.settings.minutes * 60_000 } });
  });

  it('hides the right options in the review while attempts remain, and shows them once passed', async () => {
    await completeLessons(me, 1);
    const first = await startAttempt(handle.db, exam, me.contactId!, now);
    if (!first.ok) throw new Error('not started');
    await answerAll(me, first.attempt.id, false);
    await submitAttempt(handle.db, exam, me.contactId!, first.attempt.id, now);
    const failed = (await loadExamResult(handle.db, catalog, await viewer(me), 1, null, 'es', now)).page;
    expect(failed).toMatchObject({ kind: 'result', passed: false, score: 0, revealed: false, mayRetry: true, attemptsLeft: exam.settings.attempts - 1 });
    if (failed.kind === 'result') {
      expect(failed.review.every((q) => !q.correct && q.options.every((o) => o.right === undefined))).toBe(true);
      expect(failed.review.every((q) => q.options.filter((o) => o.given).length === 1)).toBe(true);
    }
    const second = await startAttempt(handle.db, exam, me.contactId!, now);
    if (!second.ok) throw new Error('not started');
    // While the next attempt is in progress, the latest result says so (a page kept for the learner must not be).
    expect((await loadExamResult(handle.db, catalog, await viewer(me), 1, null, 'es', now)).page).toMatchObject({ kind: 'result', attempt: { number: 1 }, inProgress: true });
    await answerAll(me, second.attempt.id, true);
    await submitAttempt(handle.db, exam, me.contactId!, second.attempt.id, now);
    const passed = (await loadExamResult(handle.db, catalog, await viewer(me), 1, null, 'en', now)).page;
    expect(passed).toMatchObject({ kind: 'result', passed: true, score: 100, revealed: true, mayRetry: false, attempt: { number: 2 }, inProgress: false });
    if (passed.kind === 'result') expect(passed.review.every((q) => q.correct && q.options.some((o) => o.right === true))).toBe(true);
    // The first attempt's review now shows the right options too (the learner passed).
    expect((await loadExamResult(handle.db, catalog, await viewer(me), 1, 1, 'en', now)).page).toMatchObject({ kind: 'result', passed: false, revealed: true });
    // An attempt number that is not theirs (or not graded) is not found; someone without attempts has no result.
    expect((await loadExamResult(handle.db, catalog, await viewer(me), 1, 3, 'en', now)).page).toEqual({ kind: 'not-found' });
    expect((await loadExamResult(handle.db, catalog, await viewer(other), 1, 1, 'en', now)).page).toEqual({ kind: 'not-found' });
    expect((await loadExamResult(handle.db, catalog, await viewer(other), 1, null, 'en', now)).page).toMatchObject({ kind: 'none', inProgress: false });
    expect((await loadExamInfoPage(handle.db, catalog, await viewer(me), 1, 'es', now)).page).toMatchObject({ decision: { ok: false, reason: 'passed' }, best: 100, lastGraded: 2 });
  });

  it('grades an attempt whose time is up when its result is read, even if the browser never came back', async () => {
    await completeLessons(me, 1);
    const started = await startAttempt(handle.db, exam, me.contactId!, now);
    if (!started.ok) throw new Error('not started');
    await answerAll(me, started.attempt.id, true);
    const later = now + exam.settings.minutes * 60_000 + 60_000;
    // The page that graded it says the pass changed what the person may see (the course is completed).
    expect(await loadExamRun(handle.db, catalog, await viewer(me), 1, 'es', later)).toEqual({ page: { kind: 'no-attempt' }, changed: [personChange({ contactId: me.contactId })] });
    const result = await loadExamResult(handle.db, catalog, await viewer(me), 1, null, 'es', later);
    expect(result.page).toMatchObject({ kind: 'result', passed: true, score: 100 });
    expect(result.changed).toEqual([]);
  });

  it("says what reading a page changed: nothing while no attempt's time is up, the person's pages once a fail is graded, then nothing", async () => {
    await completeLessons(me, 1);
    const started = await startAttempt(handle.db, exam, me.contactId!, now);
    if (!started.ok) throw new Error('not started');
    await answerAll(me, started.attempt.id, false);
    const v = await viewer(me);
    expect((await loadExamInfoPage(handle.db, catalog, v, 1, 'es', now)).changed).toEqual([]);
    expect((await loadExamRun(handle.db, catalog, v, 1, 'es', now)).changed).toEqual([]);
    expect((await loadExamResult(handle.db, catalog, v, 1, null, 'es', now)).changed).toEqual([]);
    const later = now + exam.settings.minutes * 60_000 + 60_000;
    expect(await loadExamInfoPage(handle.db, catalog, v, 1, 'es', later)).toMatchObject({ page: { kind: 'info', used: 1, open: null, lastGraded: 1 }, changed: [pagesChange(me.contactId!)] });
    expect((await loadExamInfoPage(handle.db, catalog, v, 1, 'es', later)).changed).toEqual([]);
    expect(await loadExamResult(handle.db, catalog, v, 1, null, 'es', later)).toMatchObject({ page: { kind: 'result', passed: false }, changed: [] });
    expect((await loadExamRun(handle.db, catalog, v, 1, 'es', later)).changed).toEqual([]);
    // Visitors read no attempts, so they change nothing.
    expect((await loadExamInfoPage(handle.db, catalog, await viewer(null), 1, 'es', later)).changed).toEqual([]);
  });
});
