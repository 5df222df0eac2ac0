/**
 * Course drafts in the database: a course's document as the editor left it (the live course until a
 * first edit), the editors' list, a new course (hidden, with its draft), each edit saved to the draft
 * and a draft discarded. Nothing here touches what learners see: `publish.server.ts` does.
 */
import { randomBytes } from 'node:crypto';
import { and, asc, eq, inArray, like, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { businesses, categories, courseDrafts, courses, mediaFiles, RESOURCE_TYPE, resources, subtopics, topics, videos, type Course } from '../db/schema';
import { recordAudit, userRef } from '../privacy/audit.server';
import { courseDocSchema, courseStateOf, liveKey, matchesSearch, numericToCents, type CourseDoc, type CourseState, type ResourceKind } from './authoring';
import type { EditResult } from './edits';

export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** A course as the audit trail and the list name it. */
export const courseRef = (courseId: number) => `course:${courseId}`;
/** A key for an item added in a draft. */
export const newKey = (): string => `n${randomBytes(6).toString('hex')}`;
/** The picture a new course shows until it has its own. */
export const PLACEHOLDER_THUMBNAIL = '/images/courses/1.webp';

const KIND_OF_TYPE: Record<number, ResourceKind> = { [RESOURCE_TYPE.video]: 'video', [RESOURCE_TYPE.pdf]: 'pdf', [RESOURCE_TYPE.link]: 'link' };

/** The live course as a document (ids kept, so a publication updates these rows), or null when there is no such course. */
export async function liveDoc(db: Db | Tx, courseId: number): Promise<CourseDoc | null> {
  const [course] = await db.select().from(courses).where(eq(courses.id, courseId));
  if (!course) return null;
  const mods = await db.select().from(topics).where(eq(topics.courseId, courseId)).orderBy(asc(topics.position));
  const lessons = mods.length ? await db.select().from(subtopics).where(inArray(subtopics.topicId, mods.map((m) => m.id))).orderBy(asc(subtopics.position)) : [];
  const res = lessons.length ? await db.select().from(resources).where(inArray(resources.subtopicId, lessons.map((l) => l.id))).orderBy(asc(resources.position)) : [];
  return {
    ...courseFields(course),
    modules: mods.map((m) => ({
      key: liveKey('m', m.id),
      id: m.id,
      nameEs: m.nameEs,
      nameEn: m.nameEn,
      lessons: lessons
        .filter((l) => l.topicId === m.id)
        .map((l) => ({
          key: liveKey('l', l.id),
          id: l.id,
          nameEs: l.nameEs,
          nameEn: l.nameEn,
          summaryEs: l.summaryEs,
          summaryEn: l.summaryEn,
          resources: res
            .filter((r) => r.subtopicId === l.id)
            .map((r) => ({ key: liveKey('r', r.id), id: r.id, kind: KIND_OF_TYPE[r.typeId] ?? 'link', titleEs: r.titleEs, titleEn: r.titleEn, url: r.url, mediaFileId: r.mediaFileId })),
        })),
    })),
  };
}

function courseFields(c: Course): Omit<CourseDoc, 'modules'> {
  return {
    code: c.code,
    nameEs: c.nameEs,
    nameEn: c.nameEn,
    descriptionEs: c.descriptionEs,
    descriptionEn: c.descriptionEn,
    thumbnail: c.thumbnail,
    categoryId: c.categoryId,
    businessId: c.businessId,
    priceCents: numericToCents(c.price),
    allowAll: c.allowAll,
    isTest: c.isTest,
    visibleOnlyToBuyers: c.visibleOnlyToBuyers,
    hidden: c.hidden,
    prerequisiteCourseId: c.prerequisiteCourseId,
  };
}

/** What the editor's page shows: the document (the draft, else the live course), and the draft's facts. */
export interface EditorView {
  courseId: number;
  version: number;
  doc: CourseDoc;
  live: CourseDoc;
  draft: { updatedAt: Date; updatedBy: number | null; baseVersion: number; stale: boolean } | null;
}

/** The course's editor view, or null for a course that does not exist. */
export async function editorView(db: Db, courseId: number): Promise<EditorView | null> {
  const live = await liveDoc(db, courseId);
  if (!live) return null;
  const [[course], [draft]] = await Promise.all([db.select({ version: courses.version }).from(courses).where(eq(courses.id, courseId)), db.select().from(courseDrafts).where(eq(courseDrafts.courseId, courseId))]);
  const doc = draft ? courseDocSchema.safeParse(draft.document) : null;
  return {
    courseId,
    version: course!.version,
    live,
    doc: doc?.success ? doc.data : live,
    draft: draft && doc?.success ? { updatedAt: draft.updatedAt, updatedBy: draft.updatedBy, baseVersion: draft.baseVersion, stale: draft.baseVersion !== course!.version } : null,
  };
}

/** One course of the editors' list. */
export interface CourseListItem {
  id: number;
  code: string;
  nameEs: string;
  nameEn: string;
  state: CourseState;
  draftUpdatedAt: Date | null;
}

/** Every course with its state, by id; `query` keeps those whose code or names contain it. */
export async function listCourses(db: Db, query = ''): Promise<CourseListItem[]> {
  const rows = await db
    .select({ id: courses.id, code: courses.code, nameEs: courses.nameEs, nameEn: courses.nameEn, hidden: courses.hidden, isTest: courses.isTest, draftAt: courseDrafts.updatedAt })
    .from(courses)
    .leftJoin(courseDrafts, eq(courseDrafts.courseId, courses.id))
    .orderBy(asc(courses.id));
  return rows.filter((r) => matchesSearch(r, query)).map((r) => ({ id: r.id, code: r.code, nameEs: r.nameEs, nameEn: r.nameEn, state: courseStateOf(r, r.draftAt !== null), draftUpdatedAt: r.draftAt }));
}

/** The categories and business lines a course may belong to, and every course (for the prerequisite list). */
export async function editorChoices(db: Db) {
  const [cats, biz, all] = await Promise.all([
    db.select().from(categories).orderBy(asc(categories.position), asc(categories.id)),
    db.select().from(businesses).orderBy(asc(businesses.position), asc(businesses.id)),
    db.select({ id: courses.id, nameEs: courses.nameEs, nameEn: courses.nameEn, prerequisiteCourseId: courses.prerequisiteCourseId }).from(courses).orderBy(asc(courses.id)),
  ]);
  return { categories: cats, businesses: biz, courses: all };
}

const HLS_MIME = 'application/vnd.apple.mpegurl';

/**
 * A stored file a lesson can play: a plain video file (the demo clips, an imported MP4 or WebM) or the
 * master playlist of a library video that finished converting (read with the `videos` row joined).
 */
const playable = or(like(mediaFiles.mimeType, 'video/%'), and(eq(mediaFiles.mimeType, HLS_MIME), like(mediaFiles.storageKey, '%/master.m3u8'), eq(videos.state, 'ready')));

/** A video a lesson may use: its stored file's id, and the name an editor knows it by. */
export interface VideoChoice {
  id: number;
  /** The library video's title, or the file's name for a plain file. */
  name: string;
  durationSeconds: string | null;
}

/** The videos a lesson may use, by file id: the converted library videos by their titles, and plain video files. */
export async function videoChoices(db: Db): Promise<VideoChoice[]> {
  const rows = await db
    .select({ id: mediaFiles.id, storageKey: mediaFiles.storageKey, durationSeconds: mediaFiles.durationSeconds, title: videos.title })
    .from(mediaFiles)
    .leftJoin(videos, eq(videos.mediaFileId, mediaFiles.id))
    .where(playable)
    .orderBy(asc(mediaFiles.id));
  return rows.map((r) => ({ id: r.id, name: r.title ?? r.storageKey.split('/').pop()!, durationSeconds: r.durationSeconds }));
}

/** Whether `id` is a stored file a lesson can play. */
export async function isVideoFile(db: Db, id: number): Promise<boolean> {
  return (await db.select({ id: mediaFiles.id }).from(mediaFiles).leftJoin(videos, eq(videos.mediaFileId, mediaFiles.id)).where(and(eq(mediaFiles.id, id), playable)).limit(1)).length > 0;
}

/** Every course's prerequisite (course id → prerequisite id or null), for the no-loop rule. */
export async function prerequisiteMap(db: Db | Tx): Promise<Map<number, number | null>> {
  const rows = await db.select({ id: courses.id, pre: courses.prerequisiteCourseId }).from(courses);
  return new Map(rows.map((r) => [r.id, r.pre]));
}

export type CreateOutcome = { status: 'ok'; courseId: number } | { status: 'codeTaken' } | { status: 'unknownCategory' } | { status: 'unknownBusiness' };

/** A new course, hidden until it is published and shown; its draft starts as the live (empty) course. */
export function createCourse(db: Db, actorId: number, input: { code: string; nameEs: string; nameEn: string; categoryId: number; businessId: number }, now = new Date()): Promise<CreateOutcome> {
  return db.transaction(async (tx) => {
    // One new course at a time: its id is the next free one.
    await tx.execute(sql`lock table ${courses} in share row exclusive mode`);
    const [taken] = await tx.select({ id: courses.id }).from(courses).where(sql`lower(${courses.code}) = ${input.code.toLowerCase()}`);
    if (taken) return { status: 'codeTaken' } as const;
    const [cat] = await tx.select({ id: categories.id }).from(categories).where(eq(categories.id, input.categoryId));
    if (!cat) return { status: 'unknownCategory' } as const;
    const [biz] = await tx.select({ id: businesses.id }).from(businesses).where(eq(businesses.id, input.businessId));
    if (!biz) return { status: 'unknownBusiness' } as const;
    const [{ next }] = (await tx.select({ next: sql<number>`coalesce(max(${courses.id}), 0)::int + 1` }).from(courses)) as [{ next: number }];
    await tx.insert(courses).values({ id: next, code: input.code, nameEs: input.nameEs, nameEn: input.nameEn, thumbnail: PLACEHOLDER_THUMBNAIL, categoryId: input.categoryId, businessId: input.businessId, hidden: true, createdAt: now, updatedAt: now });
    const doc = (await liveDoc(tx, next))!;
    await tx.insert(courseDrafts).values({ courseId: next, document: doc, baseVersion: 1, updatedBy: actorId, updatedAt: now });
    await recordAudit(tx, { action: 'course.created', actor: userRef(actorId), subject: courseRef(next), after: { code: input.code, categoryId: input.categoryId, businessId: input.businessId, hidden: true }, at: now });
    return { status: 'ok', courseId: next } as const;
  });
}

export type EditOutcome = { status: 'ok'; doc: CourseDoc } | { status: 'unknownCourse' } | { status: 'refused'; problem: Exclude<EditResult, { ok: true }>['problem'] };

/**
 * Applies `edit` to the course's draft (started from the live course when it has none) and saves it;
 * the audit trail records the edit (`what`) with the facts it names. Edits of one course are taken one
 * at a time (the course's row is locked), so two editors never lose each other's change.
 */
export function editDraft(db: Db, actorId: number, courseId: number, what: { action: string; facts?: Record<string, unknown> }, edit: (doc: CourseDoc) => EditResult | Promise<EditResult>, now = new Date()): Promise<EditOutcome> {
  return db.transaction(async (tx) => {
    const [course] = await tx.select({ version: courses.version }).from(courses).where(eq(courses.id, courseId)).for('update');
    if (!course) return { status: 'unknownCourse' } as const;
    const [draft] = await tx.select().from(courseDrafts).where(eq(courseDrafts.courseId, courseId));
    const parsed = draft ? courseDocSchema.safeParse(draft.document) : null;
    const before = parsed?.success ? parsed.data : (await liveDoc(tx, courseId))!;
    const result = await edit(before);
    if (!result.ok) return { status: 'refused', problem: result.problem } as const;
    const baseVersion = parsed?.success ? draft!.baseVersion : course.version;
    await tx
      .insert(courseDrafts)
      .values({ courseId, document: result.doc, baseVersion, updatedBy: actorId, updatedAt: now })
      .onConflictDoUpdate({ target: courseDrafts.courseId, set: { document: result.doc, baseVersion, updatedBy: actorId, updatedAt: now } });
    await recordAudit(tx, { action: `course.draft.${what.action}`, actor: userRef(actorId), subject: courseRef(courseId), ...(what.facts ? { after: what.facts } : {}), at: now });
    return { status: 'ok', doc: result.doc } as const;
  });
}

/** Forgets the course's draft (the live course is untouched); false when there was none. */
export function discardDraft(db: Db, actorId: number, courseId: number, now = new Date()): Promise<boolean> {
  return db.transaction(async (tx) => {
    const gone = await tx.delete(courseDrafts).where(eq(courseDrafts.courseId, courseId)).returning({ at: courseDrafts.updatedAt });
    if (gone.length === 0) return false;
    await recordAudit(tx, { action: 'course.draft.discarded', actor: userRef(actorId), subject: courseRef(courseId), before: { draftSavedAt: gone[0]!.at.toISOString() }, at: now });
    return true;
  });
}
