/**
 * The video library's reads and writes: a tus upload becomes a `videos` row owned by its uploader; a
 * finished upload is probed (refused files are removed and their row says why); queued videos are
 * claimed once across processes and converted (`transcode.server.ts`); caption tracks are checked and
 * stored. Every file goes through the storage interface; every change by staff is in the audit trail.
 */
import { and, asc, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { mediaFiles, resources, videoCaptions, videos, type Video } from '../db/schema';
import { recordAudit, userRef } from '../privacy/audit.server';
import type { Storage } from '../storage/storage';
import { probeFile } from './tools.server';
import type { UploadedFiles } from './upload-files.server';
import { MAX_TRANSCODE_ATTEMPTS, probeVerdict, TRANSCODE_LEASE_MS, videoKeys, type ProbeFailure } from './videos';
import { checkVttBytes, type VttProblem } from './webvtt';

const videoRef = (id: number) => `video:${id}`;

/** A new upload by `ownerId`: its row, and the audit line. Returns the video's id. */
export async function createVideo(db: Db, upload: { uploadId: string; ownerId: number; title: string; sizeBytes: number }): Promise<number> {
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(videos).values({ uploadId: upload.uploadId, ownerId: upload.ownerId, title: upload.title, sizeBytes: upload.sizeBytes }).returning({ id: videos.id });
    await recordAudit(tx, { action: 'video.uploadStarted', actor: userRef(upload.ownerId), subject: videoRef(row!.id), after: { title: upload.title, sizeBytes: upload.sizeBytes } });
    return row!.id;
  });
}

/** Who an upload id belongs to, or null when no upload has it. */
export async function uploadOwner(db: Db, uploadId: string): Promise<{ videoId: number; ownerId: number | null; state: Video['state'] } | null> {
  const [row] = await db.select({ videoId: videos.id, ownerId: videos.ownerId, state: videos.state }).from(videos).where(eq(videos.uploadId, uploadId)).limit(1);
  return row ?? null;
}

/** An upload its owner abandoned (tus termination) before it finished: the row goes. */
export async function dropUpload(db: Db, uploadId: string): Promise<void> {
  await db.delete(videos).where(and(eq(videos.uploadId, uploadId), eq(videos.state, 'uploading')));
}

/**
 * A finished upload: probed, then queued for conversion, or refused (the file removed, the row marked
 * failed with the reason). Called once per upload by the request that wrote its last byte.
 */
export async function finishUpload(db: Db, files: UploadedFiles, uploadId: string): Promise<{ ok: true; videoId: number } | { ok: false; failure: ProbeFailure }> {
  const [row] = await db.update(videos).set({ state: 'probing', updatedAt: new Date() }).where(eq(videos.uploadId, uploadId)).returning({ id: videos.id });
  if (!row) return { ok: false, failure: 'unreadable' };
  const probed = await files.withLocalFile(uploadId, 'probe', (file) => probeFile(file));
  const verdict = probeVerdict(probed.found ? probed.value : null);
  if (!verdict.ok) {
    await db.update(videos).set({ state: 'failed', failure: verdict.failure, updatedAt: new Date() }).where(eq(videos.id, row.id));
    await files.remove(uploadId);
    return { ok: false, failure: verdict.failure };
  }
  const f = verdict.facts;
  await db
    .update(videos)
    .set({ state: 'queued', durationSeconds: String(f.durationSeconds), width: f.width, height: f.height, hasAudio: f.hasAudio ? 1 : 0, progress: 0, updatedAt: new Date() })
    .where(eq(videos.id, row.id));
  return { ok: true, videoId: row.id };
}

/**
 * Claims the oldest queued video (or one whose worker's lease ran out: a crashed conversion) for
 * `workerId`, once across processes (`FOR UPDATE SKIP LOCKED`); videos tried too often are marked failed.
 */
export async function claimTranscode(db: Db, workerId: string, now = new Date()): Promise<Video | null> {
  const at = now.toISOString();
  await db
    .update(videos)
    .set({ state: 'failed', failure: 'transcode', lockedBy: null, lockedUntil: null, updatedAt: now })
    .where(sql`${videos.state} in ('queued', 'transcoding') and ${videos.attempts} >= ${MAX_TRANSCODE_ATTEMPTS} and (${videos.lockedUntil} is null or ${videos.lockedUntil} < ${at}::timestamptz)`);
  const lease = new Date(now.getTime() + TRANSCODE_LEASE_MS).toISOString();
  const claimed = (await db.execute(sql`
    update ${videos} set state = 'transcoding', locked_by = ${workerId}, locked_until = ${lease}::timestamptz, attempts = ${videos.attempts} + 1, updated_at = ${at}::timestamptz
    where ${videos.id} = (
      select ${videos.id} from ${videos}
      where ${videos.state} in ('queued', 'transcoding') and ${videos.attempts} < ${MAX_TRANSCODE_ATTEMPTS}
        and (${videos.lockedUntil} is null or ${videos.lockedUntil} < ${at}::timestamptz)
      order by ${videos.id}
      limit 1
      for update skip locked
    )
    returning id`)) as unknown as { rows: { id: number }[] };
  const id = claimed.rows[0]?.id;
  if (id === undefined) return null;
  const [video] = await db.select().from(videos).where(eq(videos.id, id));
  return video ?? null;
}

