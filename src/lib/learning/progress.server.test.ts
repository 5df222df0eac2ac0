import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { testDatabases } from '../db/testing';
import type { DbHandle } from '../db/client';
import { contacts, evaluations, examAttempts, tracking, users } from '../db/schema';
import { loadCatalog, type CatalogCourse } from '../catalog';
import { loadViewer } from '../access';
import { courseDuration, courseProgress, resumePoint } from './learning';
import { completedLessons, examSummaries, lessonResources, passedExams, progressByCourse, progressInCourse } from './progress.server';

const databases = await testDatabases();

describe.each(databases)('learning reads on $name', ({ create }) => {
  let handle: DbHandle;
  let contactId: number;
  let userId: number;
  let course: CatalogCourse;
  let other: CatalogCourse;

  beforeAll(async () => {
    handle = await create({ seed: true });
    const catalog = await loadCatalog(handle.db);
    course = catalog.byId.get(1)!;
    other = catalog.byId.get(31)!;
    const [row] = await handle.db
      .select({ userId: users.id, contactId: contacts.id })
      .from(users)
      .innerJoin(contacts, eq(contacts.userId, users.id))
      .where(eq(users.email, 'learner@academia.example'));
    ({ userId, contactId } = row!);
  });
  afterAll(async () => {
    await handle?.close();
  });

  it('knows nothing for someone who never watched', async () => {
    expect(await progressInCourse(handle.db, contactId, course.id)).toEqual([]);
    expect(await completedLessons(handle.db, contactId, course.id)).toEqual([]);
    expect(resumePoint(course, [])?.place.lessonId).toBe(course.modules[0]!.lessons[0]!.id);
  });

  it('reads positions and completions per course, and resumes where the person left off', async () => {
    const [first, second] = course.modules[0]!.lessons;
    const elsewhere = other.modules[0]!.lessons[0]!;
    await handle.db.insert(tracking).values([
      { contactId, courseId: course.id, subtopicId: first!.id, lastPosition: '8', furthestPosition: '8', completedAt: new Date(), updatedAt: new Date(1000) },
      { contactId, courseId: course.id, subtopicId: second!.id, lastPosition: '3.5', furthestPosition: '5', updatedAt: new Date(2000) },
      { contactId, courseId: other.id, subtopicId: elsewhere.id, lastPosition: '1', furthestPosition: '1', updatedAt: new Date(3000) },
    ]);
    const progress = await progressInCourse(handle.db, contactId, course.id);
    expect(progress).toHaveLength(2);
    expect(progress.find((p) => p.lessonId === second!.id)).toMatchObject({ lastPosition: 3.5, furthestPosition: 5, completed: false, updatedAt: 2000 });
    expect(resumePoint(course, progress)).toEqual({ place: expect.objectContaining({ lessonId: second!.id }), position: 3.5 });
    expect(await completedLessons(handle.db, contactId, course.id)).toEqual([first!.id]);
    expect(courseProgress(course, [first!.id]).completed).toBe(1);

    const byCourse = await progressByCourse(handle.db, contactId);
    expect([...byCourse.keys()].sort((a, b) => a - b)).toEqual([course.id, other.id]);
    expect(byCourse.get(other.id)).toEqual([expect.objectContaining({ lessonId: elsewhere.id, lastPosition: 1 })]);
  });

  it('completes the basic Real Vision course (and opens the intermediate one) only when every lesson is completed and its exam passed', async () => {
    const lessons = other.modules.flatMap((m) => m.lessons);
    const identity = { kind: 'learner' as const, userId, contactId };
    expect((await loadViewer(handle.db, identity)).completed.has(other.id)).toBe(false);
    await handle.db
      .insert(tracking)
      .values(lessons.map((l) => ({ contactId, courseId: other.id, subtopicId: l.id, lastPosition: '1', furthestPosition: '1', completedAt: new Date() })))
      .onConflictDoUpdate({ target: [tracking.contactId, tracking.subtopicId], set: { completedAt: new Date() } });
    expect(courseProgress(other, await completedLessons(handle.db, contactId, other.id)).percent).toBe(100);
    expect((await loadViewer(handle.db, identity)).completed.has(other.id)).toBe(false);
    const [evaluation] = await handle.db.select().from(evaluations).where(eq(evaluations.courseId, other.id));
    await handle.db.insert(examAttempts).values({ evaluationId: evaluation!.id, contactId, attemptNumber: 1, questionIds: [], deadlineAt: new Date(), submittedAt: new Date(), score: 80, passed: true });
    expect((await loadViewer(handle.db, identity)).completed.has(other.id)).toBe(true);
  });

  it('lists each lesson’s resources, the video first with both caption languages', async () => {
    const byLesson = await lessonResources(handle.db, { courseId: course.id });
    const lessonIds = course.modules.flatMap((m) => m.lessons.map((l) => l.id));
    expect([...byLesson.keys()].sort((a, b) => a - b)).toEqual([...lessonIds].sort((a, b) => a - b));
    for (const list of byLesson.values()) {
      expect(list[0]).toMatchObject({ kind: 'video', url: null, captionLangs: ['en', 'es'] });
    }
    const extras = [...byLesson.values()].flat().filter((r) => r.kind !== 'video');
    expect(extras.length).toBeGreaterThan(0);
    for (const r of extras) {
      if (r.kind === 'link') expect(r.url).toMatch(/^https:\/\//);
      expect(r.titleEs.length && r.titleEn.length).toBeGreaterThan(0);
    }
  });

  it('lists the resources of one module only', async () => {
    const module = course.modules[1]!;
    const byLesson = await lessonResources(handle.db, { moduleId: module.id });
    expect([...byLesson.keys()].sort((a, b) => a - b)).toEqual(module.lessons.map((l) => l.id).sort((a, b) => a - b));
  });

  it('adds up the total course time from the videos', () => {
    expect(courseDuration(course)).toBeCloseTo(course.durationSeconds, 5);
    expect(courseDuration(course)).toBeGreaterThan(0);
  });

  it('knows whose exam was passed', async () => {
    const [evaluation] = await handle.db.select().from(evaluations).where(eq(evaluations.courseId, course.id));
    expect(evaluation).toBeDefined();
    expect(await passedExams(handle.db, contactId, [course.id])).toEqual(new Set());
    const deadlineAt = new Date(Date.now() + 60_000);
    await handle.db.insert(examAttempts).values([
      { evaluationId: evaluation!.id, contactId, attemptNumber: 1, questionIds: [], deadlineAt, submittedAt: new Date(), score: 40, passed: false },
      { evaluationId: evaluation!.id, contactId, attemptNumber: 2, questionIds: [], deadlineAt, submittedAt: new Date(), score: 90, passed: true },
    ]);
    expect(await passedExams(handle.db, contactId, [course.id, other.id])).toEqual(new Set([course.id, other.id])); // other: passed above
    expect(await passedExams(handle.db, contactId, [])).toEqual(new Set());
  });

  it('sums up the exam of each course for my learning: status, best score and attempts left', async () => {
    const [evaluation] = await handle.db.select().from(evaluations).where(eq(evaluations.courseId, 5));
    const before = await examSummaries(handle.db, contactId, [5, 99999]);
    expect([...before.keys()]).toEqual([5]);
    expect(before.get(5)).toEqual({ status: 'not-taken', best: null, attemptsLeft: evaluation!.maxAttempts });
    const deadlineAt = new Date(Date.now() + 60_000);
    await handle.db.insert(examAttempts).values({ evaluationId: evaluation!.id, contactId, attemptNumber: 1, questionIds: [], deadlineAt, submittedAt: new Date(), score: 30, passed: false });
    expect((await examSummaries(handle.db, contactId, [5])).get(5)).toEqual({ status: 'failed', best: 30, attemptsLeft: evaluation!.maxAttempts - 1 });
    await handle.db.insert(examAttempts).values({ evaluationId: evaluation!.id, contactId, attemptNumber: 2, questionIds: [], deadlineAt });
    expect((await examSummaries(handle.db, contactId, [5])).get(5)).toMatchObject({ status: 'in-progress', best: 30 });
    expect(await examSummaries(handle.db, contactId, [])).toEqual(new Map());
  });
});
