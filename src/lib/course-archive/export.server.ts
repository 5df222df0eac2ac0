/**
 * A published course as an archive: `course.json` built from the live course, its captions, exam and
 * bank; then each stored file it uses read from the storage one after the other, streamed into the zip
 * (never all media in memory). The thumbnail goes along when it is one of the site's own pictures. A
 * converted library video goes as one MP4 (its top rung's streams copied from the HLS segments into a
 * scratch folder, removed when the archive ends), with its caption tracks.
 */
import { createReadStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { businesses, captions, categories, courses, evaluations, mediaFiles, videoCaptions, videos } from '../db/schema';
import { remuxToMp4 } from '../videos/remux.server';
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

/** A file of the archive: read from the storage (`storageKey`), given whole (`bytes`), or made for the export (`localFile`). */
export interface ExportFile {
  path: string;
  storageKey: string | null;
  bytes?: Uint8Array;
  localFile?: string;
}

export type ExportOutcome =
  | { status: 'ok'; archive: CourseArchive; files: ExportFile[]; /** The scratch folder of remuxed videos, removed when the archive ends. */ scratch: string | null }
  | { status: 'unknownCourse' }
  | { status: 'missingMedia'; key: string };

const HLS_MIME = 'application/vnd.apple.mpegurl';

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
  // Converted library videos (an HLS master), and their own caption tracks.
  const masters = rows.filter((r) => r.mimeType === HLS_MIME && r.storageKey.endsWith('/master.m3u8')).map((r) => r.id);
  const library = masters.length ? await db.select({ id: videos.id, ladder: videos.ladder, mediaFileId: videos.mediaFileId }).from(videos).where(inArray(videos.mediaFileId, masters)) : [];
  const libraryTracks = library.length ? await db.select().from(videoCaptions).where(inArray(videoCaptions.videoId, library.map((v) => v.id))) : [];
  const trackRows = libraryTracks.length ? await db.select().from(mediaFiles).where(inArray(mediaFiles.id, libraryTracks.map((c) => c.mediaFileId))) : [];

  const media: ArchiveMedia[] = [];
  const files: ExportFile[] = [];
  const pathOf = new Map<number, string>();
  let scratch: string | null = null;
  try {
    for (const row of [...rows.sort((a, b) => a.id - b.id), ...trackRows.filter((t) => !fileIds.includes(t.id)).sort((a, b) => a.id - b.id)]) {
      const video = library.find((v) => v.mediaFileId === row.id);
      if (video) {
        scratch ??= await mkdtemp(join(tmpdir(), 'academy-export-'));
        const made = await remuxToMp4(storage, video, scratch).catch(() => null);
        if (!made) return await cleared(scratch, { status: 'missingMedia', key: row.storageKey });
        const path = mediaPathOf(media.length + 1, 'video/mp4');
        pathOf.set(row.id, path);
        media.push({ path, contentType: 'video/mp4', sizeBytes: made.sizeBytes, durationSeconds: row.durationSeconds });
        files.push({ path, storageKey: null, localFile: made.file });
        continue;
      }
      if (row.mimeType === HLS_MIME) return await cleared(scratch, { status: 'missingMedia', key: row.storageKey });
      const stored = await storage.stat(row.storageKey);
      if (!stored) return await cleared(scratch, { status: 'missingMedia', key: row.storageKey });
      const path = mediaPathOf(media.length + 1, row.mimeType);
      pathOf.set(row.id, path);
      media.push({ path, contentType: row.mimeType, sizeBytes: stored.sizeBytes, durationSeconds: row.durationSeconds });
      files.push({ path, storageKey: row.storageKey });
    }
  } catch (err) {
    await cleared(scratch, null);
    throw err;
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
              // The lesson's own track first, else the library video's.
              const own = tracks.find((t) => t.resourceId === r.id && t.lang === lang);
              const video = library.find((v) => v.mediaFileId === r.mediaFileId);
              const c = own ?? (video ? libraryTracks.find((t) => t.videoId === video.id && t.lang === lang) : undefined);
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
  return { status: 'ok', archive, files, scratch };
}

/** Removes the export's scratch folder (if any) and answers `outcome`. */
async function cleared<T>(scratch: string | null, outcome: T): Promise<T> {
  if (scratch) await rm(scratch, { recursive: true, force: true });
  return outcome;
}

/**
 * The zip of an archive, chunk by chunk: `course.json` first, then each file read from the storage (or
 * the export's scratch folder) when its turn comes. The scratch folder is removed when the archive ends,
 * is cancelled or fails.
 */
export async function* archiveStream(storage: Storage, outcome: Extract<ExportOutcome, { status: 'ok' }>, now = new Date()): AsyncGenerator<Uint8Array> {
  const entries: StreamEntry[] = [
    { name: COURSE_JSON, content: JSON.stringify(outcome.archive, null, 2) },
    ...outcome.files.map((f): StreamEntry => ({
      name: f.path,
      content:
        f.bytes ??
        (async () => {
          if (f.localFile) return createReadStream(f.localFile);
          const got = await storage.get(f.storageKey!);
          if (!got) throw new Error(`stored file gone during an export: ${f.storageKey}`);
          return got.body as AsyncIterable<Uint8Array>;
        }),
    })),
  ];
  try {
    yield* zipStream(entries, now);
  } finally {
    await cleared(outcome.scratch, null);
  }
}

/**
 * Chunks as a web stream a Response sends (pulled one at a time; a cancelled download stops the reading
 * and, through `dispose`, drops what the export made even when no chunk was pulled yet).
 */
export function webStream(chunks: AsyncGenerator<Uint8Array>, dispose: () => Promise<unknown> = async () => undefined): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await chunks.return(undefined);
      await dispose();
    },
  });
}

/** Drops an export's scratch folder (the archive's own end does it too; this is for one never read). */
export const discardExport = (outcome: Extract<ExportOutcome, { status: 'ok' }>) => cleared(outcome.scratch, null);

/** The export in the audit trail (who took a copy of which course). */
export const auditExport = (db: Db, actorId: number, courseId: number, files: number) =>
  recordAudit(db, { action: 'course.exported', actor: userRef(actorId), subject: `course:${courseId}`, after: { files } });
