import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, count, eq, sql } from 'drizzle-orm';
import { testDatabases, testHashCost } from './testing';
import { seed } from './seed/seed.server';
import { queryRows, type DbHandle } from './client';
import * as s from './schema';
import { listCards, loadCatalog, menus } from '~/lib/catalog';
import { completedCourses, loadViewer, refusal, VISITOR } from '~/lib/access';
import { loadExam } from '~/lib/exams/exam-source.server';
import { gradeAttempt } from '~/lib/exams/exams';
import { completedLessons } from '~/lib/learning/progress.server';
import { loadMyLearning } from '~/lib/learning/mylearning.server';
import { coverageLength } from '~/lib/learning/learning';
import { verifyPassword } from '~/lib/identity/password';
import { validateQuestion, type ExamQuestion } from '~/lib/exams/exams';
import { resolve } from 'node:path';

const databases = await testDatabases();

describe.each(databases)('database on $name', ({ create }) => {
  let handle: DbHandle;
  beforeAll(async () => {
    handle = await create({ seed: true });
  });
  afterAll(async () => {
    await handle?.close();
  });

  const total = async (table: Parameters<DbHandle['db']['select']>[0] extends never ? never : any) => {
    const [row] = await handle.db.select({ n: count() }).from(table);
    return row!.n;
  };

  it('seeds the academy’s categories and business lines', async () => {
    const catalog = await loadCatalog(handle.db);
    const cats = menus(catalog, 'es').categories;
    expect(cats.map((c) => c.id)).toEqual([2, 3, 4, 5]);
    expect(cats.map((c) => c.name)).toEqual(['Introductorio', 'Básico', 'Intermedio', 'Entrenamientos']);
    expect(menus(catalog, 'en').categories.map((c) => c.name)).toEqual(['Introductory', 'Basic', 'Intermediate', 'Trainings']);
    expect(menus(catalog, 'en').businesses.length).toBeGreaterThanOrEqual(3);
  });

  it('seeds at least 14 courses covering every catalogue and access rule', async () => {
    const rows = await handle.db.select().from(s.courses);
    expect(rows.length).toBeGreaterThanOrEqual(14);
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(32)!.prerequisiteCourseId).toBe(31);
    expect(byId.get(10)!.visibleOnlyToBuyers).toBe(true);
    expect(byId.get(16)!.visibleOnlyToBuyers).toBe(true);
    expect(rows.some((r) => r.isTest)).toBe(true);
    expect(rows.some((r) => r.allowAll)).toBe(true);
    expect(rows.some((r) => Number(r.price) > 0)).toBe(true);
    expect(rows.some((r) => !r.allowAll && Number(r.price) === 0 && !r.isTest)).toBe(true); // members only
    expect(rows.every((r) => r.applicationId === 10)).toBe(true);
    for (const c of [2, 3, 4, 5]) expect(rows.some((r) => r.categoryId === c), `category ${c}`).toBe(true);
  });

  it('gives every course 2–4 modules of 2–4 lessons, each with a video and captions in both languages', async () => {
    const perCourse = await handle.db
      .select({ courseId: s.topics.courseId, modules: sql<number>`count(distinct ${s.topics.id})::int` })
      .from(s.topics)
      .groupBy(s.topics.courseId);
    expect(perCourse.length).toBe(await total(s.courses));
    for (const c of perCourse) {
      expect(c.modules).toBeGreaterThanOrEqual(2);
      expect(c.modules).toBeLessThanOrEqual(4);
    }
    const perModule = await handle.db
      .select({ topicId: s.subtopics.topicId, lessons: count() })
      .from(s.subtopics)
      .groupBy(s.subtopics.topicId);
    for (const m of perModule) {
      expect(m.lessons).toBeGreaterThanOrEqual(2);
      expect(m.lessons).toBeLessThanOrEqual(4);
    }
    const videos = await handle.db.select().from(s.resources).where(eq(s.resources.typeId, s.RESOURCE_TYPE.video));
    expect(videos.length).toBe(await total(s.subtopics));
    const captions = await total(s.captions);
    expect(captions).toBe(videos.length * 2);
    const [clip] = await handle.db.select().from(s.mediaFiles).where(eq(s.mediaFiles.storageKey, 'video/clip-1.webm'));
    expect(clip!.sizeBytes).toBeGreaterThan(10_000);
    expect(Number(clip!.durationSeconds)).toBeGreaterThan(1);
  });

  it('gives every course an evaluation whose pool is larger than one attempt, every question well formed for its kind', async () => {
    const evals = await handle.db.select().from(s.evaluations);
    expect(evals.length).toBe(await total(s.courses));
    const pool = await handle.db.select({ q: s.questions, o: s.questionOptions }).from(s.questions).innerJoin(s.questionOptions, eq(s.questionOptions.questionId, s.questions.id));
    const byQuestion = new Map<number, ExamQuestion>();
    for (const { q, o } of pool) {
      const question = byQuestion.get(q.id) ?? { id: q.id, kind: q.kind, promptEs: q.promptEs, promptEn: q.promptEn, options: [] };
      byQuestion.set(q.id, { ...question, options: [...question.options, { id: o.id, textEs: o.textEs, textEn: o.textEn, correct: o.isCorrect }] });
    }
    for (const q of byQuestion.values()) expect(validateQuestion(q), `question ${q.id}`).toEqual([]);
    // Every kind is in the demo data.
    expect(new Set([...byQuestion.values()].map((q) => q.kind))).toEqual(new Set(['single', 'multiple', 'true-false']));
    for (const e of evals) {
      const [pool] = await handle.db.select({ n: count() }).from(s.questions).where(eq(s.questions.evaluationId, e.id));
      expect(pool!.n).toBeGreaterThan(e.questionCount);
    }
  });

  it('seeds people of every kind, IBOs active and suspended, books, plans and contact-us type 8', async () => {
    const users = await handle.db.select().from(s.users);
    for (const type of [s.USER_TYPE.learner, s.USER_TYPE.refused, s.USER_TYPE.admin]) expect(users.some((u) => u.userType === type)).toBe(true);
    const learner = users.find((u) => u.email === 'learner@academia.example')!;
    expect(await verifyPassword('Aprende2026', learner.passwordHash!)).toBe(true);
    const ibos = await handle.db.select().from(s.ibos);
    expect(ibos.some((i) => i.status === 'active')).toBe(true);
    expect(ibos.some((i) => i.status === 'suspended')).toBe(true);
    expect(await total(s.books)).toBeGreaterThan(0);
    expect(await total(s.plans)).toBeGreaterThan(0);
    expect(await handle.db.select().from(s.contactUsTypes).where(eq(s.contactUsTypes.id, 8))).toHaveLength(1);
    const buyer = users.find((u) => u.email === 'buyer@academia.example')!;
    const access = await handle.db.select().from(s.purchaseAccess).where(eq(s.purchaseAccess.userId, buyer.id));
    expect(access.map((a) => a.courseId).sort((a, b) => a - b)).toEqual([6, 10, 16]);
    // …and book 1, bought in a paid order of its own (its PDF is downloadable from my shopping).
    const bought = await handle.db
      .select({ kind: s.orderItems.productKind, id: s.orderItems.productId, status: s.orders.status })
      .from(s.orders)
      .innerJoin(s.orderItems, eq(s.orderItems.orderId, s.orders.id))
      .where(eq(s.orders.userId, buyer.id));
    expect(bought.filter((b) => b.kind === 'book')).toEqual([{ kind: 'book', id: 1, status: 'paid' }]);
  });

  const person = async (email: string, password: string) => {
    const [u] = await handle.db.select().from(s.users).where(eq(s.users.email, email));
    expect(u, email).toBeDefined();
    expect(await verifyPassword(password, u!.passwordHash!)).toBe(true);
    const [c] = await handle.db.select().from(s.contacts).where(eq(s.contacts.userId, u!.id));
    return { userId: u!.id, contactId: c!.id, identity: { kind: 'learner' as const, userId: u!.id, contactId: c!.id } };
  };

  it('seeds ready@, who watched every lesson of course 2 to the end but has not taken its exam', async () => {
    const catalog = await loadCatalog(handle.db);
    const course = catalog.byId.get(2)!;
    const lessons = course.modules.flatMap((m) => m.lessons);
    const ready = await person('ready@academia.example', 'Examen2026');
    const viewer = await loadViewer(handle.db, ready.identity);
    expect(refusal(course, viewer)).toBeNull(); // free course: no purchase needed
    expect((await completedLessons(handle.db, ready.contactId, 2)).sort((a, b) => a - b)).toEqual(lessons.map((l) => l.id).sort((a, b) => a - b));
    const rows = await handle.db.select().from(s.tracking).where(eq(s.tracking.contactId, ready.contactId));
    expect(rows).toHaveLength(lessons.length);
    for (const l of lessons) {
      const row = rows.find((r) => r.subtopicId === l.id)!;
      const slots = coverageLength(l.durationSeconds);
      expect(row).toMatchObject({ courseId: 2, watched: '1'.repeat(slots), playedSeconds: `${slots}.00` });
      expect(Number(row.lastPosition)).toBeCloseTo(l.durationSeconds, 2);
      expect(Number(row.furthestPosition)).toBeCloseTo(l.durationSeconds, 2);
      expect(row.completedAt).toBeInstanceOf(Date);
      expect(row.completedAt!.getTime()).toBeLessThanOrEqual(Date.now());
    }
    expect(await handle.db.select().from(s.examAttempts).where(eq(s.examAttempts.contactId, ready.contactId))).toEqual([]);
    // Every lesson, but not the exam: course 2 is not completed, and my learning offers the exam.
    expect(viewer.completed.has(2)).toBe(false);
    expect(await completedCourses(handle.db, ready.contactId)).toEqual(new Set());
    const [card] = await loadMyLearning(handle.db, catalog, viewer, 'es');
    expect(card).toMatchObject({ id: 2, progress: { percent: 100 }, completed: false, exam: { status: 'not-taken', best: null }, after: { kind: 'exam', href: '/course-exam-info/2' } });
    expect(refusal(catalog.byId.get(32)!, viewer)).toBe('prerequisite');
  });

  it('seeds graduate@, who completed course 2 with a passed, graded attempt drawn from its pool, and Real Vision basic, which opens the intermediate course', async () => {
    const catalog = await loadCatalog(handle.db);
    const graduate = await person('graduate@academia.example', 'Gradua2026');
    for (const courseId of [2, 31]) {
      const lessons = catalog.byId.get(courseId)!.modules.flatMap((m) => m.lessons);
      expect((await completedLessons(handle.db, graduate.contactId, courseId)).length, `course ${courseId}`).toBe(lessons.length);
      const exam = (await loadExam(handle.db, courseId))!;
      const attempts = await handle.db
        .select()
        .from(s.examAttempts)
        .where(and(eq(s.examAttempts.contactId, graduate.contactId), eq(s.examAttempts.evaluationId, exam.evaluationId)));
      expect(attempts, `course ${courseId}`).toHaveLength(1);
      const [attempt] = attempts;
      expect(attempt).toMatchObject({ attemptNumber: 1, score: 100, passed: true });
      expect(attempt!.submittedAt!.getTime()).toBeGreaterThan(attempt!.startedAt.getTime());
      expect(attempt!.submittedAt!.getTime()).toBeLessThanOrEqual(attempt!.deadlineAt.getTime());
      expect(attempt!.deadlineAt.getTime() - attempt!.startedAt.getTime()).toBe(exam.settings.minutes * 60_000);
      // A real draw: distinct questions of the pool, each with its own options in a shown order.
      expect(attempt!.questionIds).toHaveLength(exam.settings.questions);
      expect(new Set(attempt!.questionIds).size).toBe(exam.settings.questions);
      const asked = attempt!.questionIds.map((id) => exam.pool.find((q) => q.id === id)!);
      expect(asked.every(Boolean)).toBe(true);
      for (const q of asked) expect([...attempt!.optionOrder[String(q.id)]!].sort((a, b) => a - b)).toEqual(q.options.map((o) => o.id).sort((a, b) => a - b));
      expect(Object.keys(attempt!.answers!).sort()).toEqual(attempt!.questionIds.map(String).sort());
      expect(gradeAttempt(asked, attempt!.answers!).score).toBe(100);
    }
    const viewer = await loadViewer(handle.db, graduate.identity);
    expect(viewer.completed.has(2)).toBe(true);
    expect(viewer.completed.has(31)).toBe(true);
    expect(refusal(catalog.byId.get(32)!, viewer)).toBeNull();
    const cards = await loadMyLearning(handle.db, catalog, viewer, 'en');
    expect(cards.find((c) => c.id === 2)).toMatchObject({ completed: true, exam: { status: 'passed', best: 100 }, after: { kind: 'certificate', href: '/en/course-generate?course=2' } });
  });

  it('is idempotent: seeding again changes no counts and keeps a changed password', async () => {
    const tables = [s.courses, s.topics, s.subtopics, s.resources, s.captions, s.questions, s.questionOptions, s.users, s.contacts, s.ibos, s.orders, s.orderItems, s.purchaseAccess, s.tracking, s.examAttempts];
    const before = await Promise.all(tables.map(total));
    await handle.db.update(s.users).set({ passwordHash: 'changed' }).where(eq(s.users.email, 'admin@academia.example'));
    await seed(handle.db, resolve('media'), testHashCost);
    expect(await Promise.all(tables.map(total))).toEqual(before);
    const [admin] = await handle.db.select().from(s.users).where(eq(s.users.email, 'admin@academia.example'));
    expect(admin!.passwordHash).toBe('changed');
  });

  it("writes the graduate's course-2 certificate with its fixed code once that account exists, and only once", async () => {
    const code = 'ACAD-GRAD-2026-0000-0002';
    // The account comes with the exams' demo data; made here by hand when the seed has none yet.
    await handle.db.delete(s.certificates).where(eq(s.certificates.code, code));
    const [user] = await handle.db.insert(s.users).values({ email: 'graduate@academia.example', firstName: 'Gabriela', lastName: 'Ortiz' }).onConflictDoNothing().returning();
    if (user) await handle.db.insert(s.contacts).values({ userId: user.id, firstName: 'Gabriela', lastName: 'Ortiz', email: 'graduate@academia.example' }).onConflictDoNothing();
    await seed(handle.db, resolve('media'), testHashCost);
    await seed(handle.db, resolve('media'), testHashCost);
    const rows = await handle.db.select().from(s.certificates).where(eq(s.certificates.code, code));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ courseId: 2, revokedAt: null, credential: null });
    expect(rows[0]!.holderName).toMatch(/\S+ \S+/);
  });

  it('lists publicly only courses that are neither test courses nor for buyers only', async () => {
    const catalog = await loadCatalog(handle.db);
    const cards = listCards(catalog, VISITOR, 'en');
    expect(catalog.courses.find((c) => c.id === 1)!.modules.length).toBeGreaterThanOrEqual(2);
    expect(catalog.courses.find((c) => c.id === 1)!.durationSeconds).toBeGreaterThan(0);
    const ids = cards.map((c) => c.id);
    expect(ids).not.toContain(10);
    expect(ids).not.toContain(16);
    const tests = await handle.db.select().from(s.courses).where(eq(s.courses.isTest, true));
    for (const t of tests) expect(ids).not.toContain(t.id);
    expect(cards.find((c) => c.id === 1)!.name).toBe('Welcome to the academy');
  });

  it('enforces the rules in the schema: unique emails regardless of case, no negative price, no self-prerequisite', async () => {
    await expect(
      handle.db.insert(s.users).values({ email: 'LEARNER@academia.example', firstName: 'x', lastName: 'y' }),
    ).rejects.toThrow();
    await expect(handle.db.update(s.courses).set({ price: '-1.00' }).where(eq(s.courses.id, 1))).rejects.toThrow();
    await expect(handle.db.update(s.courses).set({ prerequisiteCourseId: 1 }).where(eq(s.courses.id, 1))).rejects.toThrow();
    const [c] = await handle.db.select().from(s.courses).where(and(eq(s.courses.id, 1)));
    expect(c!.price).toBe('0.00');
  });

  it('has trigram matching available for search', async () => {
    const [row] = await queryRows<{ s: number }>(handle.db, sql`select similarity('viajes', 'viajez') as s`);
    expect(Number(row!.s)).toBeGreaterThan(0.3);
  });
});
