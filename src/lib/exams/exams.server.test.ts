/**
 * The exams' database layer on PGlite (and PostgreSQL when it answers): atomic starts, answers saved as
 * given and refused after the deadline's grace, idempotent grading, and grading by the server when the
 * browser never comes back.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { testDatabases } from '../db/testing';
import type { DbHandle } from '../db/client';
import { contacts, examAttempts, tracking, users } from '../db/schema';
import { loadCatalog } from '../catalog';
import { correctOptions, GRACE_MS, gradeAttempt, presentAttempt, seededRandom } from './exams';
import { examStanding, gradeOverdue, registerExamGrading, saveAnswer, startAttempt, submitAttempt } from './exams.server';
import { loadExam, type CourseExam } from './exam-source.server';
import { loadExamInfo } from './exam-info.server';
import { createScheduler } from '../jobs/jobs.server';
import { createLogger } from '../http/log.server';
import { pagesChange, personChange } from '../runtime/changes';

const databases = await testDatabases();
const MINUTE = 60_000;

describe.each(databases)('exams on $name', ({ create }) => {
  let handle: DbHandle;
  let exam: CourseExam;
  let contactId: number;
  let otherContactId: number;

  beforeAll(async () => {
    handle = await create({ seed: true });
    exam = (await loadExam(handle.db, 1))!;
    const contactOf = async (email: string) =>
      (await handle.db.select({ id: contacts.id }).from(contacts).innerJoin(users, eq(users.id, contacts.userId)).where(eq(users.email, email)))[0]!.id;
    contactId = await contactOf('learner@academia.example');
    otherContactId = await contactOf('buyer@academia.example');
  });
  beforeEach(async () => {
    await handle.db.delete(examAttempts);
  });
  afterAll(async () => {
    await handle?.close();
  });

  it("loads a course's settings and its whole pool, and no exam for a course without one", async () => {
    expect(exam.settings.questions).toBeGreaterThan(0);
    expect(exam.settings.questions).toBeLessThanOrEqual(exam.pool.length);
    expect(exam.pool.every((q) => q.options.length >= 2 && correctOptions(q).length >= 1)).toBe(true);
    expect(await loadExam(handle.db, 999_999)).toBeNull();
  });

  it('twenty simultaneous starts open one attempt, and the attempts allowed are never exceeded', async () => {
    const now = Date.now();
    const starts = await Promise.all(Array.from({ length: 20 }, () => startAttempt(handle.db, exam, contactId, now)));
    expect(starts.every((s) => s.ok)).toBe(true);
    const ids = new Set(starts.map((s) => (s.ok ? s.attempt.id : 0)));
    expect(ids.size).toBe(1);
    expect(starts.filter((s) => s.ok && !s.resumed)).toHaveLength(1);
    // Use up every attempt, each graded, then twenty more starts at once: all refused.
    for (let i = 1; i < exam.settings.attempts; i++) {
      const open = (await examStanding(handle.db, exam, contactId, now)).standing.open!;
      await submitAttempt(handle.db, exam, contactId, open.id, now);
      const next = await startAttempt(handle.db, exam, contactId, now);
      expect(next).toMatchObject({ ok: true, resumed: false });
    }
    const last = (await examStanding(handle.db, exam, contactId, now)).standing.open!;
    await submitAttempt(handle.db, exam, contactId, last.id, now);
    const more = await Promise.all(Array.from({ length: 20 }, () => startAttempt(handle.db, exam, contactId, now)));
    expect(more.every((s) => !s.ok && s.error === 'no-attempts')).toBe(true);
    const rows = await handle.db.select().from(examAttempts).where(eq(examAttempts.contactId, contactId));
    expect(rows).toHaveLength(exam.settings.attempts);
  });

  it('stores the draw and a deadline on the server clock; what the page shows has no right answer', async () => {
    const now = Date.UTC(2026, 10, 25, 12, 0, 0);
    const started = await startAttempt(handle.db, exam, contactId, now, seededRandom(7));
    if (!started.ok) throw new Error(started.error);
    const { attempt } = started;
    expect(attempt.deadline - now).toBe(exam.settings.minutes * MINUTE);
    expect(attempt.drawn.questionIds).toHaveLength(exam.settings.questions);
    expect(new Set(attempt.drawn.questionIds).size).toBe(exam.settings.questions);
    const shown = presentAttempt(exam.pool, attempt.drawn, 'es');
    expect(shown.map((q) => q.id)).toEqual(attempt.drawn.questionIds);
    expect(JSON.stringify(shown)).not.toMatch(/correct/i);
    // A reload (or another device) resumes the same attempt.
    const again = await startAttempt(handle.db, exam, contactId, now + 5 * MINUTE);
    expect(again).toMatchObject({ ok: true, resumed: true, attempt: { id: attempt.id, drawn: attempt.drawn } });
  });

  it('saves each answer as given, replaces it when changed, and refuses answers after the grace, to others and out of the attempt', async () => {
    const now = Date.now();
    const started = await startAttempt(handle.db, exam, contactId, now);
    if (!started.ok) throw new Error(started.error);
    const { attempt } = started;
    const [q1, q2] = attempt.drawn.questionIds.map((id) => exam.pool.find((q) => q.id === id)!);
    const wrong = q1!.options.find((o) => !o.correct)!.id;
    const right = correctOptions(q1!);
    expect(await saveAnswer(handle.db, exam, contactId, attempt.id, q1!.id, wrong, now + 1000)).toEqual({ ok: true, answer: [wrong] });
    expect(await saveAnswer(handle.db, exam, contactId, attempt.id, q1!.id, right, now + 2000)).toEqual({ ok: true, answer: right });
    expect(await saveAnswer(handle.db, exam, contactId, attempt.id, q2!.id, [q2!.options[0]!.id], now + 3000)).toMatchObject({ ok: true });
    const { standing } = await examStanding(handle.db, exam, contactId, now + 4000);
    expect(standing.open?.answers).toEqual({ [q1!.id]: right, [q2!.id]: [q2!.options[0]!.id] });

    // Someone else's attempt, an option of another question, a question not drawn, junk.
    expect(await saveAnswer(handle.db, exam, otherContactId, attempt.id, q1!.id, right, now)).toEqual({ ok: false, error: 'not-found' });
    expect(await saveAnswer(handle.db, exam, contactId, attempt.id, q1!.id, [q2!.options[0]!.id], now)).toMatchObject({ ok: false, error: 'unknown-option' });
    const notDrawn = exam.pool.find((q) => !attempt.drawn.questionIds.includes(q.id));
    if (notDrawn) expect(await saveAnswer(handle.db, exam, contactId, attempt.id, notDrawn.id, [notDrawn.options[0]!.id], now)).toEqual({ ok: false, error: 'not-in-attempt' });
    expect(await saveAnswer(handle.db, exam, contactId, attempt.id, q1!.id, 'x'.repeat(100_000), now)).toMatchObject({ ok: false });
    expect(await saveAnswer(handle.db, exam, contactId, attempt.id, q1!.id, '\u0000', now)).toMatchObject({ ok: false });

    // In the grace after the deadline an answer in flight is taken; after it, refused.
    expect(await saveAnswer(handle.db, exam, contactId, attempt.id, q1!.id, wrong, attempt.deadline + GRACE_MS)).toMatchObject({ ok: true });
    expect(await saveAnswer(handle.db, exam, contactId, attempt.id, q1!.id, right, attempt.deadline + GRACE_MS + 1)).toEqual({ ok: false, error: 'closed' });
  });

  it('grading is idempotent: submitting twice, or racing the deadline, stores one grade; later answers are refused', async () => {
    const now = Date.now();
    const started = await startAttempt(handle.db, exam, contactId, now);
    if (!started.ok) throw new Error(started.error);
    const { attempt } = started;
    for (const id of attempt.drawn.questionIds) {
      const q = exam.pool.find((p) => p.id === id)!;
      expect(await saveAnswer(handle.db, exam, contactId, attempt.id, id, correctOptions(q), now + 1000)).toMatchObject({ ok: true });
    }
    const [a, b] = await Promise.all([submitAttempt(handle.db, exam, contactId, attempt.id, now + 2000), submitAttempt(handle.db, exam, contactId, attempt.id, now + 2500)]);
    expect(a!.grade.score).toBe(100);
    expect(a!.attempt).toEqual(b!.attempt);
    expect(a!.attempt).toMatchObject({ score: 100, passed: true });
    expect(await submitAttempt(handle.db, exam, otherContactId, attempt.id, now)).toBeNull();
    expect(await saveAnswer(handle.db, exam, contactId, attempt.id, attempt.drawn.questionIds[0]!, [1], now + 3000)).toEqual({ ok: false, error: 'closed' });
    // Passed: no new attempt.
    expect(await startAttempt(handle.db, exam, contactId, now + 4000)).toEqual({ ok: false, error: 'passed', changed: [] });
    const { standing } = await examStanding(handle.db, exam, contactId, now + 5000);
    expect(standing).toMatchObject({ used: 1, passed: true, best: 100, open: null });
  });

  it('an answer racing the submit is either graded or refused: the stored score is always the grade of the stored answers', async () => {
    for (let round = 0; round < 5; round++) {
      await handle.db.delete(examAttempts);
      const now = Date.now();
      const started = await startAttempt(handle.db, exam, contactId, now);
      if (!started.ok) throw new Error(started.error);
      const ids = started.attempt.drawn.questionIds;
      const saves = ids.map((id) => saveAnswer(handle.db, exam, contactId, started.attempt.id, id, correctOptions(exam.pool.find((q) => q.id === id)!), now));
      const [graded, ...saved] = await Promise.all([submitAttempt(handle.db, exam, contactId, started.attempt.id, now), ...saves]);
      const [row] = await handle.db.select().from(examAttempts).where(eq(examAttempts.id, started.attempt.id));
      const asked = exam.pool.filter((q) => ids.includes(q.id));
      expect(row!.score).toBe(gradeAttempt(asked, row!.answers ?? {}).score);
      expect(graded!.attempt.score).toBe(row!.score);
      // What was saved is in the stored answers; what was refused says the attempt is closed.
      saved.forEach((r, i) => (r.ok ? expect(row!.answers?.[ids[i]!]).toEqual(r.answer) : expect(r).toEqual({ ok: false, error: 'closed' })));
    }
  });

  it('grades what it has once the time is up, even if the browser never comes back (the job, and the next read)', async () => {
    const now = Date.now() - 2 * exam.settings.minutes * MINUTE;
    const mine = await startAttempt(handle.db, exam, contactId, now);
    const theirs = await startAttempt(handle.db, exam, otherContactId, now);
    if (!mine.ok || !theirs.ok) throw new Error('not started');
    const q = exam.pool.find((p) => p.id === mine.attempt.drawn.questionIds[0])!;
    await saveAnswer(handle.db, exam, contactId, mine.attempt.id, q.id, correctOptions(q), now + 1000);
    const deadline = mine.attempt.deadline;
    // Not yet: within the grace, nothing is graded.
    expect(await gradeOverdue(handle.db, deadline + GRACE_MS)).toEqual([]);
    // The scheduled job grades both; one right answer of many fails.
    const graded = await gradeOverdue(handle.db, deadline + GRACE_MS + 1);
    expect(graded.map((g) => g.contactId).sort()).toEqual([contactId, otherContactId].sort());
    expect(graded.every((g) => g.courseId === 1 && g.passed === false)).toBe(true);
    const { standing } = await examStanding(handle.db, exam, contactId, Date.now());
    expect(standing.attempts[0]).toMatchObject({ score: Math.floor(100 / exam.settings.questions), passed: false });
    // Graded at the deadline's end, not when the job happened to run.
    expect(standing.attempts[0]!.gradedAt).toBe(deadline + GRACE_MS);
    expect(await gradeOverdue(handle.db, Date.now())).toEqual([]);

    // The scheduled job, as every process registers it: one run grades a forgotten attempt and says whose.
    await handle.db.delete(examAttempts);
    const forgotten = await startAttempt(handle.db, exam, contactId, now);
    if (!forgotten.ok) throw new Error(forgotten.error);
    const scheduler = createScheduler({ db: handle.db, logger: createLogger('silent'), workerId: 'test' });
    const heard: number[] = [];
    registerExamGrading(scheduler, handle.db, (id) => heard.push(id));
    expect((await scheduler.runDue(new Date(forgotten.attempt.deadline + GRACE_MS + 1))).recurring).toContain('exam-grading');
    expect(heard).toEqual([contactId]);
    expect((await examStanding(handle.db, exam, contactId, forgotten.attempt.deadline)).standing.open).toBeNull();
    await scheduler.stop();

    // The next read grades too, without the job.
    await handle.db.delete(examAttempts);
    const again = await startAttempt(handle.db, exam, contactId, now);
    if (!again.ok) throw new Error(again.error);
    const read = await examStanding(handle.db, exam, contactId, again.attempt.deadline + GRACE_MS + 1);
    expect(read.standing).toMatchObject({ used: 1, open: null, passed: false, best: 0 });
  });

  it("says what the next read changed by grading: the person's pages for a fail, what they may see for a pass, and nothing again", async () => {
    const now = Date.now() - 4 * exam.settings.minutes * MINUTE;
    // Nothing overdue (no attempt, then one in progress): nothing changed.
    expect((await examStanding(handle.db, exam, contactId, now)).changed).toEqual([]);
    const failing = await startAttempt(handle.db, exam, contactId, now);
    if (!failing.ok) throw new Error(failing.error);
    expect((await examStanding(handle.db, exam, contactId, failing.attempt.deadline + GRACE_MS)).changed).toEqual([]);
    // Time up with no answer: a fail. Two reads at once grade it once, and tell it once.
    const late = failing.attempt.deadline + GRACE_MS + 1;
    const reads = await Promise.all([examStanding(handle.db, exam, contactId, late), examStanding(handle.db, exam, contactId, late)]);
    expect(reads.flatMap((r) => r.changed)).toEqual([pagesChange(contactId)]);
    expect(reads.every((r) => r.standing.open === null && r.standing.used === 1 && !r.standing.passed)).toBe(true);
    expect((await examStanding(handle.db, exam, contactId, late)).changed).toEqual([]);

    // Time up with every answer right: a pass, which completes the course.
    const passing = await startAttempt(handle.db, exam, contactId, late);
    if (!passing.ok) throw new Error(passing.error);
    for (const id of passing.attempt.drawn.questionIds) await saveAnswer(handle.db, exam, contactId, passing.attempt.id, id, correctOptions(exam.pool.find((q) => q.id === id)!), late);
    const later = passing.attempt.deadline + GRACE_MS + 1;
    expect(await examStanding(handle.db, exam, contactId, later)).toMatchObject({ standing: { used: 2, open: null, passed: true, best: 100 }, changed: [personChange({ contactId })] });
    expect((await examStanding(handle.db, exam, contactId, later)).changed).toEqual([]);
    // Someone else's read grades and tells nothing of this person.
    expect((await examStanding(handle.db, exam, otherContactId, later)).changed).toEqual([]);
  });

  it('a start that grades an attempt whose time was up says so: a fail before the next attempt, a pass with its refusal', async () => {
    const now = Date.now() - 4 * exam.settings.minutes * MINUTE;
    const failing = await startAttempt(handle.db, exam, contactId, now);
    if (!failing.ok) throw new Error(failing.error);
    expect(failing.changed).toEqual([]);
    const late = failing.attempt.deadline + GRACE_MS + 1;
    const next = await startAttempt(handle.db, exam, contactId, late);
    expect(next).toMatchObject({ ok: true, resumed: false, changed: [pagesChange(contactId)] });
    if (!next.ok) throw new Error(next.error);
    for (const id of next.attempt.drawn.questionIds) await saveAnswer(handle.db, exam, contactId, next.attempt.id, id, correctOptions(exam.pool.find((q) => q.id === id)!), late);
    const later = next.attempt.deadline + GRACE_MS + 1;
    expect(await startAttempt(handle.db, exam, contactId, later)).toEqual({ ok: false, error: 'passed', changed: [personChange({ contactId })] });
    expect(await startAttempt(handle.db, exam, contactId, later)).toEqual({ ok: false, error: 'passed', changed: [] });
  });

  it('the exam page says who may start: a learner who completed every lesson, not a visitor, not before the lessons, not after passing', async () => {
    const course = (await loadCatalog(handle.db)).byId.get(1)!;
    const lessons = course.modules.flatMap((m) => m.lessons.map((l) => l.id));
    const learner = { kind: 'learner', contactId };
    const now = Date.now();
    expect((await loadExamInfo(handle.db, course, { kind: 'visitor', contactId: null }, now))!.decision).toEqual({ ok: false, reason: 'login' });
    expect((await loadExamInfo(handle.db, course, { kind: 'ibo', contactId: otherContactId }, now))!.decision).toEqual({ ok: false, reason: 'login' });
    await handle.db.delete(tracking).where(eq(tracking.contactId, contactId));
    const none = (await loadExamInfo(handle.db, course, learner, now))!;
    expect(none).toMatchObject({ lessonsTotal: lessons.length, lessonsCompleted: 0, decision: { ok: false, reason: 'lessons', remaining: lessons.length } });
    await handle.db.insert(tracking).values(lessons.map((subtopicId) => ({ contactId, courseId: 1, subtopicId, completedAt: new Date(now) })));
    const ready = (await loadExamInfo(handle.db, course, learner, now))!;
    expect(ready).toMatchObject({ lessonsCompleted: lessons.length, decision: { ok: true }, standing: { used: 0, left: exam.settings.attempts, best: null } });
    const started = await startAttempt(handle.db, exam, contactId, now);
    if (!started.ok) throw new Error(started.error);
    expect((await loadExamInfo(handle.db, course, learner, now))!.decision).toEqual({ ok: false, reason: 'open-attempt' });
    for (const id of started.attempt.drawn.questionIds) await saveAnswer(handle.db, exam, contactId, started.attempt.id, id, correctOptions(exam.pool.find((q) => q.id === id)!), now);
    await submitAttempt(handle.db, exam, contactId, started.attempt.id, now);
    expect((await loadExamInfo(handle.db, course, learner, now))!).toMatchObject({ decision: { ok: false, reason: 'passed' }, standing: { best: 100, passed: true } });
    expect(await loadExamInfo(handle.db, { id: 999_999, modules: [] }, learner, now)).toBeNull();
    await handle.db.delete(tracking).where(eq(tracking.contactId, contactId));
  });
});
