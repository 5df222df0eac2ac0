/**
 * An archive becomes a new course, all or nothing. First everything is checked without writing: the zip
 * (`unzip.ts` limits), `course.json` (format, version, both languages, price), every reference (the
 * category and business line by code, the prerequisite by course code), each question's key and each
 * media path listed and in the archive with its declared size and type — the checks of `check.ts`, which
 * the demo catalogue's seed runs too. Then the media are streamed into the storage under new keys,
 * and one transaction writes the course (hidden: learners never see it until an editor publishes), its
 * outline, files, captions, exam and bank, and its draft — the archive's document, which an editor
 * reviews and publishes. Any failure deletes the stored files again; the transaction leaves no row.
 * An import that died before its commit (`kill -9`) leaves stored files no row names: every import first
 * deletes those of batches older than `IMPORT_ABANDONED_MS` (`sweepAbandonedImports`).
 */
import { randomBytes } from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { businesses, captions, categories, courseDrafts, courses, evaluations, mediaFiles, questionOptions, questions, RESOURCE_TYPE, resources, subtopics, topics } from '../db/schema';
import type { Storage } from '../storage';
import { reencodeImage } from '../identity/photo.server';
import { PHOTO_MAX_BYTES } from '../identity/photo';
import { imageKey, imageName, imageUrl, UPLOADED_IMAGES } from '../media/uploaded-images';
import { createHash } from 'node:crypto';
import { centsToNumeric } from '../authoring/authoring';
import { courseRef, newKey, PLACEHOLDER_THUMBNAIL } from '../authoring/draft.server';
import { recordAudit, userRef } from '../privacy/audit.server';
import { catalogChange, examChange, type Change } from '../runtime/changes';
import { ARCHIVE_LIMITS, IMPORT_ABANDONED_MS, importFolder, importStartedAt, SITE_PICTURE, archiveToDoc, freeCode, MEDIA_TYPES, type CourseArchive } from './course-archive';
import { checkContents, readCourseJson, zipFiles, type FileProblem } from './check';
import { entryBytes, entryStream, readZip, ZipRefused, type ZipFile, type ZipLimits, type ZipProblem } from './unzip';
import { type Step } from '../faults/step';

/** Why an import is refused: the zip, `course.json`, or a reference that does not resolve here. */
export type ImportProblem = ZipProblem | FileProblem | 'unknownCategory' | 'unknownBusiness' | 'unknownPrerequisite';

export type ImportOutcome = { status: 'ok'; courseId: number; code: string; changed: Change[] } | { status: 'refused'; problem: ImportProblem; detail: string };


const refused = (problem: ImportProblem, detail = ''): ImportOutcome => ({ status: 'refused', problem, detail });

/**
 * What the archive's course names here: its category and business line by code, and its prerequisite by
 * course code (the prerequisite's id), or the first that does not resolve.
 */
export async function resolveReferences(db: Db | Tx, archive: CourseArchive): Promise<{ status: 'resolved'; prerequisiteId: number | null } | Extract<ImportOutcome, { status: 'refused' }>> {
  const c = archive.course;
  const [[cat], [biz]] = await Promise.all([
    db.select({ id: categories.id }).from(categories).where(eq(categories.id, c.category.code)),
    db.select({ id: businesses.id }).from(businesses).where(eq(businesses.id, c.business.code)),
  ]);
  if (!cat) return { status: 'refused', problem: 'unknownCategory', detail: String(c.category.code) };
  if (!biz) return { status: 'refused', problem: 'unknownBusiness', detail: String(c.business.code) };
  if (c.prerequisiteCode === null) return { status: 'resolved', prerequisiteId: null };
  const [pre] = await db.select({ id: courses.id }).from(courses).where(sql`lower(${courses.code}) = ${c.prerequisiteCode.toLowerCase()}`);
  if (!pre) return { status: 'refused', problem: 'unknownPrerequisite', detail: c.prerequisiteCode };
  return { status: 'resolved', prerequisiteId: pre.id };
}

/** Checks the archive without writing; the parsed course and its files, or a refusal. */
async function inspect(db: Db, bytes: Uint8Array, limits: ZipLimits & { maxJsonBytes: number }) {
  const files = readZip(bytes, limits);
  const entries = zipFiles(bytes, files);
  const read = await readCourseJson(entries, limits.maxJsonBytes);
  if (read.status !== 'checked') return read;
  const resolved = await resolveReferences(db, read.archive);
  if (resolved.status !== 'resolved') return resolved;
  const checked = await checkContents(entries, read.archive);
  if (checked.status !== 'checked') return checked;
  return { status: 'checked' as const, archive: checked.archive, byName: new Map(files.map((f) => [f.name, f])), prerequisiteId: resolved.prerequisiteId };
}

/**
 * Deletes the stored files of imports that died before their commit: keys under `imports/` of batches
 * started more than `IMPORT_ABANDONED_MS` before `now` that no `media_files` row names, and what a write
 * killed mid-way left there. Returns how many.
 */