/** Saves the progress and renews the lease; false when the claim is no longer this worker's (taken over). */
export async function renewClaim(db: Db, videoId: number, workerId: string, percent: number, now = new Date()): Promise<boolean> {
  const kept = await db
    .update(videos)
    .set({ progress: Math.min(99, Math.max(0, Math.round(percent))), lockedUntil: new Date(now.getTime() + TRANSCODE_LEASE_MS), updatedAt: now })
    .where(and(eq(videos.id, videoId), eq(videos.lockedBy, workerId), eq(videos.state, 'transcoding')))
    .returning({ id: videos.id });
  return kept.length > 0;
}

/** A failed conversion attempt: queued again after a pause, or failed for good after the last attempt. */
export async function releaseClaim(db: Db, video: Pick<Video, 'id' | 'attempts'>, workerId: string, now = new Date()): Promise<void> {
  const last = video.attempts >= MAX_TRANSCODE_ATTEMPTS;
  await db
    .update(videos)
    .set(last ? { state: 'failed', failure: 'transcode', lockedBy: null, lockedUntil: null, updatedAt: now } : { state: 'queued', lockedBy: null, lockedUntil: new Date(now.getTime() + 10_000 * video.attempts), updatedAt: now })
    .where(and(eq(videos.id, video.id), eq(videos.lockedBy, workerId)));
}

/**
 * A finished conversion: the master playlist becomes a `media_files` row (in storage), the video is
 * ready. Only while the claim is still this worker's. Returns the media file's id.
 */
export async function markReady(db: Db, video: Pick<Video, 'id' | 'durationSeconds'>, workerId: string, out: { masterBytes: number; ladder: string; posterKey: string }): Promise<number | null> {
  return db.transaction(async (tx) => {
    const [mine] = await tx.select({ id: videos.id }).from(videos).where(and(eq(videos.id, video.id), eq(videos.lockedBy, workerId))).for('update');
    if (!mine) return null;
    const [file] = await tx
      .insert(mediaFiles)
      .values({ storageKey: videoKeys.master(video.id), mimeType: 'application/vnd.apple.mpegurl', sizeBytes: out.masterBytes, durationSeconds: video.durationSeconds })
      .onConflictDoUpdate({ target: mediaFiles.storageKey, set: { sizeBytes: out.masterBytes, durationSeconds: video.durationSeconds } })
      .returning({ id: mediaFiles.id });
    await tx
      .update(videos)
      .set({ state: 'ready', progress: 100, failure: null, mediaFileId: file!.id, ladder: out.ladder, posterKey: out.posterKey, lockedBy: null, lockedUntil: null, updatedAt: new Date() })
      .where(eq(videos.id, video.id));
    return file!.id;
  });
}

/** A video of the library as its list shows it. */
export interface LibraryVideo {
  id: number;
  title: string;
  state: Video['state'];
  failure: string | null;
  progress: number;
  durationSeconds: number | null;
  width: number | null;
  height: number | null;
  hasAudio: boolean;
  ladder: string | null;
  sizeBytes: number;
  /** The `media_files` id a lesson resource points at (once ready). */
  mediaFileId: number | null;
  hasPoster: boolean;
  captionLangs: ('es' | 'en')[];
  createdAt: Date;
}

function toLibrary(v: Video, langs: ('es' | 'en')[]): LibraryVideo {
  return {
    id: v.id,
    title: v.title,
    state: v.state,
    failure: v.failure,
    progress: v.progress,
    durationSeconds: v.durationSeconds === null ? null : Number(v.durationSeconds),
    width: v.width,
    height: v.height,
    hasAudio: v.hasAudio === 1,
    ladder: v.ladder,
    sizeBytes: v.sizeBytes,
    mediaFileId: v.mediaFileId,
    hasPoster: v.posterKey !== null,
    captionLangs: langs,
    createdAt: v.createdAt,
  };
}

async function captionLangsOf(db: Db, ids: number[]): Promise<Map<number, ('es' | 'en')[]>> {
  const out = new Map<number, ('es' | 'en')[]>();
  if (ids.length === 0) return out;
  const rows = await db.select({ videoId: videoCaptions.videoId, lang: videoCaptions.lang }).from(videoCaptions).where(inArray(videoCaptions.videoId, ids)).orderBy(asc(videoCaptions.lang));
  for (const r of rows) out.set(r.videoId, [...(out.get(r.videoId) ?? []), r.lang]);
  return out;
}

