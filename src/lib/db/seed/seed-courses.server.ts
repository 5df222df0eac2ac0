/** Seeds the catalogue's structure: categories, business lines, and the demo courses' archives (media files, courses, modules, lessons, resources and captions). */
import { eq, sql } from 'drizzle-orm';
import * as s from '../schema';
import { centsToNumeric } from '../../authoring/authoring';
import { resolveReferences } from '../../course-archive/import.server';
import * as catalogue from './catalogue';
import type { DemoCourse } from './demo-catalogue.server';
import { excluded, type Tx } from './seed-kit.server';

/** A demo module's or lesson's code (`C02-M1`, `C02-M1-L3`): the natural key re-seeding updates in place. */
const moduleCode = (courseId: number, m: number) => `C${String(courseId).padStart(2, '0')}-M${m + 1}`;

/**
 * The media folder's files the demo courses use, each once: every video with its captions, then every
 * document, both in the order the courses first use them (the media files' ids follow this order).
 */
function mediaRows(courses: readonly DemoCourse[]) {
  const rows = new Map<string, { storageKey: string; mimeType: string; sizeBytes: number; durationSeconds: string | null }>();
  const add = (course: DemoCourse, path: string) => {
    const m = course.archive.media.find((x) => x.path === path)!;
    const key = course.sources[path]!;
    if (!rows.has(key)) rows.set(key, { storageKey: key, mimeType: m.contentType, sizeBytes: m.sizeBytes, durationSeconds: m.durationSeconds });
  };
  const files = courses.flatMap((c) => c.archive.course.modules.flatMap((m) => m.lessons.flatMap((l) => l.resources.flatMap((r) => (r.kind === 'link' ? [] : [{ c, r }])))));
  for (const { c, r } of files.filter((f) => f.r.kind === 'video')) for (const path of [r.file, r.captions.es, r.captions.en]) if (path) add(c, path);
  for (const { c, r } of files.filter((f) => f.r.kind === 'pdf')) add(c, r.file);
  return [...rows.values()];
}

