/**
 * A page view that grades an exam attempt whose time is up (PGlite, a whole runtime): the page tells
 * the runtime what its loader's read changed, as `/course-result` does, and the pages kept for the
 * person stop answering: their own pages (my learning) after any grade; after a pass, the pages kept
 * for their old access context too (the course is completed).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { testDatabases } from '../db/testing';
import type { DbHandle } from '../db/client';
import * as s from '../db/schema';
import { catalogContext } from '../app.server';
import { keep, lookUp } from '../http/page-cache';
import { createSession, type SessionInfo } from '../identity/session.server';
import { tellChanges } from '../runtime/changes';
import type { Runtime } from '../runtime/runtime.server';
import { testRuntime } from '../testing/runtime';
import { correctOptions } from './exams';
import { saveAnswer, startAttempt } from './exams.server';
import { type CourseExam } from './exam-source.server';
import { loadExamResult } from './pages.server';

const [pglite] = await testDatabases();
const MINUTE = 60_000;

describe('a page view that grades an attempt whose time is up', () => {
  let handle: DbHandle;
  let runtime: Runtime;
  let session: SessionInfo;
  let contactId: number;
  let exam: CourseExam;

  /** The person's page at `path` as the page cache answers it: from what it kept (`hit`), or rendered now and kept (`miss`). */
  const view = async (path: string, declared: 'own' | 'shared' = 'own'): Promise<'hit' | 'miss'> => {
    const lookup = await lookUp(runtime, { url: new URL(path, 'http://localhost:4321'), session });
    if (lookup.hit) return 'hit';
    const rendered = new Response(`<p>${path}</p>`, { headers: { 'content-type': 'text/html' } });
    const kept = await keep(runtime, lookup, { method: 'GET', ifNoneMatch: null, personal: true }, rendered, { sharedPage: declared === 'shared', ownPage: declared === 'own', setsCookies: false });
    expect(kept).not.toBeNull();
    return 'miss';
  };
  /** What `/course-result?course=1` does: load the page, then tell the runtime what reading it changed. */
  const viewResult = async (now: number) => {
    const { db, catalog, viewer } = await catalogContext({ runtime, identity: session.identity });
    const { page, changed } = await loadExamResult(db, catalog, viewer, 1, null, 'es', now, runtime.exams.get);
    await tellChanges(runtime, changed);
    return page;
  };
  /** An attempt started long ago and never submitted (its time and grace are over), answered right or not at all. */
  const forgottenAttempt = async (right: boolean) => {
    const started = await startAttempt(handle.db, exam, contactId, Date.now() - 2 * exam.settings.minutes * MINUTE);
    if (!started.ok) throw new Error(started.error);
    if (right) for (const id of started.attempt.drawn.questionIds) await saveAnswer(handle.db, exam, contactId, started.attempt.id, id, correctOptions(exam.pool.find((q) => q.id === id)!), started.attempt.startedAt);
    return started.attempt;
  };

  beforeAll(async () => {
    handle = await pglite!.create({ seed: true });
    runtime = await testRuntime(handle);
    const [user] = await handle.db.select().from(s.users).where(eq(s.users.email, 'learner@academia.example'));
    contactId = (await handle.db.select().from(s.contacts).where(eq(s.contacts.userId, user!.id)))[0]!.id;
    session = (await runtime.sessions.read((await createSession(handle.db, { kind: 'user', userId: user!.id })).token))!;
    exam = (await runtime.exams.get(1))!;
  });
  beforeEach(async () => {
    await handle.db.delete(s.examAttempts).where(eq(s.examAttempts.contactId, contactId));
    await handle.db.delete(s.tracking).where(eq(s.tracking.contactId, contactId));
    // Every lesson of course 1 completed: its exam passed completes it.
    await handle.db.execute(sql`insert into tracking (contact_id, course_id, subtopic_id, completed_at)
      select ${contactId}, 1, s.id, now() from subtopics s join topics t on t.id = s.topic_id where t.course_id = 1`);
    await runtime.personChanged({ contactId });
  });
  afterAll(async () => {
    await runtime?.close();
    await handle?.close();
  });

  it("a fail makes the person's own pages stale, and keeps what they may see", async () => {
    const attempt = await forgottenAttempt(false);
    expect(await view('/mylearning')).toBe('miss');
    expect(await view('/mylearning')).toBe('hit');
    // Read while the attempt was still open: nothing graded, nothing told.
    expect(await viewResult(attempt.startedAt)).toMatchObject({ kind: 'none', inProgress: true });
    expect(await view('/mylearning')).toBe('hit');
    const viewer = await runtime.store.viewer(session.identity);
    expect(await viewResult(Date.now())).toMatchObject({ kind: 'result', passed: false });
    expect(await view('/mylearning')).toBe('miss');
    expect(await runtime.store.viewer(session.identity)).toBe(viewer);
  });

  it('a pass makes the person a new access context: their own pages and the course pages kept for the old one stop answering them', async () => {
    await forgottenAttempt(true);
    expect(await view('/mylearning')).toBe('miss');
    expect(await view('/courses-details/1', 'shared')).toBe('miss');
    expect(await view('/mylearning')).toBe('hit');
    expect(await view('/courses-details/1', 'shared')).toBe('hit');
    expect((await runtime.store.viewer(session.identity)).completed.has(1)).toBe(false);
    expect(await viewResult(Date.now())).toMatchObject({ kind: 'result', passed: true });
    expect((await runtime.store.viewer(session.identity)).completed.has(1)).toBe(true);
    expect(await view('/mylearning')).toBe('miss');
    expect(await view('/courses-details/1', 'shared')).toBe('miss');
  });
});
