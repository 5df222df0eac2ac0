import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { testDatabases } from '../db/testing';
import type { DbHandle } from '../db/client';
import * as s from '../db/schema';
import { loadViewer, type Identity } from '../access';
import { loadCatalog, type CatalogSnapshot } from '../catalog';
import { loadPlayer } from './player.server';
import { loadMyLearning } from './mylearning.server';
import { findLesson, showsExamPanel } from './player';
import { lastVideo } from './learning';

const databases = await testDatabases();

describe.each(databases)('the player page and my learning on $name', ({ create }) => {
  let handle: DbHandle;
  let catalog: CatalogSnapshot;
  beforeAll(async () => {
    handle = await create({ seed: true });
    catalog = await loadCatalog(handle.db);
  });
  afterAll(async () => {
    await handle?.close();
  });

  const learner = async (email: string): Promise<Identity> => {
    const [u] = await handle.db.select().from(s.users).where(eq(s.users.email, email));
    const [c] = await handle.db.select().from(s.contacts).where(eq(s.contacts.userId, u!.id));
    return { kind: 'learner', userId: u!.id, contactId: c!.id };
  };
  const open = async (identity: Identity | null, courseId: number, target: Parameters<typeof loadPlayer>[4] = { kind: 'course' }, locale: 'es' | 'en' = 'es') =>
    loadPlayer(handle.db, catalog, await loadViewer(handle.db, identity), courseId, target, locale);
  const lessonsOf = (courseId: number) => catalog.byId.get(courseId)!.modules.flatMap((m) => m.lessons.map((l) => l.id));

  it('a visitor and an IBO session without a prospect get the next step (prospect), never the player', async () => {
    expect(await open(null, 1)).toMatchObject({ kind: 'refused', refusal: 'prospect', course: { id: 1 } });
    expect(await open({ kind: 'ibo', userId: null, contactId: null }, 1)).toMatchObject({ kind: 'refused', refusal: 'prospect' });
    expect(await open(null, 3)).toMatchObject({ kind: 'refused', refusal: 'login' });
  });

  it('an IBO session with a prospect watches a free course for that prospect', async () => {
    const [prospect] = await handle.db.insert(s.contacts).values({ firstName: 'P', lastName: 'Q', email: `p.${Date.now()}@example.com` }).returning();
    const page = await open({ kind: 'ibo', userId: null, contactId: prospect!.id }, 1);
    expect(page).toMatchObject({ kind: 'player', contactId: prospect!.id, userId: null });
  });

  it('a learner watches a free course from its first lesson, with its videos, captions and resources', async () => {
    const who = await learner('learner@academia.example');
    const page = await open(who, 1);
    if (page.kind !== 'player') throw new Error(page.kind);
    expect(page).toMatchObject({ contactId: who.contactId, userId: who.userId });
    expect(page.view.currentLessonId).toBe(lessonsOf(1)[0]);
    const all = page.view.modules.flatMap((m) => m.lessons);
    expect(all.every((l) => l.video !== null && l.video.captions.map((c) => c.lang).join() === 'es,en')).toBe(true);
    expect(all.flatMap((l) => l.resources.filter((r) => r.kind === 'pdf')).length).toBeGreaterThan(0);
  });

  it('a paid course not bought is refused (purchase); buyer-only, test and unknown courses are not found', async () => {
    const who = await learner('learner@academia.example');
    expect(await open(who, 8)).toMatchObject({ kind: 'refused', refusal: 'purchase', course: { id: 8 } });
    for (const id of [10, 16, 12, 99999]) expect(await open(who, id), String(id)).toEqual({ kind: 'not-found' });
    expect(await open(await learner('buyer@academia.example'), 10)).toMatchObject({ kind: 'player' });
  });

  it('Real Vision intermediate is refused until the basic course is completed', async () => {
    expect(await open(await learner('learner@academia.example'), 32)).toMatchObject({ kind: 'refused', refusal: 'prerequisite' });
  });

  it('a module address opens its first lesson', async () => {
    const second = catalog.byId.get(1)!.modules[1]!;
    const page = await open(await learner('learner@academia.example'), 1, { kind: 'module', moduleId: second.id });
    expect(page).toMatchObject({ kind: 'player', view: { currentLessonId: second.lessons[0]!.id } });
  });

  it('ids that are not the course’s are not found, whoever asks', async () => {
    const who = await learner('learner@academia.example');
    const other = lessonsOf(2)[0]!;
    expect(await open(who, 1, { kind: 'lesson', lessonId: other })).toEqual({ kind: 'not-found' });
    expect(await open(who, 1, { kind: 'module', moduleId: catalog.byId.get(2)!.modules[0]!.id })).toEqual({ kind: 'not-found' });
    expect(await open(who, 8, { kind: 'lesson', lessonId: other })).toEqual({ kind: 'not-found' });
  });

  it('opens where the person left off, and my learning lists the course with its progress and last lesson', async () => {
    const who = await learner('buyer@academia.example');
    const [l1, l2, l3] = lessonsOf(5);
    const now = Date.now();
    await handle.db.insert(s.tracking).values([
      { contactId: who.contactId!, courseId: 5, subtopicId: l1!, lastPosition: '8', furthestPosition: '8', completedAt: new Date(now - 2000), updatedAt: new Date(now - 2000) },
      { contactId: who.contactId!, courseId: 5, subtopicId: l2!, lastPosition: '3.25', furthestPosition: '3.25', updatedAt: new Date(now - 1000) },
    ]);
    const page = await open(who, 5, { kind: 'course' }, 'en');
    if (page.kind !== 'player') throw new Error(page.kind);
    expect(page.view.currentLessonId).toBe(l2);
    expect(findLesson(page.view, l2!)!.lesson.resumeAt).toBe(3.25);
    expect(findLesson(page.view, l1!)!.lesson.completed).toBe(true);
    const lesson3 = await open(who, 5, { kind: 'lesson', lessonId: l3! });
    expect(lesson3).toMatchObject({ kind: 'player', view: { currentLessonId: l3 } });

    const mine = await loadMyLearning(handle.db, catalog, await loadViewer(handle.db, who), 'en');
    const five = mine.find((c) => c.id === 5)!;
    expect(mine[0]!.id).toBe(5); // the most recently watched first
    expect(five).toMatchObject({ action: 'resume', playerHref: '/en/course-tracking/5', after: null });
    expect(five.progress.completed).toBe(1);
    expect(five.lastLesson?.href).toMatch(new RegExp(`^/en/course-tracking/5/.+/${l2}$`));
    // The courses the buyer bought are there too, to start.
    expect(mine.filter((c) => [6, 10, 16].includes(c.id)).map((c) => c.action)).toEqual(['start', 'start', 'start']);
  });

  it('the last video is the end of the second-to-last module until the exam is passed, then the end of the last module', async () => {
    const who = await learner('admin@academia.example');
    const modules = catalog.byId.get(2)!.modules;
    expect(modules.length).toBeGreaterThanOrEqual(3);
    const endOf = (i: number) => modules[i]!.lessons.at(-1)!.id;
    const before = await open(who, 2);
    if (before.kind !== 'player') throw new Error(before.kind);
    expect(before.view.examPassed).toBe(false);
    expect(lastVideo(before.view, before.view.examPassed)?.lessonId).toBe(endOf(modules.length - 2));
    expect(showsExamPanel(before.view, endOf(modules.length - 2))).toBe(true);

    const [evaluation] = await handle.db.select().from(s.evaluations).where(eq(s.evaluations.courseId, 2));
    const deadlineAt = new Date();
    await handle.db.insert(s.examAttempts).values([
      { evaluationId: evaluation!.id, contactId: who.contactId!, attemptNumber: 1, questionIds: [], deadlineAt, submittedAt: new Date(), score: 40, passed: false },
    ]);
    const failed = await open(who, 2);
    expect(failed).toMatchObject({ kind: 'player', view: { examPassed: false } });

    await handle.db.insert(s.examAttempts).values({ evaluationId: evaluation!.id, contactId: who.contactId!, attemptNumber: 2, questionIds: [], deadlineAt, submittedAt: new Date(), score: 90, passed: true });
    const after = await open(who, 2);
    if (after.kind !== 'player') throw new Error(after.kind);
    expect(after.view.examPassed).toBe(true);
    expect(lastVideo(after.view, after.view.examPassed)?.lessonId).toBe(endOf(modules.length - 1));
    expect(showsExamPanel(after.view, endOf(modules.length - 2))).toBe(false);
    expect(showsExamPanel(after.view, endOf(modules.length - 1))).toBe(true);
  });

  it('my learning is empty for someone who bought and watched nothing', async () => {
    expect(await loadMyLearning(handle.db, catalog, await loadViewer(handle.db, await learner('learner@academia.example')), 'es')).toEqual([]);
  });
});
