/** Loads what the access rules need to know about a person: purchases, completed courses, memberships. */
import { and, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { memberships, plans, purchaseAccess, subtopics, topics, tracking } from '../db/schema';
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
        .where(and(eq(memberships.userId, identity.userId), gt(memberships.endsAt, now))),
    ]);
    for (const b of bought) purchased.add(b.courseId);
    for (const m of active) for (const c of m.unlocks) membershipCategories.add(c);
  }
  const completed = new Set<number>();
  if (identity.contactId !== null) {
    // A course is completed when every one of its lessons is.
    const rows = await db
      .select({ courseId: topics.courseId })
      .from(topics)
      .innerJoin(subtopics, eq(subtopics.topicId, topics.id))
      .leftJoin(tracking, and(eq(tracking.subtopicId, subtopics.id), eq(tracking.contactId, identity.contactId)))
      .groupBy(topics.courseId)
      .having(sql`count(*) = count(${tracking.completedAt})`);
    for (const r of rows) completed.add(r.courseId);
  }
  return { kind: identity.kind, userId: identity.userId, contactId: identity.contactId, purchased, completed, membershipCategories };
}
