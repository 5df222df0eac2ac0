/** Loads what the access rules need to know about a person: purchases, completed courses, memberships. */
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client';
import { courseCompletions, evaluations, examAttempts, memberships, plans, purchaseAccess, questions, resources, RESOURCE_TYPE, subtopics, topics, tracking } from '../db/schema';
import { courseCompleted } from '../exams/exams';
import { VISITOR, type Viewer } from './access';

/** Who a request belongs to, as the session says (filled in by the identity layer). */
export interface Identity {
  kind: Viewer['kind'];
  userId: number | null;
  contactId: number | null;
}

/** Builds the viewer for an identity; a visitor needs no query at all, anyone else one. */
export async function loadViewer(db: Db, identity: Identity | null | undefined, now = new Date()): Promise<Viewer> {
  if (!identity || identity.kind === 'visitor') return VISITOR;
  const purchased = new Set<number>();
  const membershipCategories = new Set<number>();
  // One statement: a person's first request reads their viewer, and on PGlite every query costs about as
  // much as the page's own work. Rows: each purchased course, each category an active membership
  // unlocks, and each course whose lessons the contact completed (with its exam's facts).
  const rows = await queryRows<FactRow>(
    db,
    sql`select 'purchase' as kind, ${purchaseAccess.courseId} as id, null::int as total, null::int as done, null::boolean as has_exam, null::boolean as passed
      from ${purchaseAccess} where ${purchaseAccess.userId} = ${identity.userId}
    union all
    select 'category', jsonb_array_elements_text(${plans.unlocksCategoryIds})::int, null, null, null, null
      from ${memberships} join ${plans} on ${plans.id} = ${memberships.planId}
      -- Paid for until ends_at, or in the grace after a failed renewal (membership.ts accessUntil).
      where ${memberships.userId} = ${identity.userId}
        and (${memberships.endsAt} > ${now.toISOString()} or (${memberships.cancelledAt} is null and ${memberships.graceUntil} > ${now.toISOString()}))
    union all
    ${identity.contactId === null ? sql`select null, null, null, null, null, null where false` : lessonsDoneQuery(identity.contactId)}
    union all
    ${identity.contactId === null ? sql`select null, null, null, null, null, null where false` : keptQuery(identity.contactId)}`,
  );
  for (const r of rows) {
    if (r.kind === 'purchase') purchased.add(r.id);
    else if (r.kind === 'category') membershipCategories.add(r.id);
  }
  const completed = completedOf(rows.filter((r) => r.kind === 'lessons' || r.kind === 'kept'));
  return { kind: identity.kind, userId: identity.userId, contactId: identity.contactId, purchased, completed, membershipCategories };
}

/** One row of `loadViewer`'s statement (`lessons` rows carry the lesson counts and the exam's facts). */
interface FactRow {
  kind: 'purchase' | 'category' | 'lessons' | 'kept';
  id: number;
  total: number | null;
  done: number | null;
  has_exam: boolean | null;
  passed: boolean | null;
}

/**
 * The courses whose lessons the contact all completed (kind `lessons`), each with its lesson counts,
 * whether it has an exam that can be taken (one with questions: an exam without questions does not
 * hold a course back) and whether the contact passed it.
 */
function lessonsDoneQuery(contactId: number) {
  return sql`select 'lessons', ${topics.courseId}, count(*)::int, count(${tracking.completedAt})::int,
      exists(select 1 from ${evaluations} e where e.course_id = ${topics.courseId} and exists(select 1 from ${questions} q where q.evaluation_id = e.id)),
      coalesce((select bool_or(a.passed) from ${evaluations} e join ${examAttempts} a on a.evaluation_id = e.id
        where e.course_id = ${topics.courseId} and a.contact_id = ${contactId} and exists(select 1 from ${questions} q where q.evaluation_id = e.id)), false)
    from ${topics} join ${subtopics} on ${subtopics.topicId} = ${topics.id}
      left join ${tracking} on ${tracking.subtopicId} = ${subtopics.id} and ${tracking.contactId} = ${contactId}
    -- Only the courses the contact completed a lesson of (their tracking rows, by the contact's index), not every course.
    -- A lesson counts once it has its video (as the catalogue shows it): one still without cannot be watched.
    where exists(select 1 from ${resources} r where r.subtopic_id = ${subtopics.id} and r.type_id = ${RESOURCE_TYPE.video})
      and ${topics.courseId} in (select t.course_id from ${tracking} t where t.contact_id = ${contactId} and t.completed_at is not null)
    group by ${topics.courseId}
    having count(*) = count(${tracking.completedAt})`;
}

/**
 * The courses a contact had completed when a publication changed their lessons (kind `kept`): they stay
 * completed whatever lessons were added since.
 */
function keptQuery(contactId: number) {
  return sql`select 'kept', ${courseCompletions.courseId}, null::int, null::int, null::boolean, null::boolean
    from ${courseCompletions} where ${courseCompletions.contactId} = ${contactId}`;
}

/** The completed courses among those whose lessons are all done (exams `courseCompleted`), and those kept completed. */
function completedOf(rows: FactRow[]): Set<number> {
  const completed = new Set<number>();
  for (const c of rows) {
    if (c.kind === 'kept') {
      completed.add(c.id);
      continue;
    }
    if (courseCompleted({ lessonsTotal: c.total ?? 0, lessonsCompleted: c.done ?? 0, hasExam: c.has_exam === true, examPassed: c.passed === true })) completed.add(c.id);
  }
  return completed;
}

/**
 * The courses a contact completed (exams `courseCompleted`): every lesson completed and, for a course
 * with an exam, the exam passed. An exam without questions cannot be taken, so it does not hold a
 * course back. One query.
 */
export async function completedCourses(db: Db, contactId: number): Promise<Set<number>> {
  return completedOf(await queryRows<FactRow>(db, sql`select * from (${lessonsDoneQuery(contactId)} union all ${keptQuery(contactId)}) as lessons(kind, id, total, done, has_exam, passed)`));
}
