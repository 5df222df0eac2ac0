/**
 * Publishing a course's draft: in one transaction, the live course becomes the draft (rows that still
 * exist keep their ids, so progress, captions and certificates stay attached), the completions the
 * change must not take away are kept, the draft is removed and the audit trail records before and
 * after. The answer's `changed` is a catalogue change: every process drops its catalogue and kept pages.
 */
import { and, eq, inArray, notInArray, sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client';
import { businesses, categories, courseCompletions, courseDrafts, courses, RESOURCE_TYPE, resources, subtopics, topics } from '../db/schema';
import { courseCompleted } from '../exams/exams';
import { recordAudit, userRef } from '../privacy/audit.server';
import { catalogChange, type Change } from '../runtime/changes';
import { centsToNumeric, courseDocSchema, missingTranslations, prerequisiteProblem, type CourseDoc, type MissingText, type PrerequisiteProblem } from './authoring';
import { courseRef, liveDoc, newKey, type Tx } from './draft.server';
import { type Step } from '../faults/step';

export type PublishOutcome =
  | { status: 'ok'; version: number; changed: Change[] }
  | { status: 'unknownCourse' }
  | { status: 'noDraft' }
  | { status: 'stale' }
  | { status: 'missingTranslations'; missing: MissingText[] }
  | { status: 'prerequisite'; problem: PrerequisiteProblem }
  | { status: 'unknownCategory' }
  | { status: 'forgedItem' };

const TYPE_OF_KIND = { video: RESOURCE_TYPE.video, pdf: RESOURCE_TYPE.pdf, link: RESOURCE_TYPE.link } as const;

/** What the audit trail keeps of a document: its settings and outline (ids, or `new`), not its long texts. */
export function auditSummary(doc: CourseDoc): Record<string, unknown> {
  const { modules, descriptionEs: _es, descriptionEn: _en, ...settings } = doc;
  return { ...settings, modules: modules.map((m) => ({ id: m.id ?? 'new', nameEs: m.nameEs, lessons: m.lessons.map((l) => l.id ?? 'new') })) };
}

/** What a publication tells of each point it reaches (`outline-cleared`, `module-written`, `committed`): the fault tests stop the process there. */
export type PublishStep = Step;

/** Publishes the course's draft (see the top of this file). */
export async function publishDraft(db: Db, actorId: number, courseId: number, now = new Date(), step: PublishStep = () => undefined): Promise<PublishOutcome> {
  const outcome = await db.transaction(async (tx): Promise<PublishOutcome> => {
    const [course] = await tx.select({ version: courses.version }).from(courses).where(eq(courses.id, courseId)).for('update');
    if (!course) return { status: 'unknownCourse' } as const;
    const [draft] = await tx.select().from(courseDrafts).where(eq(courseDrafts.courseId, courseId));
    const parsed = draft ? courseDocSchema.safeParse(draft.document) : null;
    if (!draft || !parsed?.success) return { status: 'noDraft' } as const;
    if (draft.baseVersion !== course.version) return { status: 'stale' } as const;
    const doc = parsed.data;
    const missing = missingTranslations(doc);
    if (missing.length) return { status: 'missingTranslations', missing } as const;
    const graph = new Map((await tx.select({ id: courses.id, pre: courses.prerequisiteCourseId }).from(courses)).map((r) => [r.id, r.pre]));
    const problem = prerequisiteProblem(courseId, doc.prerequisiteCourseId, graph);
    if (problem) return { status: 'prerequisite', problem } as const;
    const [cat] = await tx.select({ id: categories.id }).from(categories).where(eq(categories.id, doc.categoryId));
    const [biz] = await tx.select({ id: businesses.id }).from(businesses).where(eq(businesses.id, doc.businessId));
    if (!cat || !biz) return { status: 'unknownCategory' } as const;
    const before = (await liveDoc(tx, courseId))!;
    if (!ownsEveryItem(before, doc)) return { status: 'forgedItem' } as const;

    await keepCompletions(tx, courseId, now);
    const version = course.version + 1;
    await tx
      .update(courses)
      .set({
        nameEs: doc.nameEs,
        nameEn: doc.nameEn,
        descriptionEs: doc.descriptionEs,
        descriptionEn: doc.descriptionEn,
        thumbnail: doc.thumbnail,
        categoryId: doc.categoryId,
        businessId: doc.businessId,
        price: centsToNumeric(doc.priceCents),
        allowAll: doc.allowAll,
        isTest: doc.isTest,
        visibleOnlyToBuyers: doc.visibleOnlyToBuyers,
        hidden: doc.hidden,
        prerequisiteCourseId: doc.prerequisiteCourseId,
        version,
        updatedAt: now,
      })
      .where(eq(courses.id, courseId));
    await applyOutline(tx, courseId, before, doc, step);
    await tx.delete(courseDrafts).where(eq(courseDrafts.courseId, courseId));
    await recordAudit(tx, { action: 'course.published', actor: userRef(actorId), subject: courseRef(courseId), before: { version: course.version, ...auditSummary(before) }, after: { version, ...auditSummary(doc) }, at: now });
    return { status: 'ok', version, changed: [catalogChange()] } as const;
  });
  if (outcome.status === 'ok') await step('committed');
  return outcome;
}

/** Every id the draft names belongs to this course's live rows (a forged or another course's id is never written). */
function ownsEveryItem(live: CourseDoc, doc: CourseDoc): boolean {
  const ids = (d: CourseDoc) => ({
    modules: new Set(d.modules.flatMap((m) => (m.id ? [m.id] : []))),
    lessons: new Set(d.modules.flatMap((m) => m.lessons.flatMap((l) => (l.id ? [l.id] : [])))),
    resources: new Set(d.modules.flatMap((m) => m.lessons.flatMap((l) => l.resources.flatMap((r) => (r.id ? [r.id] : []))))),
  });
  const have = ids(live);
  const want = ids(doc);
  return [...want.modules].every((id) => have.modules.has(id)) && [...want.lessons].every((id) => have.lessons.has(id)) && [...want.resources].every((id) => have.resources.has(id));
}

/**
 * Makes the live outline the draft's: rows gone from the draft are deleted (their progress goes with
 * them: a removed lesson no longer counts), the others updated in place, new ones inserted. Positions
 * are first moved out of the way (negative), so the unique (parent, position) indexes hold at every step.
 */
async function applyOutline(tx: Tx, courseId: number, live: CourseDoc, doc: CourseDoc, step: PublishStep): Promise<void> {
  const keptModules = doc.modules.flatMap((m) => (m.id ? [m.id] : []));
  const keptLessons = doc.modules.flatMap((m) => m.lessons.flatMap((l) => (l.id ? [l.id] : [])));
  const keptResources = doc.modules.flatMap((m) => m.lessons.flatMap((l) => l.resources.flatMap((r) => (r.id ? [r.id] : []))));
  const liveLessons = live.modules.flatMap((m) => m.lessons.map((l) => l.id!));
  const liveModules = live.modules.map((m) => m.id!);
  if (liveLessons.length) {
    await tx.delete(resources).where(and(inArray(resources.subtopicId, liveLessons), keptResources.length ? notInArray(resources.id, keptResources) : sql`true`));
    await tx.delete(subtopics).where(and(inArray(subtopics.id, liveLessons), keptLessons.length ? notInArray(subtopics.id, keptLessons) : sql`true`));
  }
  if (liveModules.length) await tx.delete(topics).where(and(eq(topics.courseId, courseId), keptModules.length ? notInArray(topics.id, keptModules) : sql`true`));
  if (keptResources.length) await tx.update(resources).set({ position: sql`-${resources.id}` }).where(inArray(resources.id, keptResources));
  if (keptLessons.length) await tx.update(subtopics).set({ position: sql`-${subtopics.id}` }).where(inArray(subtopics.id, keptLessons));
  if (keptModules.length) await tx.update(topics).set({ position: sql`-${topics.id}` }).where(inArray(topics.id, keptModules));
  await step('outline-cleared');

  for (const [mi, m] of doc.modules.entries()) {
    const topicId = m.id
      ? (await tx.update(topics).set({ nameEs: m.nameEs, nameEn: m.nameEn, position: mi + 1 }).where(eq(topics.id, m.id)).returning({ id: topics.id }))[0]!.id
      : (await tx.insert(topics).values({ courseId, code: `C${courseId}-${newKey()}`, nameEs: m.nameEs, nameEn: m.nameEn, position: mi + 1 }).returning({ id: topics.id }))[0]!.id;
    for (const [li, l] of m.lessons.entries()) {
      const values = { topicId, nameEs: l.nameEs, nameEn: l.nameEn, summaryEs: l.summaryEs, summaryEn: l.summaryEn, position: li + 1 };
      const lessonId = l.id
        ? (await tx.update(subtopics).set(values).where(eq(subtopics.id, l.id)).returning({ id: subtopics.id }))[0]!.id
        : (await tx.insert(subtopics).values({ ...values, code: `C${courseId}-${newKey()}` }).returning({ id: subtopics.id }))[0]!.id;
      for (const [ri, r] of l.resources.entries()) {
        const row = { subtopicId: lessonId, typeId: TYPE_OF_KIND[r.kind], titleEs: r.titleEs, titleEn: r.titleEn, url: r.url, mediaFileId: r.mediaFileId, position: ri + 1 };
        if (r.id) await tx.update(resources).set(row).where(eq(resources.id, r.id));
        else await tx.insert(resources).values(row);
      }
    }
    await step('module-written');
  }
}

/**
 * Records every contact who has completed the course now (every lesson, and the exam when it has one
 * with questions), so the publication cannot take the completion away by adding lessons.
 */
async function keepCompletions(tx: Tx, courseId: number, now: Date): Promise<void> {
  const rows = await queryRows<{ contact_id: number; done: number; total: number; has_exam: boolean; passed: boolean }>(
    tx as unknown as Db,
    sql`with lessons as (select s.id from ${subtopics} s join ${topics} t on t.id = s.topic_id where t.course_id = ${courseId}
        and exists(select 1 from ${resources} r where r.subtopic_id = s.id and r.type_id = ${RESOURCE_TYPE.video})),
      exam as (select e.id from ${sql.raw('evaluations')} e where e.course_id = ${courseId} and exists(select 1 from ${sql.raw('questions')} q where q.evaluation_id = e.id))
    select tr.contact_id, count(*)::int as done, (select count(*) from lessons)::int as total,
      exists(select 1 from exam) as has_exam,
      exists(select 1 from ${sql.raw('exam_attempts')} a where a.evaluation_id in (select id from exam) and a.contact_id = tr.contact_id and a.passed) as passed
    from ${sql.raw('tracking')} tr where tr.subtopic_id in (select id from lessons) and tr.completed_at is not null
    group by tr.contact_id`,
  );
  const done = rows.filter((r) => courseCompleted({ lessonsTotal: r.total, lessonsCompleted: r.done, hasExam: r.has_exam, examPassed: r.passed })).map((r) => r.contact_id);
  if (done.length) await tx.insert(courseCompletions).values(done.map((contactId) => ({ contactId, courseId, keptAt: now }))).onConflictDoNothing();
}
