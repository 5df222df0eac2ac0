/** Seeds the catalogue's structure: categories, business lines, media files, courses, modules, lessons, their resources and captions. */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import * as s from '../schema';
import * as catalogue from './catalogue';
import { excluded, type Tx } from './seed-kit.server';

const CLIPS = ['clip-1', 'clip-2', 'clip-3', 'clip-4', 'clip-5', 'clip-6'] as const;

/** Every further resource (document or link) of every lesson of the seed catalogue. */
function lessonExtras(): catalogue.SeedExtra[] {
  return catalogue.courses.flatMap((c) => c.modules.flatMap((m) => m.lessons.flatMap((l) => l.extras ?? [])));
}

/** Writes the courses and everything in them (media file sizes read from `mediaDir`); returns the lessons in catalogue order and their ids by code. */
export async function seedCourses(tx: Tx, durations: Record<string, number>, mediaDir: string) {
  await tx
    .insert(s.categories)
    .values(catalogue.categories.map((c, i) => ({ id: c.id, nameEs: c.name.es, nameEn: c.name.en, position: i })))
    .onConflictDoUpdate({ target: s.categories.id, set: excluded(s.categories, ['nameEs', 'nameEn', 'position']) });
  await tx
    .insert(s.businesses)
    .values(catalogue.businesses.map((b, i) => ({ id: b.id, nameEs: b.name.es, nameEn: b.name.en, position: i })))
    .onConflictDoUpdate({ target: s.businesses.id, set: excluded(s.businesses, ['nameEs', 'nameEn', 'position']) });

  // Media: each clip's video and its two caption tracks, and the lessons' PDF documents.
  const documents = [...new Set(lessonExtras().flatMap((x) => (x.kind === 'pdf' ? [x.file] : [])))];
  const mediaRows = [
    ...CLIPS.flatMap((clip) => [
      { key: `video/${clip}.webm`, mime: 'video/webm', duration: durations[clip] ?? null },
      { key: `captions/${clip}.es.vtt`, mime: 'text/vtt', duration: null },
      { key: `captions/${clip}.en.vtt`, mime: 'text/vtt', duration: null },
    ]),
    ...documents.map((key) => ({ key, mime: 'application/pdf', duration: null })),
  ].map((m) => ({
    storageKey: m.key,
    mimeType: m.mime,
    sizeBytes: statSync(join(mediaDir, m.key)).size,
    durationSeconds: m.duration === null ? null : m.duration.toFixed(2),
  }));
  const media = await tx
    .insert(s.mediaFiles)
    .values(mediaRows)
    .onConflictDoUpdate({ target: s.mediaFiles.storageKey, set: excluded(s.mediaFiles, ['mimeType', 'sizeBytes', 'durationSeconds']) })
    .returning({ id: s.mediaFiles.id, key: s.mediaFiles.storageKey });
  const mediaId = (key: string) => media.find((m) => m.key === key)!.id;

  // Courses first without prerequisites (a prerequisite may come later in the list), then the links.
  const courseCols = ['code', 'nameEs', 'nameEn', 'descriptionEs', 'descriptionEn', 'thumbnail', 'categoryId', 'businessId', 'allowAll', 'isTest', 'price', 'visibleOnlyToBuyers'] as const;
  await tx
    .insert(s.courses)
    .values(
      catalogue.courses.map((c) => ({
        id: c.id,
        code: c.code,
        nameEs: c.name.es,
        nameEn: c.name.en,
        descriptionEs: c.description.es,
        descriptionEn: c.description.en,
        thumbnail: c.thumbnail,
        categoryId: c.categoryId,
        businessId: c.businessId,
        allowAll: c.allowAll,
        isTest: c.isTest,
        price: c.price,
        visibleOnlyToBuyers: c.visibleOnlyToBuyers,
      })),
    )
    .onConflictDoUpdate({ target: s.courses.id, set: { ...excluded(s.courses, [...courseCols]), updatedAt: sql`now()` } });
  for (const c of catalogue.courses) {
    await tx.update(s.courses).set({ prerequisiteCourseId: c.prerequisiteCourseId }).where(eq(s.courses.id, c.id));
  }

  // Modules, lessons and resources, each in one statement.
  const topicRows = catalogue.courses.flatMap((c) =>
    c.modules.map((m, i) => ({ courseId: c.id, code: m.code, nameEs: m.name.es, nameEn: m.name.en, position: i + 1 })),
  );
  const topics = await tx
    .insert(s.topics)
    .values(topicRows)
    .onConflictDoUpdate({ target: s.topics.code, set: excluded(s.topics, ['courseId', 'nameEs', 'nameEn', 'position']) })
    .returning({ id: s.topics.id, code: s.topics.code });
  const topicId = new Map(topics.map((t) => [t.code, t.id]));

  const lessonList = catalogue.courses.flatMap((c) => c.modules.flatMap((m) => m.lessons.map((l, i) => ({ m, l, i }))));
  const lessons = await tx
    .insert(s.subtopics)
    .values(
      lessonList.map(({ m, l, i }) => ({
        topicId: topicId.get(m.code)!,
        code: l.code,
        nameEs: l.name.es,
        nameEn: l.name.en,
        summaryEs: l.summary.es,
        summaryEn: l.summary.en,
        position: i + 1,
      })),
    )
    .onConflictDoUpdate({ target: s.subtopics.code, set: excluded(s.subtopics, ['topicId', 'nameEs', 'nameEn', 'summaryEs', 'summaryEn', 'position']) })
    .returning({ id: s.subtopics.id, code: s.subtopics.code });
  const lessonId = new Map(lessons.map((l) => [l.code, l.id]));

  const resourceRows = lessonList.flatMap(({ l }) => [
    {
      subtopicId: lessonId.get(l.code)!,
      typeId: s.RESOURCE_TYPE.video,
      mediaFileId: mediaId(`video/${l.clip}.webm`),
      url: null,
      titleEs: l.name.es,
      titleEn: l.name.en,
      position: 1,
    },
    // Documents are media files served through the access check; links keep their address.
    ...(l.extras ?? []).map((x, i) => ({
      subtopicId: lessonId.get(l.code)!,
      typeId: x.kind === 'pdf' ? s.RESOURCE_TYPE.pdf : s.RESOURCE_TYPE.link,
      mediaFileId: x.kind === 'pdf' ? mediaId(x.file) : null,
      url: x.kind === 'link' ? x.url : null,
      titleEs: x.title.es,
      titleEn: x.title.en,
      position: i + 2,
    })),
  ]);
  const resources = await tx
    .insert(s.resources)
    .values(resourceRows)
    .onConflictDoUpdate({
      target: [s.resources.subtopicId, s.resources.position],
      set: excluded(s.resources, ['typeId', 'mediaFileId', 'url', 'titleEs', 'titleEn']),
    })
    .returning({ id: s.resources.id, mediaFileId: s.resources.mediaFileId, typeId: s.resources.typeId });
  const captionRows = resources
    .filter((r) => r.typeId === s.RESOURCE_TYPE.video && r.mediaFileId !== null)
    .flatMap((r) => {
      const clip = media.find((m) => m.id === r.mediaFileId)!.key.replace(/^video\/(.*)\.webm$/, '$1');
      return (['es', 'en'] as const).map((lang) => ({ resourceId: r.id, lang, mediaFileId: mediaId(`captions/${clip}.${lang}.vtt`) }));
    });
  await tx
    .insert(s.captions)
    .values(captionRows)
    .onConflictDoUpdate({ target: [s.captions.resourceId, s.captions.lang], set: excluded(s.captions, ['mediaFileId']) });
  return { lessonList, lessonId };
}
