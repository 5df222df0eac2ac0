/** Loads what the access rules need to know about a person: purchases, completed courses, memberships. */
import { and, eq, exists, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { evaluations, examAttempts, memberships, plans, purchaseAccess, questions, subtopics, topics, tracking } from '../db/schema';
import { courseCompleted } from '../exams/exams';
import { VISITOR, type Viewer } from './access';

/** Who a request belongs to, as the session says (filled in by the identity layer). */
export interface Identity {
  kind: Viewer['kind'];
  userId: number | null;
  contactId: number | null;
}

/** Builds the viewer for an identity; a visitor needs no query at all. */
export async function loadViewer(db: Db, identity: Identity | null | undefined, now = new Date()): Promise<Viewer> {
  if (!identity || identity.kind === 'visitor') return VISITOR;
  const purchased = new Set<number>();
  const membershipCategories = new Set<number>();
  if (identity.userId !== null) {
    const [bought, active] = await Promise.all([
      db.select({ courseId: purchaseAccess.courseId }).from(purchaseAccess).where(eq(purchaseAccess.userId, identity.userId)),
      db
        .select({ unlocks: plans.unlocksCategoryIds })
        .from(memberships)
        .innerJoin(plans, eq(plans.id, memberships.planId))
        // Paid for until `endsAt`, or in the grace after a failed renewal (membership.ts `accessUntil`).
        .where(and(eq(memberships.userId, identity.userId), or(gt(memberships.endsAt, now), and(isNull(memberships.cancelledAt), gt(memberships.graceUntil, now))))),
    ]);
    for (const b of bought) purchased.add(b.courseId);
    for (const m of active) for (const c of m.unlocks) membershipCategories.add(c);
  }
  const completed = identity.contactId === null ? new Set<number>() : await completedCourses(db, identity.contactId);
  return { kind: identity.kind, userId: identity.userId, contactId: identity.contactId, purchased, completed, membershipCategories };
}

/**
 * The courses a contact completed (exams `courseCompleted`): every lesson completed and, for a course
 * with an exam, the exam passed. An exam without questions cannot be taken, so it does not hold a
 * course back. Two queries: the courses whose lessons are all completed, then their exams.
 */
export async function completedCourses(db: Db, contactId: number): Promise<Set<number>> {
  const lessonsDone = await db
    .select({ courseId: topics.courseId, total: sql<number>`count(*)::int`, done: sql<number>`count(${tracking.completedAt})::int` })
    .from(topics)
    .innerJoin(subtopics, eq(subtopics.topicId, topics.id))
    .leftJoin(tracking, and(eq(tracking.subtopicId, subtopics.id), eq(tracking.contactId, contactId)))
    .groupBy(topics.courseId)
    .having(sql`count(*) = count(${tracking.completedAt})`);
  if (lessonsDone.length === 0) return new Set();
  const exams = await db
    .select({ courseId: evaluations.courseId, passed: sql<boolean>`coalesce(bool_or(${examAttempts.passed}), false)` })
    .from(evaluations)
    .leftJoin(examAttempts, and(eq(examAttempts.evaluationId, evaluations.id), eq(examAttempts.contactId, contactId)))
    .where(and(inArray(evaluations.courseId, lessonsDone.map((c) => c.courseId)), exists(db.select({ one: sql`1` }).from(questions).where(eq(questions.evaluationId, evaluations.id)))))
    .groupBy(evaluations.courseId);
  const examOf = new Map(exams.map((e) => [e.courseId, e.passed === true]));
  const completed = new Set<number>();
  for (const c of lessonsDone) {
    const passed = examOf.get(c.courseId);
    if (courseCompleted({ lessonsTotal: c.total, lessonsCompleted: c.done, hasExam: passed !== undefined, examPassed: passed === true })) completed.add(c.courseId);
  }
  return completed;
}
