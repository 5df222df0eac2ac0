/**
 * A published course as an archive: `course.json` built from the live course, its captions, exam and
 * bank; then each stored file it uses read from the storage one after the other, streamed into the zip
 * (never all media in memory). The thumbnail goes along when it is one of the site's own pictures.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { businesses, captions, categories, courses, evaluations, mediaFiles } from '../db/schema';
import type { Storage } from '../storage';
import { liveDoc } from '../authoring/draft.server';
import { exportBank } from '../question-bank/bank.server';
import { recordAudit, userRef } from '../privacy/audit.server';
import { storedImageKey } from '../media/uploaded-images';
import { ARCHIVE_FORMAT, ARCHIVE_VERSION, COURSE_JSON, mediaPathOf, SITE_PICTURE, type ArchiveMedia, type ArchiveResource, type CourseArchive } from './course-archive';
import { zipStream, type StreamEntry } from '../zip/zip';

/** Where the site's own pictures are (the thumbnail of a course is one of them). */
const PUBLIC_DIR = join(process.cwd(), 'public');
const PICTURE_TYPES: Record<string, string> = { webp: 'image/webp', jpg: 'image/jpeg', png: 'image/png' };

export type ExportOutcome = { status: 'ok'; archive: CourseArchive; files: { path: string; storageKey: string | null; bytes?: Uint8Array }[] } | { status: 'unknownCourse' } | { status: 'missingMedia'; key: string };

