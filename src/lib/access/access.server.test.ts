import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { testDatabases } from '../db/testing';
import type { DbHandle } from '../db/client';
import { contacts, evaluations, examAttempts, questions, tracking, users } from '../db/schema';
import { loadCatalog, type CatalogSnapshot } from '../catalog';
import { refusal } from './access';
import { completedCourses, loadViewer, type Identity } from './access.server';
import { ViewerCache } from './store.server';

const databases = await testDatabases();

describe.each(databases)('completed courses on $name', ({ create }) => {
  let handle: DbHandle;
  let catalog: CatalogSnapshot;
  let identity: Identity;
  let contactId: number;

  beforeAll(async () => {
    handle = await create({ seed: true });
    catalog = await loadCatalog(handle.db);
    const [row] = await handle.db
      .select({ userId: users.id, contactId: contacts.id })
      .from(users)
      .innerJoin(contacts, eq(contacts.userId, users.id))
      .where(eq(users.email, 'learner@academia.example'));
    contactId = row!.contactId;
    identity = { kind: 'learner', userId: row!.userId, contactId };
  });
  afterAll(async () => {
    await handle?.close();
  });

  const completeLessons = async (courseId: number) => {
    const lessons = catalog.byId.get(courseId)!.modules.flatMap((m) => m.lessons);
    await handle.db
      .insert(tracking)
      .values(lessons.map((l) => ({ contactId, courseId, subtopicId: l.id, lastPosition: '1', furthestPosition: '1', completedAt: new Date() })))
      .onConflictDoUpdate({ target: [tracking.contactId, tracking.subtopicId], set: { completedAt: new Date() } });
  };
  const attempt = async (courseId: number, attemptNumber: number, score: number, passed: boolean) => {
    const [evaluation] = await handle.db.select().from(evaluations).where(eq(evaluations.courseId, courseId));
    await handle.db.insert(examAttempts).values({ evaluationId: evaluation!.id, contactId, attemptNumber, questionIds: [], deadlineAt: new Date(), submittedAt: new Date(), score, passed });
  };

  it('Real Vision basic is not completed by its lessons alone, and the intermediate course stays locked until its exam is passed', async () => {
    const intermediate = catalog.byId.get(32)!;
    const cache = new ViewerCache(handle.db);
    expect(refusal(intermediate, await cache.get(identity))).toBe('prerequisite');

    await completeLessons(31);
    expect((await completedCourses(handle.db, contactId)).has(31)).toBe(false);
    expect(refusal(intermediate, await loadViewer(handle.db, identity))).toBe('prerequisite');

    await attempt(31, 1, 40, false);
    expect((await completedCourses(handle.db, contactId)).has(31)).toBe(false);
    expect(refusal(intermediate, await loadViewer(handle.db, identity))).toBe('prerequisite');

    await attempt(31, 2, 90, true);
    expect((await completedCourses(handle.db, contactId)).has(31)).toBe(true);
    expect(refusal(intermediate, await loadViewer(handle.db, identity))).toBeNull();
    // A kept viewer knows of the pass once the person's change is heard (runtime.personChanged).
    expect(refusal(intermediate, await cache.get(identity))).toBe('prerequisite');
    cache.forget({ contactId });
    expect(refusal(intermediate, await cache.get(identity))).toBeNull();
  });

  it('a passed exam does not complete a course whose lessons are not all completed', async () => {
    await attempt(5, 1, 100, true);
    expect((await completedCourses(handle.db, contactId)).has(5)).toBe(false);
  });

  it('a course without an exam (or with an exam that has no question) is completed by its lessons alone', async () => {
    await handle.db.delete(evaluations).where(eq(evaluations.courseId, 1));
    expect((await completedCourses(handle.db, contactId)).has(1)).toBe(false);
    await completeLessons(1);
    expect((await completedCourses(handle.db, contactId)).has(1)).toBe(true);

    await completeLessons(2);
    expect((await completedCourses(handle.db, contactId)).has(2)).toBe(false);
    const [evaluation] = await handle.db.select().from(evaluations).where(eq(evaluations.courseId, 2));
    await handle.db.delete(questions).where(eq(questions.evaluationId, evaluation!.id));
    expect((await completedCourses(handle.db, contactId)).has(2)).toBe(true);
  });

  it('knows nothing for a contact who completed nothing', async () => {
    const [other] = await handle.db.insert(contacts).values({ firstName: 'N', lastName: 'O', email: `n.${Date.now()}@example.com` }).returning();
    expect(await completedCourses(handle.db, other!.id)).toEqual(new Set());
  });
});
