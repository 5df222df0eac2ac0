/**
 * The conversion of queued videos, outside the web request: a worker claims one video at a time (once
 * across processes), runs ffmpeg as a child process (H.264/AAC HLS ladder, then a poster frame), saves
 * the percent done to the row while renewing its lease, writes every output through the storage
 * interface and marks the video ready; only then is the upload removed. A worker that dies mid-way (even
 * `kill -9`) takes its ffmpeg with it (`boundToParent`) and leaves a lease that runs out: another claim
 * takes the video again, up to `MAX_TRANSCODE_ATTEMPTS`, and writes every output again (a reader never
 * finds a playlist naming a missing file: playlists are stored after their segments). What it left on
 * this machine (its scratch folder; the upload of a video it made ready) goes at the next pass.
 */
import type { OutageWatch } from '../db/outage.server';
import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { and, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { videos, type Video } from '../db/schema';
import type { Logger } from '../http/log.server';
import type { Storage } from '../storage/storage';
import { runFfmpeg } from './tools.server';
import { claimTranscode, finishUpload, markReady, releaseClaim, renewClaim } from './videos.server';
import { uploadedFiles } from './upload-files.server';
import { hlsArguments, ladderFor, masterPlaylist, posterArguments, posterSecond, PROBE_STALE_MS, scratchName, TRANSCODE_LEASE_MS, videoKeys } from './videos';

export interface TranscodeDeps {
  db: Db;
  storage: Storage;
  dataDir: string;
  workerId: string;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  /** How often the percent is saved and the lease renewed (default 2 s). */
  renewMs?: number;
  /**
   * Told when a video converted from a lesson's shipped file (a demo clip) is ready: the lessons that
   * play that file now play its HLS, so their kept pages are stale (the runtime's `catalogChanged`).
   */
  lessonsChanged?: () => Promise<void>;
  /** The ffmpeg processes running now (the worker kills them when it stops: they never outlive it). */
  running?: Set<{ kill(): void }>;
  /** Told each step of a conversion as it is reached (`ffmpeg-running`, `output-stored`, `ready-marked`): the fault tests stop the process there. */
  step?: (name: string) => void | Promise<void>;
}

/** The folder of the conversions' scratch folders, in the data folder. */
const scratchRoot = (dataDir: string) => join(dataDir, 'transcode');

async function* filesUnder(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else if (entry.isFile()) yield path;
  }
}

/**
 * Converts one claimed video from its finished upload (a local copy of it when it lives in the bucket),
 * and removes the upload once the video is ready; throws on failure (the caller releases the claim).
 */
export async function transcodeVideo(deps: TranscodeDeps, video: Video): Promise<'ready' | 'lost'> {
  const files = uploadedFiles(deps.storage, deps.dataDir);
  // One scratch copy per video on a machine (one claim at a time): the next attempt overwrites what a crash left.
  const converted = await files.withLocalFile(video.uploadId, 'transcode', (input) => convert(deps, video, input));
  if (!converted.found) throw Object.assign(new Error('the uploaded file is missing'), { failure: 'missing' as const });
  if (converted.value === 'ready') await files.remove(video.uploadId);
  return converted.value;
}