/** The library, newest first (at most `limit`). */
export async function listVideos(db: Db, limit = 200): Promise<LibraryVideo[]> {
  const rows = await db.select().from(videos).orderBy(desc(videos.id)).limit(limit);
  const langs = await captionLangsOf(db, rows.map((r) => r.id));
  return rows.map((r) => toLibrary(r, langs.get(r.id) ?? []));
}

/** One video of the library, or null. */
export async function videoById(db: Db, id: number): Promise<LibraryVideo | null> {
  const [row] = await db.select().from(videos).where(eq(videos.id, id));
  if (!row) return null;
  return toLibrary(row, (await captionLangsOf(db, [id])).get(id) ?? []);
}

/** The state of the videos not yet settled (and of `ids`), for the library's polling. */
export async function videoStatuses(db: Db): Promise<{ id: number; title: string; state: Video['state']; progress: number; failure: string | null; durationSeconds: number | null; mediaFileId: number | null }[]> {
  const rows = await db
    .select({ id: videos.id, title: videos.title, state: videos.state, progress: videos.progress, failure: videos.failure, durationSeconds: videos.durationSeconds, mediaFileId: videos.mediaFileId })
    .from(videos)
    .orderBy(desc(videos.id))
    .limit(200);
  return rows.map((r) => ({ ...r, durationSeconds: r.durationSeconds === null ? null : Number(r.durationSeconds) }));
}

/** Whether lesson resources play this video (a change of its captions changes lesson pages). */
export async function videoInLessons(db: Db, videoId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: resources.id })
    .from(resources)
    .innerJoin(videos, eq(videos.mediaFileId, resources.mediaFileId))
    .where(and(eq(videos.id, videoId), isNotNull(videos.mediaFileId)))
    .limit(1);
  return row !== undefined;
}

export type CaptionOutcome = { status: 'ok'; cues: number } | { status: 'unknownVideo' } | { status: 'notReady' } | { status: 'invalid'; problem: VttProblem; line: number };

/**
 * Checks a WebVTT file and stores it as the video's track in `lang` (replacing one), as `actorId`'s
 * change. Nothing is written for a refused file.
 */
export async function saveCaption(db: Db, storage: Storage, actorId: number, videoId: number, lang: 'es' | 'en', bytes: Uint8Array): Promise<CaptionOutcome> {
  const [video] = await db.select({ id: videos.id, state: videos.state }).from(videos).where(eq(videos.id, videoId));
  if (!video) return { status: 'unknownVideo' };
  if (video.state !== 'ready') return { status: 'notReady' };
  const verdict = checkVttBytes(bytes);
  if (!verdict.ok) return { status: 'invalid', problem: verdict.problem, line: verdict.line };
  const key = videoKeys.caption(videoId, lang);
  const stored = await storage.put(key, bytes, { contentType: 'text/vtt' });
  await db.transaction(async (tx) => {
    const [file] = await tx
      .insert(mediaFiles)
      .values({ storageKey: key, mimeType: 'text/vtt', sizeBytes: stored.sizeBytes })
      .onConflictDoUpdate({ target: mediaFiles.storageKey, set: { sizeBytes: stored.sizeBytes } })
      .returning({ id: mediaFiles.id });
    const [before] = await tx.select({ mediaFileId: videoCaptions.mediaFileId }).from(videoCaptions).where(and(eq(videoCaptions.videoId, videoId), eq(videoCaptions.lang, lang)));
    await tx
      .insert(videoCaptions)
      .values({ videoId, lang, mediaFileId: file!.id })
      .onConflictDoUpdate({ target: [videoCaptions.videoId, videoCaptions.lang], set: { mediaFileId: file!.id, updatedAt: new Date() } });
    await recordAudit(tx, { action: 'video.captionsSaved', actor: userRef(actorId), subject: videoRef(videoId), before: { lang, present: before !== undefined }, after: { lang, cues: verdict.cues, sizeBytes: stored.sizeBytes } });
  });
  return { status: 'ok', cues: verdict.cues };
}

/** What the preview route needs of a video: its state, when it was made ready (validators), and its poster. */
export async function previewFacts(db: Db, videoId: number): Promise<{ ready: boolean; updatedAt: Date; posterKey: string | null } | null> {
  const [row] = await db.select({ state: videos.state, updatedAt: videos.updatedAt, posterKey: videos.posterKey }).from(videos).where(eq(videos.id, videoId));
  return row ? { ready: row.state === 'ready', updatedAt: row.updatedAt, posterKey: row.posterKey } : null;
}
