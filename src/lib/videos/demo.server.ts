/**
 * The demo clips shipped with the academy (`MEDIA_DIR`'s videos the lessons name) become library videos
 * when the academy is prepared: each is put where a finished upload lies, probed and queued exactly as an
 * upload is (`finishUpload`), and the video worker converts it to the HLS ladder like any other. Lessons
 * keep naming the shipped file, and play the conversion once it is ready (`lessonResources`, the media
 * route); meanwhile they play the shipped file. Idempotent: a clip that already has its library video is
 * left alone, except that a preparation cut short (even by `kill -9`) is finished by the next one.
 */
import { stat } from 'node:fs/promises';
import { and, inArray, isNotNull } from 'drizzle-orm';
import type { Db } from '../db/client';
import { mediaFiles, videos } from '../db/schema';
import { resolveUnder } from '../media';
import { isStorageKey, type Storage } from '../storage';
import { finishUpload } from './videos.server';
import { uploadedFiles } from './upload-files.server';
import { demoUploadId, DEMO_VIDEO_TYPES, titleOfFileName } from './videos';

/** What preparing the demo videos did: clips queued for conversion now, and clips whose video was already there. */
export interface DemoVideosReport {
  queued: number;
  present: number;
}

const exists = (path: string) => stat(path).then((s) => s.isFile(), () => false);

/**
 * Makes every demo clip of `mediaDir` that the database names (a `media_files` video) a library video
 * queued for conversion, unless it has one. The clip lies where uploads do (the data folder, or the
 * bucket's `uploads/` with STORAGE=s3), where the worker reads it; an in-memory academy (`memory://`)
 * has no data folder and keeps playing the shipped files.
 */
export async function queueDemoVideos(db: Db, storage: Storage, dataDir: string, mediaDir: string): Promise<DemoVideosReport> {
  const report: DemoVideosReport = { queued: 0, present: 0 };
  if (dataDir === 'memory://') return report;
  const uploads = uploadedFiles(storage, dataDir);
  const files = await db.select({ id: mediaFiles.id, key: mediaFiles.storageKey }).from(mediaFiles).where(inArray(mediaFiles.mimeType, [...DEMO_VIDEO_TYPES]));
  if (files.length === 0) return report;
  const made = await db
    .select({ source: videos.sourceMediaFileId, uploadId: videos.uploadId, state: videos.state })
    .from(videos)
    .where(and(isNotNull(videos.sourceMediaFileId), inArray(videos.sourceMediaFileId, files.map((f) => f.id))));
  const bySource = new Map(made.map((v) => [v.source!, v]));
  for (const file of files) {
    const path = isStorageKey(file.key) ? resolveUnder(mediaDir, file.key) : null;
    if (!path || !(await exists(path))) continue;
    const video = bySource.get(file.id);
    if (video && !['uploading', 'probing'].includes(video.state)) {
      // A data folder that lost the file of a clip still waiting for the worker gets it again.
      if (['queued', 'transcoding'].includes(video.state) && !(await uploads.has(video.uploadId))) await uploads.place(video.uploadId, path);
      report.present += 1;
      continue;
    }
    const uploadId = video?.uploadId ?? demoUploadId(file.key);
    // The file first, then the row: a row never waits for a file that is not coming.
    await uploads.place(uploadId, path);
    if (!video) {
      const { size } = await stat(path);
      const [created] = await db
        .insert(videos)
        .values({ uploadId, ownerId: null, title: titleOfFileName(file.key), sizeBytes: size, sourceMediaFileId: file.id })
        .onConflictDoNothing()
        .returning({ id: videos.id });
      // Another preparation (`npm run db:seed` beside a running server) made it a moment ago: it is theirs to queue.
      if (!created) {
        report.present += 1;
        continue;
      }
    }
    const outcome = await finishUpload(db, uploads, uploadId);
    if (outcome.ok) report.queued += 1;
  }
  return report;
}
