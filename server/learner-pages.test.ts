/**
 * The site knows the learner: the home page's "Continue learning" row, the course page's progress,
 * ticks and next step, what a certificate unlocked on "my learning". These pages are kept for each
 * learner alone and dropped when their progress changes, so one learner never sees another's.
 * Skipped without a build (`npm run build`).
 */
import { and, asc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../src/lib/db/client';
import { contacts, examAttempts, questionOptions, subtopics, topics, tracking, users } from '../src/lib/db/schema';
import { siteBuilt, startBuiltSite, type BuiltSite } from './built-site.testing';

if (!siteBuilt) console.warn('The learner page tests are skipped: they need a build (`npm run build`).');

describe.skipIf(!siteBuilt)('pages that show a learner their own progress', () => {
  let built: BuiltSite;
  let db: DbHandle;

  beforeAll(async () => {
    built = await startBuiltSite();
    ({ db } = built);
  });

  afterAll(() => built?.close());

  const logIn = (email: string, password: string) => built.logIn(email, password);
  const page = async (path: string, cookie: string) => {
    const r = await built.get(path, cookie);
    expect(r.status, path).toBe(200);
    return r.text();
  };

  /** The learner's contact and the lessons of course 1 in the course's order. */
  async function learnerAndLessons(email: string) {
    const [contact] = await db.db
      .select({ id: contacts.id })
      .from(contacts)
      .innerJoin(users, eq(users.id, contacts.userId))
      .where(eq(users.email, email));
    const lessons = await db.db
      .select({ id: subtopics.id, name: subtopics.nameEs })
      .from(subtopics)
      .innerJoin(topics, eq(topics.id, subtopics.topicId))
      .where(eq(topics.courseId, 1))
      .orderBy(asc(topics.position), asc(subtopics.position));
    expect(contact, 'the demo learner has a contact').toBeDefined();
    expect(lessons.length).toBeGreaterThan(2);
    return { contactId: contact!.id, lessons };
  }

  it('the home page and the course page follow a learner’s progress, and show it to nobody else', async () => {
    const laura = await logIn('learner@academia.example', 'Aprende2026');
    const tomas = await logIn('buyer@academia.example', 'Compra2026');
    const { contactId, lessons } = await learnerAndLessons('learner@academia.example');

    // Nothing started: no row on the home page, the course offers to start.
    expect(await page('/', laura)).not.toContain('Continúa aprendiendo');
    const before = await page('/courses-details/1', laura);
    expect(before).toContain('Puedes empezar este curso ahora.');
    expect(before).not.toContain('Tu avance');

    // Two lessons done (what the tracker stores), then the change it tells.
    await db.db.insert(tracking).values(
      lessons.slice(0, 2).map((l) => ({ contactId, courseId: 1, subtopicId: l.id, lastPosition: '8', furthestPosition: '8', completedAt: new Date(), updatedAt: new Date() })),
    );
    built.runtime.pagesChanged(contactId);

    const home = await page('/', laura);
    expect(home).toContain('Continúa aprendiendo');
    expect(home).toContain(`Siguiente: ${lessons[2]!.name}`);
    const course = await page('/courses-details/1', laura);
    expect(course).toContain('Tu avance');
    expect(course).toContain('Continuar el curso');
    expect(course).not.toContain('Puedes empezar este curso ahora.');
    expect(course.match(/<li class="done/g) ?? []).toHaveLength(2);
    expect(course).toContain(`aria-valuenow="${Math.floor((2 * 100) / lessons.length)}"`);
    const en = await page('/en/courses-details/1', laura);
    expect(en).toContain('Your progress');
    expect(en).toContain('Continue the course');

    // Another learner, and a visitor, see none of it.
    expect(await page('/', tomas)).not.toContain('Continúa aprendiendo');
    const theirs = await page('/courses-details/1', tomas);
    expect(theirs).not.toContain('Tu avance');
    expect(theirs).not.toContain('<li class="done');
    const visitor = await (await built.get('/courses-details/1')).text();
    expect(visitor).not.toContain('Tu avance');
    expect(visitor).not.toContain('Continúa aprendiendo');
  });

  it('a course whose lessons are all watched leads to its exam; a completed one says so and names what it unlocked', async () => {
    const ready = await logIn('ready@academia.example', 'Examen2026');
    const course2 = await page('/courses-details/2', ready);
    expect(course2).toContain('Ya viste todas las lecciones de este curso.');
    expect(course2).toContain('href="/course-exam-info/2"');
    expect(await page('/', ready)).toContain('Presentar el examen');

    const graduate = await logIn('graduate@academia.example', 'Gradua2026');
    const course31 = await page('/en/courses-details/31', graduate);
    expect(course31).toContain('You have completed this course.');
    expect(course31).toContain('Your certificate unlocked:');
    expect(course31).toContain('href="/en/courses-details/32"');
    const mine = await page('/en/mylearning', graduate);
    expect(mine).toContain('Your certificate unlocked:');
    expect(mine).toContain('href="/en/courses-details/32"');
    // Completed courses are not "in progress".
    expect(await page('/en', graduate)).not.toContain('Continue learning');
  });

  it('a learner’s kept course page is answered again until their progress is told, then rendered anew', async () => {
    const laura = await logIn('learner@academia.example', 'Aprende2026');
    const { contactId, lessons } = await learnerAndLessons('learner@academia.example');
    const first = await page('/courses-details/1', laura);
    const ticks = (first.match(/<li class="done/g) ?? []).length;
    await db.db
      .update(tracking)
      .set({ completedAt: new Date() })
      .where(and(eq(tracking.contactId, contactId), eq(tracking.subtopicId, lessons[2]!.id)));
    await db.db.insert(tracking).values({ contactId, courseId: 1, subtopicId: lessons[2]!.id, completedAt: new Date() }).onConflictDoNothing();
    // Kept: the same page until a change is told.
    expect((await page('/courses-details/1', laura)).match(/<li class="done/g) ?? []).toHaveLength(ticks);
    built.runtime.pagesChanged(contactId);
    expect((await page('/courses-details/1', laura)).match(/<li class="done/g) ?? []).toHaveLength(ticks + 1);
  });

  it('a refused exam start that graded an attempt whose time was up drops the learner’s kept pages, as a granted one would', async () => {
    // Runs last: the ready learner passes course 2 here.
    const ready = await logIn('ready@academia.example', 'Examen2026');
    const start = () =>
      fetch(`${built.base}/_actions/exams.start`, {
        method: 'POST',
        headers: { origin: built.base, cookie: ready, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ course: '2', lang: 'es' }),
      });
    const started = await start();
    expect(started.status, await started.text()).toBe(200);
    // The course page, kept with the attempt in progress (once the start's own change has reached the cache).
    const kept = async () => {
      const r = await built.get('/courses-details/2', ready);
      return { cache: r.headers.get('x-page-cache'), body: await r.text() };
    };
    await expect.poll(async () => (await kept()).cache, { timeout: 10_000 }).toBe('hit');
    expect((await kept()).body).toContain('Continuar el examen');

    // Every answer right, and the time up (beyond the grace), written behind the site's back.
    const [{ contactId }] = (await db.db.select({ contactId: contacts.id }).from(contacts).innerJoin(users, eq(users.id, contacts.userId)).where(eq(users.email, 'ready@academia.example'))) as [{ contactId: number }];
    const [attempt] = await db.db.select().from(examAttempts).where(eq(examAttempts.contactId, contactId));
    const right = await db.db.select({ questionId: questionOptions.questionId, id: questionOptions.id }).from(questionOptions).where(and(inArray(questionOptions.questionId, attempt!.questionIds), eq(questionOptions.isCorrect, true)));
    const answers: Record<string, number[]> = {};
    for (const o of right) (answers[o.questionId] ??= []).push(o.id);
    await db.db.update(examAttempts).set({ answers, deadlineAt: new Date(Date.now() - 60 * 60_000) }).where(eq(examAttempts.id, attempt!.id));

    // Starting again grades it (a pass) and is refused: already passed. The kept course page is dropped
    // (kept, it would say the exam is in progress for ever).
    const refused = await start();
    expect(refused.status).toBe(403);
    await refused.text();
    await expect.poll(async () => (await kept()).body, { timeout: 10_000 }).toContain('Completaste este curso.');
    expect((await kept()).body).not.toContain('Continuar el examen');
  });
});