export async function sweepAbandonedImports(db: Db, storage: Storage, now = new Date()): Promise<number> {
  let removed = (await storage.sweepUnfinished?.('imports/', IMPORT_ABANDONED_MS, now.getTime())) ?? 0;
  const stale: string[] = [];
  for await (const key of storage.list('imports/')) {
    const started = importStartedAt(key);
    if (started === null || now.getTime() - started > IMPORT_ABANDONED_MS) stale.push(key);
  }
  for (let at = 0; at < stale.length; at += 500) {
    const some = stale.slice(at, at + 500);
    const named = new Set((await db.select({ key: mediaFiles.storageKey }).from(mediaFiles).where(inArray(mediaFiles.storageKey, some))).map((r) => r.key));
    for (const key of some.filter((k) => !named.has(k))) {
      await storage.delete(key);
      removed++;
    }
  }
  return removed;
}

/** What an import tells of each point it reaches (`media-stored`, `in-transaction`, `committed`): the fault tests stop the process there. */
export type ImportStep = Step;

/** Imports the archive `bytes` as a new hidden course with a draft (see the top of this file). */
export async function importCourse(db: Db, storage: Storage, actorId: number, bytes: Uint8Array, limits = ARCHIVE_LIMITS, now = new Date(), step: ImportStep = () => undefined): Promise<ImportOutcome> {
  await sweepAbandonedImports(db, storage, now);
  let checked: Awaited<ReturnType<typeof inspect>>;
  try {
    checked = await inspect(db, bytes, limits);
  } catch (error) {
    if (error instanceof ZipRefused) return refused(error.problem, error.entry ?? '');
    throw error;
  }
  if (checked.status !== 'checked') return checked;
  const { archive, byName, prerequisiteId } = checked;

  // The media, streamed one at a time into the storage under new keys (forgotten again on any failure).
  const folder = importFolder(now, randomBytes(8).toString('hex'));
  const stored: string[] = [];
  const keyOf = new Map<string, string>();
  const forget = () => Promise.allSettled(stored.map((key) => storage.delete(key)));
  try {
    for (const [i, m] of archive.media.entries()) {
      // The thumbnail is one of the site's own pictures: checked, not stored.
      if (m.path === archive.course.thumbnail.file) continue;
      const key = `${folder}${i + 1}.${MEDIA_TYPES[m.contentType]}`;
      stored.push(key);
      await storage.put(key, entryStream(bytes, byName.get(m.path) as ZipFile), { contentType: m.contentType });
      keyOf.set(m.path, key);
      await step('media-stored');
    }
    // A thumbnail that is not one of the site's pictures becomes the new course's uploaded one, re-encoded
    // by this server as any upload is (a picture that does not decode is refused as its kind).
    const thumb = archive.course.thumbnail;
    let thumbnailWebp: Buffer | null = null;
    if (thumb.file && !SITE_PICTURE.test(thumb.sitePath)) {
      const raw = await entryBytes(bytes, byName.get(thumb.file) as ZipFile, PHOTO_MAX_BYTES);
      const { width, height } = UPLOADED_IMAGES['course-thumbnail'];
      const made = await reencodeImage({ size: raw.length, bytes: raw }, width, height);
      if (!made.ok) return refused('mediaType', thumb.file);
      thumbnailWebp = made.webp;
    }
    const outcome = await write(db, actorId, archive, keyOf, prerequisiteId, now, thumbnailWebp ? { webp: thumbnailWebp, storage, stored } : null, step);
    await step('committed');
    return outcome;
  } catch (error) {
    await forget();
    if (error instanceof ZipRefused) return refused(error.problem, error.entry ?? '');
    throw error;
  }
}

