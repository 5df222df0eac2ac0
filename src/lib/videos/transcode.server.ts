/**
 * The conversion of queued videos, outside the web request: a worker claims one video at a time (once
 * across processes), runs ffmpeg as a child process (H.264/AAC HLS ladder, then a poster frame), saves
 * the percent done to the row while renewing its lease, writes every output through the storage
 * interface and marks the video ready. A worker that dies mid-way (even `kill -9`) leaves a lease that
 * runs out: another claim takes the video again, up to `MAX_TRANSCODE_ATTEMPTS`.
 */
import type { OutageWatch } from '../db/outage.server';
import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { createReadStream, existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { videos, type Video } from '../db/schema';
import type { Logger } from '../http/log.server';
import type { Storage } from '../storage/storage';
import { runFfmpeg } from './tools.server';
import { claimTranscode, markReady, releaseClaim, removeUpload, renewClaim, uploadFile } from './videos.server';
import { hlsArguments, ladderFor, masterPlaylist, posterArguments, posterSecond, videoKeys } from './videos';

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
}

async function* filesUnder(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else if (entry.isFile()) yield path;
  }
}

/** Converts one claimed video; throws on failure (the caller releases the claim). */
export async function transcodeVideo(deps: TranscodeDeps, video: Video): Promise<'ready' | 'lost'> {
  const { db, storage, workerId } = deps;
  const input = uploadFile(deps.dataDir, video.uploadId);
  if (!existsSync(input)) throw Object.assign(new Error('the uploaded file is missing'), { failure: 'missing' as const });
  const work = join(deps.dataDir, 'transcode', `${video.id}-${workerId.replace(/[^A-Za-z0-9]/g, '-')}`);
  await rm(work, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  try {
    const duration = Number(video.durationSeconds ?? 0);
    const rungs = ladderFor(video.width ?? 0, video.height ?? 0);
    for (const r of rungs) await mkdir(join(work, r.name), { recursive: true });
    let lost = false;
    let lastSaved = 0;
    let saving: Promise<unknown> = Promise.resolve();
    const run = runFfmpeg(hlsArguments(input, work, rungs, video.hasAudio === 1), {
      durationSeconds: duration,
      onPercent: (percent) => {
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
    // Segments first, the playlists that name them last: a reader never finds a playlist without its files.
    const files: string[] = [];
    for await (const f of filesUnder(work)) files.push(f);
    files.sort((a, b) => Number(a.endsWith('.m3u8')) - Number(b.endsWith('.m3u8')) || Number(a.endsWith('master.m3u8')) - Number(b.endsWith('master.m3u8')));
    for (const f of files) {
      const rel = relative(work, f).split(sep).join('/');
      await storage.put(`${videoKeys.folder(video.id)}${rel}`, createReadStream(f));
    }
    const masterBytes = (await stat(join(work, 'master.m3u8'))).size;
    const mediaFileId = await markReady(db, video, workerId, { masterBytes, ladder: rungs.map((r) => r.height).join(','), posterKey: videoKeys.poster(video.id) });
    if (mediaFileId === null) return 'lost';
    await removeUpload(deps.dataDir, video.uploadId);
    if (video.sourceMediaFileId !== null) await deps.lessonsChanged?.().catch((err: unknown) => deps.logger.warn({ videoId: video.id, err: (err as Error).message }, 'video ready: could not tell the lessons'));
    deps.logger.info({ videoId: video.id, mediaFileId, rungs: rungs.map((r) => r.name) }, 'video ready');
    return 'ready';
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** Claims and converts queued videos until none is left; resolves with how many it handled. */
export async function transcodeDue(deps: TranscodeDeps, shouldStop: () => boolean = () => false): Promise<number> {
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