/** Writes the demo courses and everything in them; returns each lesson (in catalogue order) with its row id and its video's length. */
export async function seedCourses(tx: Tx, courses: readonly DemoCourse[]) {
  await tx
    .insert(s.categories)
    .values(catalogue.categories.map((c, i) => ({ id: c.id, nameEs: c.name.es, nameEn: c.name.en, position: i })))
    .onConflictDoUpdate({ target: s.categories.id, set: excluded(s.categories, ['nameEs', 'nameEn', 'position']) });
  await tx
    .insert(s.businesses)
    .values(catalogue.businesses.map((b, i) => ({ id: b.id, nameEs: b.name.es, nameEn: b.name.en, position: i })))
    .onConflictDoUpdate({ target: s.businesses.id, set: excluded(s.businesses, ['nameEs', 'nameEn', 'position']) });

  // Media: one row per file of the media folder, however many courses use it.
  const media = await tx
    .insert(s.mediaFiles)
    .values(mediaRows(courses))
    .onConflictDoUpdate({ target: s.mediaFiles.storageKey, set: excluded(s.mediaFiles, ['mimeType', 'sizeBytes', 'durationSeconds']) })
    .returning({ id: s.mediaFiles.id, key: s.mediaFiles.storageKey });
  const mediaId = (course: DemoCourse, path: string) => media.find((m) => m.key === course.sources[path])!.id;

  // Courses first without prerequisites (a prerequisite may come later in the list), then the links,
  // resolved as an import resolves them (the category, the business line, the prerequisite by code).
  const courseCols = ['code', 'nameEs', 'nameEn', 'descriptionEs', 'descriptionEn', 'thumbnail', 'categoryId', 'businessId', 'allowAll', 'isTest', 'price', 'visibleOnlyToBuyers'] as const;
  await tx
    .insert(s.courses)
    .values(
      courses.map(({ id, archive: { course: c } }) => ({
        id,
        code: c.code,
        nameEs: c.name.es,
        nameEn: c.name.en,
        descriptionEs: c.description.es,
        descriptionEn: c.description.en,
        thumbnail: c.thumbnail.sitePath,
        categoryId: c.category.code,
        businessId: c.business.code,
        allowAll: c.allowAll,
        isTest: c.isTest,
        price: centsToNumeric(c.priceCents),
        visibleOnlyToBuyers: c.visibleOnlyToBuyers,
        hidden: c.hidden,
      })),
    )
    .onConflictDoUpdate({ target: s.courses.id, set: { ...excluded(s.courses, [...courseCols]), updatedAt: sql`now()` } });
  for (const course of courses) {
    const refs = await resolveReferences(tx, course.archive);
    if (refs.status !== 'resolved') throw new Error(`demo course ${course.archive.course.code} is refused: ${refs.problem} ${refs.detail}`);
    await tx.update(s.courses).set({ prerequisiteCourseId: refs.prerequisiteId }).where(eq(s.courses.id, course.id));
  }

  // Modules, lessons and resources, each in one statement.
  const moduleList = courses.flatMap((course) => course.archive.course.modules.map((m, i) => ({ course, m, code: moduleCode(course.id, i), position: i + 1 })));
  const topics = await tx
    .insert(s.topics)
    .values(moduleList.map(({ course, m, code, position }) => ({ courseId: course.id, code, nameEs: m.name.es, nameEn: m.name.en, position })))
    .onConflictDoUpdate({ target: s.topics.code, set: excluded(s.topics, ['courseId', 'nameEs', 'nameEn', 'position']) })
    .returning({ id: s.topics.id, code: s.topics.code });
  const topicId = new Map(topics.map((t) => [t.code, t.id]));

  const lessonList = moduleList.flatMap(({ course, m, code }) => m.lessons.map((l, i) => ({ course, l, moduleCode: code, code: `${code}-L${i + 1}`, position: i + 1 })));
  const lessons = await tx
    .insert(s.subtopics)
    .values(
      lessonList.map(({ l, moduleCode: m, code, position }) => ({
        topicId: topicId.get(m)!,
        code,
        nameEs: l.name.es,
        nameEn: l.name.en,
        summaryEs: l.summary.es,
        summaryEn: l.summary.en,
        position,
      })),
    )
    .onConflictDoUpdate({ target: s.subtopics.code, set: excluded(s.subtopics, ['topicId', 'nameEs', 'nameEn', 'summaryEs', 'summaryEn', 'position']) })
    .returning({ id: s.subtopics.id, code: s.subtopics.code });
  const lessonId = new Map(lessons.map((l) => [l.code, l.id]));

  // Videos and documents are media files served through the access check; links keep their address.
  const resourceList = lessonList.flatMap(({ course, l, code }) => l.resources.map((r, i) => ({ course, r, subtopicId: lessonId.get(code)!, position: i + 1 })));
  const resources = await tx
    .insert(s.resources)
    .values(
      resourceList.map(({ course, r, subtopicId, position }) => ({
        subtopicId,
        typeId: s.RESOURCE_TYPE[r.kind],
        mediaFileId: r.kind === 'link' ? null : mediaId(course, r.file),
        url: r.kind === 'link' ? r.url : null,
        titleEs: r.title.es,
        titleEn: r.title.en,
        position,
      })),
    )
    .onConflictDoUpdate({
      target: [s.resources.subtopicId, s.resources.position],
      set: excluded(s.resources, ['typeId', 'mediaFileId', 'url', 'titleEs', 'titleEn']),
    })
    .returning({ id: s.resources.id, subtopicId: s.resources.subtopicId, position: s.resources.position });
  const resourceId = new Map(resources.map((r) => [`${r.subtopicId}:${r.position}`, r.id]));
  const captionRows = resourceList.flatMap(({ course, r, subtopicId, position }) =>
    r.kind === 'link' ? [] : (['es', 'en'] as const).flatMap((lang) => (r.captions[lang] ? [{ resourceId: resourceId.get(`${subtopicId}:${position}`)!, lang, mediaFileId: mediaId(course, r.captions[lang]) }] : [])),
  );
  if (captionRows.length)
    await tx
      .insert(s.captions)
      .values(captionRows)
      .onConflictDoUpdate({ target: [s.captions.resourceId, s.captions.lang], set: excluded(s.captions, ['mediaFileId']) });
  return lessonList.map(({ course, l, code }) => ({ courseId: course.id, id: lessonId.get(code)!, lesson: l, course }));
}