/** The archive of the live course `courseId`: `course.json` and the files it names (not read yet). */
export async function courseArchive(db: Db, storage: Storage, courseId: number, now = new Date()): Promise<ExportOutcome> {
  const doc = await liveDoc(db, courseId);
  if (!doc) return { status: 'unknownCourse' };
  const [[cat], [biz], [evaluation]] = await Promise.all([
    db.select().from(categories).where(eq(categories.id, doc.categoryId)),
    db.select().from(businesses).where(eq(businesses.id, doc.businessId)),
    db.select().from(evaluations).where(eq(evaluations.courseId, courseId)),
  ]);
  const [pre] = doc.prerequisiteCourseId ? await db.select({ code: courses.code }).from(courses).where(eq(courses.id, doc.prerequisiteCourseId)) : [];
  const resources = doc.modules.flatMap((m) => m.lessons.flatMap((l) => l.resources));
  const resourceIds = resources.flatMap((r) => (r.id ? [r.id] : []));
  const tracks = resourceIds.length ? await db.select().from(captions).where(inArray(captions.resourceId, resourceIds)) : [];
  const fileIds = [...new Set([...resources.flatMap((r) => (r.kind !== 'link' && r.mediaFileId ? [r.mediaFileId] : [])), ...tracks.map((c) => c.mediaFileId)])];
  const rows = fileIds.length ? await db.select().from(mediaFiles).where(inArray(mediaFiles.id, fileIds)) : [];

  const media: ArchiveMedia[] = [];
  const files: { path: string; storageKey: string | null; bytes?: Uint8Array }[] = [];
  const pathOf = new Map<number, string>();
  for (const row of rows.sort((a, b) => a.id - b.id)) {
    const stored = await storage.stat(row.storageKey);
    if (!stored) return { status: 'missingMedia', key: row.storageKey };
    const path = mediaPathOf(media.length + 1, row.mimeType);
    pathOf.set(row.id, path);
    media.push({ path, contentType: row.mimeType, sizeBytes: stored.sizeBytes, durationSeconds: row.durationSeconds });
    files.push({ path, storageKey: row.storageKey });
  }
  let thumbnailFile: string | null = null;
  const picture = SITE_PICTURE.exec(doc.thumbnail);
  // A thumbnail staff uploaded is in the storage (a WebP of the server's own).
  const uploaded = storedImageKey('course-thumbnail', doc.thumbnail);
  const [extension, bytes] = picture
    ? [picture[1]!, await readFile(join(PUBLIC_DIR, doc.thumbnail)).catch(() => null)]
    : uploaded
      ? ['webp', await storage.get(uploaded).then(async (got) => (got ? Buffer.concat(await Array.fromAsync(got.body as AsyncIterable<Buffer>)) : null))]
      : ['', null];
  if (bytes) {
    thumbnailFile = `media/thumbnail.${extension}`;
    media.push({ path: thumbnailFile, contentType: PICTURE_TYPES[extension]!, sizeBytes: bytes.length, durationSeconds: null });
    files.push({ path: thumbnailFile, storageKey: null, bytes });
  }
  const bank = evaluation ? ((await exportBank(db, courseId)) ?? []) : [];
  const both = (es: string, en: string) => ({ es, en });
  const archive: CourseArchive = {
    format: ARCHIVE_FORMAT,
    version: ARCHIVE_VERSION,
    exportedAt: now.toISOString(),
    course: {
      code: doc.code,
      name: both(doc.nameEs, doc.nameEn),
      description: both(doc.descriptionEs, doc.descriptionEn),
      thumbnail: { sitePath: doc.thumbnail, file: thumbnailFile },
      category: { code: doc.categoryId, name: both(cat?.nameEs ?? '', cat?.nameEn ?? '') },
      business: { code: doc.businessId, name: both(biz?.nameEs ?? '', biz?.nameEn ?? '') },
      priceCents: doc.priceCents,
      allowAll: doc.allowAll,
      isTest: doc.isTest,
      visibleOnlyToBuyers: doc.visibleOnlyToBuyers,
      hidden: doc.hidden,
      prerequisiteCode: pre?.code ?? null,
      modules: doc.modules.map((m) => ({
        name: both(m.nameEs, m.nameEn),
        lessons: m.lessons.map((l) => ({
          name: both(l.nameEs, l.nameEn),
          summary: both(l.summaryEs, l.summaryEn),
          resources: l.resources.flatMap((r): ArchiveResource[] => {
            if (r.kind === 'link') return r.url ? [{ kind: 'link' as const, title: both(r.titleEs, r.titleEn), url: r.url }] : [];
            const file = r.mediaFileId ? pathOf.get(r.mediaFileId) : undefined;
            if (!file) return [];
            const track = (lang: string) => {
              const c = tracks.find((t) => t.resourceId === r.id && t.lang === lang);
              return c ? pathOf.get(c.mediaFileId) : undefined;
            };
            const es = track('es');
            const en = track('en');
            return [{ kind: r.kind, title: both(r.titleEs, r.titleEn), file, captions: { ...(es ? { es } : {}), ...(en ? { en } : {}) } }];
          }),
        })),
      })),
      exam: evaluation
        ? {
            attempts: evaluation.maxAttempts,
            questions: evaluation.questionCount,
            minutes: evaluation.minutes,
            minimumScore: evaluation.passingScore,
            bank: bank.map((q) => ({
              kind: q.kind as 'single' | 'multiple' | 'true-false',
              prompt: both(q.promptEs, q.promptEn),
              explanation: both(q.explanationEs, q.explanationEn),
              options: q.options.map((o) => ({ text: both(o.textEs, o.textEn), correct: o.correct })),
            })),
          }
        : null,
    },
    media,
  };
  return { status: 'ok', archive, files };
}

/** The zip of an archive, chunk by chunk: `course.json` first, then each file read from the storage when its turn comes. */
export function archiveStream(storage: Storage, outcome: Extract<ExportOutcome, { status: 'ok' }>, now = new Date()): AsyncGenerator<Uint8Array> {
  const entries: StreamEntry[] = [
    { name: COURSE_JSON, content: JSON.stringify(outcome.archive, null, 2) },
    ...outcome.files.map((f): StreamEntry => ({
      name: f.path,
      content: f.bytes ?? (async () => {
        const got = await storage.get(f.storageKey!);
        if (!got) throw new Error(`stored file gone during an export: ${f.storageKey}`);
        return got.body as AsyncIterable<Uint8Array>;
      }),
    })),
  ];
  return zipStream(entries, now);
}

/** Chunks as a web stream a Response sends (pulled one at a time; a cancelled download stops the reading). */
export function webStream(chunks: AsyncGenerator<Uint8Array>): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
}

/** The export in the audit trail (who took a copy of which course). */
export const auditExport = (db: Db, actorId: number, courseId: number, files: number) =>
  recordAudit(db, { action: 'course.exported', actor: userRef(actorId), subject: `course:${courseId}`, after: { files } });