/** Converts `video` from the local file `input`: the HLS ladder and poster in storage, the video ready. */
async function convert(deps: TranscodeDeps, video: Video, input: string): Promise<'ready' | 'lost'> {
  const { db, storage, workerId } = deps;
  const work = join(scratchRoot(deps.dataDir), scratchName(video.id, workerId));
  await rm(work, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  try {
    const duration = Number(video.durationSeconds ?? 0);
    const rungs = ladderFor(video.width ?? 0, video.height ?? 0);
    for (const r of rungs) await mkdir(join(work, r.name), { recursive: true });
    let lost = false;
    let lastSaved = 0;
    let saving: Promise<unknown> = Promise.resolve();
    let told = false;
    const run = runFfmpeg(hlsArguments(input, work, rungs, video.hasAudio === 1), {
      durationSeconds: duration,
      onPercent: (percent) => {
        if (!told) {
          told = true;
          void deps.step?.('ffmpeg-running');
        }
        const now = Date.now();
        if (now - lastSaved < (deps.renewMs ?? 2000)) return;
        lastSaved = now;
        saving = saving.then(async () => {
          if (!(await renewClaim(db, video.id, workerId, percent).catch(() => true))) {
            lost = true;
            run.kill();
          }
        });
      },
    });
    deps.running?.add(run);
    // A long silence of ffmpeg (no progress line) must not let the lease run out.
    const keepAlive = setInterval(() => {
      saving = saving.then(async () => {
        if (!(await renewClaim(db, video.id, workerId, video.progress).catch(() => true))) {
          lost = true;
          run.kill();
        }
      });
    }, 10_000);
    try {
      await run.done;
    } catch (err) {
      if (lost) return 'lost';
      throw err;
    } finally {
      clearInterval(keepAlive);
      deps.running?.delete(run);
      await saving;
    }
    if (lost) return 'lost';
    await writeFile(join(work, 'master.m3u8'), masterPlaylist(rungs, video.hasAudio === 1));
    const poster = runFfmpeg(posterArguments(input, join(work, 'poster.jpg'), posterSecond(duration), video.height ?? 720));
    deps.running?.add(poster);
    await poster.done.finally(() => deps.running?.delete(poster));
    // What an earlier attempt killed mid-write left beside these keys goes (a live writer holds the claim and writes on).
    await storage.sweepUnfinished?.(videoKeys.folder(video.id), TRANSCODE_LEASE_MS);
    // Segments first, the playlists that name them last: a reader never finds a playlist without its files.
    const files: string[] = [];
    for await (const f of filesUnder(work)) files.push(f);
    files.sort((a, b) => Number(a.endsWith('.m3u8')) - Number(b.endsWith('.m3u8')) || Number(a.endsWith('master.m3u8')) - Number(b.endsWith('master.m3u8')));
    for (const f of files) {
      const rel = relative(work, f).split(sep).join('/');
      await storage.put(`${videoKeys.folder(video.id)}${rel}`, createReadStream(f));
      await deps.step?.('output-stored');
    }
    const masterBytes = (await stat(join(work, 'master.m3u8'))).size;
    const mediaFileId = await markReady(db, video, workerId, { masterBytes, ladder: rungs.map((r) => r.height).join(','), posterKey: videoKeys.poster(video.id) });
    if (mediaFileId === null) return 'lost';
    await deps.step?.('ready-marked');
    if (video.sourceMediaFileId !== null) await deps.lessonsChanged?.().catch((err: unknown) => deps.logger.warn({ videoId: video.id, err: (err as Error).message }, 'video ready: could not tell the lessons'));
    deps.logger.info({ videoId: video.id, mediaFileId, rungs: rungs.map((r) => r.name) }, 'video ready');
    return 'ready';
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * Probes again the videos a killed process left `probing` (between an upload's last byte and the queue)
 * for longer than `PROBE_STALE_MS`: each is taken by one worker only (the update that takes it checks it
 * is still stale), then queued or refused in words exactly as a fresh upload is. Returns how many.
 */
export async function reprobeStale(deps: Pick<TranscodeDeps, 'db' | 'dataDir' | 'storage'>, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - PROBE_STALE_MS);
  const stale = await deps.db.select({ id: videos.id, uploadId: videos.uploadId }).from(videos).where(and(eq(videos.state, 'probing'), lt(videos.updatedAt, cutoff)));
  let taken = 0;
  for (const video of stale) {
    const [mine] = await deps.db
      .update(videos)
      .set({ updatedAt: now })
      .where(and(eq(videos.id, video.id), eq(videos.state, 'probing'), lt(videos.updatedAt, cutoff)))
      .returning({ id: videos.id });
    if (!mine) continue;
    taken++;
    await finishUpload(deps.db, uploadedFiles(deps.storage, deps.dataDir), video.uploadId);
  }
  return taken;
}

/**
 * Removes what conversions cut short (a process killed) left in the data folder: scratch folders no
 * live claim holds (a folder is made after its claim, so one listed here with a live claim shows in the
 * query after the listing), and the uploads of videos that are ready (killed between the two).
 */
export async function sweepLeftovers(deps: Pick<TranscodeDeps, 'db' | 'dataDir' | 'storage'>, now = new Date()): Promise<void> {
  const folders = await readdir(scratchRoot(deps.dataDir)).catch(() => [] as string[]);
  if (folders.length > 0) {
    const live = await deps.db
      .select({ id: videos.id, lockedBy: videos.lockedBy })
      .from(videos)
      .where(and(eq(videos.state, 'transcoding'), gt(videos.lockedUntil, now)));
    const held = new Set(live.map((v) => scratchName(v.id, v.lockedBy ?? '')));
    for (const folder of folders) if (!held.has(folder)) await rm(join(scratchRoot(deps.dataDir), folder), { recursive: true, force: true });
  }
  const files = uploadedFiles(deps.storage, deps.dataDir);
  const uploads = await files.ids();
  if (uploads.length > 0) {
    const ready = await deps.db
      .select({ uploadId: videos.uploadId })
      .from(videos)
      .where(and(eq(videos.state, 'ready'), inArray(videos.uploadId, uploads)));
    for (const r of ready) await files.remove(r.uploadId);
  }
}

/** Clears what killed conversions left and probes again what killed probes left, then claims and converts queued videos until none is left; resolves with how many it handled. */
export async function transcodeDue(deps: TranscodeDeps, shouldStop: () => boolean = () => false): Promise<number> {
  await sweepLeftovers(deps);
  await reprobeStale(deps);
  let handled = 0;
  while (!shouldStop()) {
    const video = await claimTranscode(deps.db, deps.workerId);
    if (!video) break;
    handled++;
    try {
      await transcodeVideo(deps, video);
    } catch (err) {
      deps.logger.warn({ videoId: video.id, attempts: video.attempts, err: (err as Error).message }, 'video conversion failed');
      const missing = (err as { failure?: string }).failure === 'missing';
      await releaseClaim(deps.db, missing ? { ...video, attempts: Number.MAX_SAFE_INTEGER } : video, deps.workerId).catch(() => undefined);
      if (missing) await deps.db.execute(videoMissing(video.id)).catch(() => undefined);
    }
  }
  return handled;
}

const videoMissing = (id: number) => sql`update ${videos} set failure = 'missing' where ${videos.id} = ${id}`;

/** A worker converting queued videos every `pollMs`, one at a time; `stop` waits for the current one. */
export function startVideoWorker(options: TranscodeDeps & { pollMs?: number; outage?: Pick<OutageWatch, 'report'> }): { stop(): Promise<void>; poke(): void } {
  const deps = { ...options, running: options.running ?? new Set<{ kill(): void }>() };
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  let busy = false;
  const tick = () => {
    if (busy || stopped) return;
    busy = true;
    running = transcodeDue(deps, () => stopped)
      // The database out of reach is told once per outage by the runtime's watch, not once per tick.
      .catch((err: unknown) => {
        if (!options.outage?.report(err, 'video worker')) deps.logger.warn({ err: (err as Error).message }, 'video worker: could not check for queued videos');
      })
      .finally(() => {
        busy = false;
      });
  };
  const timer = setInterval(tick, deps.pollMs ?? 3000);
  timer.unref();
  tick();
  return {
    poke: tick,
    async stop() {
      stopped = true;
      clearInterval(timer);
      // A conversion cut short is claimed again (by this or another process) when its lease runs out.
      for (const run of deps.running) run.kill();
      await running;
    },
  };
}