/** The one transaction writing the course, its outline, files, captions, exam, bank and draft. */
function write(db: Db, actorId: number, archive: CourseArchive, keyOf: ReadonlyMap<string, string>, prerequisiteId: number | null, now: Date, uploadedThumbnail: { webp: Buffer; storage: Storage; stored: string[] } | null, step: ImportStep): Promise<ImportOutcome> {
  const c = archive.course;
  return db.transaction(async (tx) => {
    // One new course at a time: its id is the next free one, its code checked against every other.
    await tx.execute(sql`lock table ${courses} in share row exclusive mode`);
    const taken = new Set((await tx.select({ code: courses.code }).from(courses)).map((r) => r.code.toLowerCase()));
    const code = freeCode(c.code, taken);
    const [{ next }] = (await tx.select({ next: sql<number>`coalesce(max(${courses.id}), 0)::int + 1` }).from(courses)) as [{ next: number }];
    const courseId = next;
    const mediaIds = new Map<string, number>();
    for (const m of archive.media) {
      if (m.path === c.thumbnail.file) continue;
      const [row] = await tx.insert(mediaFiles).values({ storageKey: keyOf.get(m.path)!, mimeType: m.contentType, sizeBytes: m.sizeBytes, durationSeconds: m.durationSeconds, createdAt: now }).returning({ id: mediaFiles.id });
      mediaIds.set(m.path, row!.id);
    }
    let thumbnail = SITE_PICTURE.test(c.thumbnail.sitePath) ? c.thumbnail.sitePath : PLACEHOLDER_THUMBNAIL;
    if (uploadedThumbnail) {
      const name = imageName(courseId, createHash('sha256').update(uploadedThumbnail.webp).digest('hex'));
      const key = imageKey('course-thumbnail', name);
      uploadedThumbnail.stored.push(key);
      await uploadedThumbnail.storage.put(key, uploadedThumbnail.webp, { contentType: 'image/webp' });
      thumbnail = imageUrl('course-thumbnail', name);
    }
    const doc = archiveToDoc(archive, { code, thumbnail, prerequisiteId, mediaIds }, newKey);
    await tx.insert(courses).values({
      id: courseId,
      code,
      nameEs: doc.nameEs,
      nameEn: doc.nameEn,
      descriptionEs: doc.descriptionEs,
      descriptionEn: doc.descriptionEn,
      thumbnail,
      categoryId: doc.categoryId,
      businessId: doc.businessId,
      price: centsToNumeric(doc.priceCents),
      allowAll: doc.allowAll,
      isTest: doc.isTest,
      visibleOnlyToBuyers: doc.visibleOnlyToBuyers,
      prerequisiteCourseId: prerequisiteId,
      hidden: true,
      createdAt: now,
      updatedAt: now,
    });
    // The outline as (hidden) live rows, so captions have their video's row; the draft names them.
    for (const [mi, m] of doc.modules.entries()) {
      const [topic] = await tx.insert(topics).values({ courseId, code: `C${courseId}-${newKey()}`, nameEs: m.nameEs, nameEn: m.nameEn, position: mi + 1 }).returning({ id: topics.id });
      m.id = topic!.id;
      m.key = `m${m.id}`;
      for (const [li, l] of m.lessons.entries()) {
        const [lesson] = await tx.insert(subtopics).values({ topicId: m.id, code: `C${courseId}-${newKey()}`, nameEs: l.nameEs, nameEn: l.nameEn, summaryEs: l.summaryEs, summaryEn: l.summaryEn, position: li + 1 }).returning({ id: subtopics.id });
        l.id = lesson!.id;
        l.key = `l${l.id}`;
        for (const [ri, r] of l.resources.entries()) {
          const [row] = await tx.insert(resources).values({ subtopicId: l.id, typeId: RESOURCE_TYPE[r.kind], titleEs: r.titleEs, titleEn: r.titleEn, url: r.url, mediaFileId: r.mediaFileId, position: ri + 1 }).returning({ id: resources.id });
          r.id = row!.id;
          r.key = `r${r.id}`;
          const source = c.modules[mi]!.lessons[li]!.resources[ri]!;
          if (source.kind === 'link') continue;
          for (const lang of ['es', 'en'] as const) {
            const path = source.captions[lang];
            if (path) await tx.insert(captions).values({ resourceId: r.id, lang, mediaFileId: mediaIds.get(path)! });
          }
        }
      }
    }
    if (c.exam) {
      const [evaluation] = await tx.insert(evaluations).values({ courseId, minutes: c.exam.minutes, questionCount: c.exam.questions, passingScore: c.exam.minimumScore, maxAttempts: c.exam.attempts }).returning({ id: evaluations.id });
      for (const [qi, q] of c.exam.bank.entries()) {
        const [row] = await tx
          .insert(questions)
          .values({ evaluationId: evaluation!.id, kind: q.kind, promptEs: q.prompt.es, promptEn: q.prompt.en, explanationEs: q.explanation.es, explanationEn: q.explanation.en, position: qi + 1 })
          .returning({ id: questions.id });
        await tx.insert(questionOptions).values(q.options.map((o, oi) => ({ questionId: row!.id, textEs: o.text.es, textEn: o.text.en, isCorrect: o.correct, position: oi + 1 })));
      }
    }
    await step('in-transaction');
    await tx.insert(courseDrafts).values({ courseId, document: doc, baseVersion: 1, updatedBy: actorId, updatedAt: now });
    await recordAudit(tx, {
      action: 'course.imported',
      actor: userRef(actorId),
      subject: courseRef(courseId),
      after: { code, from: c.code, exportedAt: archive.exportedAt, modules: doc.modules.length, lessons: doc.modules.reduce((n, m) => n + m.lessons.length, 0), files: archive.media.length, questions: c.exam?.bank.length ?? 0, hidden: true },
      at: now,
    });
    return { status: 'ok', courseId, code, changed: [catalogChange(), examChange(courseId)] } as const;
  });
}
