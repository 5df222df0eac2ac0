/**
 * The video library of the back office: each upload (a tus upload id owned by the editor who made it),
 * its probe facts, its transcode (state, progress, the claim of the worker doing it) and its outputs
 * (the HLS master playlist as a `media_files` row, the poster), and its caption tracks. Part of the one
 * schema (`schema.ts` re-exports it).
 */
import { sql } from 'drizzle-orm';
import { bigint, index, integer, numeric, pgTable, primaryKey, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { mediaFiles, users } from './schema';

/** Where a library video is: its upload, its probe, its transcode, done or failed. */
export const VIDEO_STATES = ['uploading', 'probing', 'queued', 'transcoding', 'ready', 'failed'] as const;
export type VideoState = (typeof VIDEO_STATES)[number];

/** A video of the library. */
export const videos = pgTable(
  'videos',
  {
    id: serial().primaryKey(),
    /** The tus upload id (random, 32 hex); only its owner may write to it. */
    uploadId: text().notNull(),
    /** Who uploaded it (null once their account is deleted). */
    ownerId: integer().references(() => users.id, { onDelete: 'set null' }),
    /** The title shown in the library (the file's name without its folder, cleaned). */
    title: text().notNull(),
    state: text({ enum: VIDEO_STATES }).notNull().default('uploading'),
    /** Why it failed: a key of the `videos.failures` messages. */
    failure: text(),
    sizeBytes: bigint({ mode: 'number' }).notNull(),
    /** Percent of the transcode done (0–100). */
    progress: smallint().notNull().default(0),
    durationSeconds: numeric({ precision: 10, scale: 2 }),
    width: integer(),
    height: integer(),
    hasAudio: integer().notNull().default(1),
    /** The heights of the HLS ladder made (`360,720`). */
    ladder: text(),
    /**
     * The lesson file this video was converted from (a demo clip shipped with the academy, `MEDIA_DIR`):
     * lessons that play that file play this video's HLS once it is ready. Null for an upload.
     */
    sourceMediaFileId: integer().references(() => mediaFiles.id),
    /** The HLS master playlist, once ready: lessons point at this `media_files` id. */
    mediaFileId: integer().references(() => mediaFiles.id),
    posterKey: text(),
    /** The claim of the worker transcoding it; a claim whose lease ran out is taken again. */
    attempts: integer().notNull().default(0),
    lockedBy: text(),
    lockedUntil: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('videos_upload_uq').on(t.uploadId),
    uniqueIndex('videos_source_uq').on(t.sourceMediaFileId).where(sql`${t.sourceMediaFileId} is not null`),
    index('videos_queue_idx').on(t.id).where(sql`${t.state} in ('queued', 'transcoding')`),
  ],
);
export type Video = typeof videos.$inferSelect;

/** A WebVTT caption track of a library video, one per language; the file is a `media_files` row in storage. */
export const videoCaptions = pgTable(
  'video_captions',
  {
    videoId: integer()
      .notNull()
      .references(() => videos.id, { onDelete: 'cascade' }),
    lang: text({ enum: ['es', 'en'] }).notNull(),
    mediaFileId: integer()
      .notNull()
      .references(() => mediaFiles.id),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.videoId, t.lang] })],
);
