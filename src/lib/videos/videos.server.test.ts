/**
 * The video library on a real database and real ffmpeg, with tiny generated clips (2 s, 160×90), with
 * finished uploads in the data folder and in a bucket (s3rver in this process): a finished upload is
 * probed (a renamed text file, a truncated file and sound alone are refused and removed), a queued video
 * is claimed once, an abandoned claim is taken again, the conversion writes the HLS folder, poster and
 * `media_files` row through the storage interface and removes the upload (and any scratch copy of it),
 * and caption tracks are checked before anything is stored.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { readConfig } from '../config/config';
import type { DbHandle } from '../db/client';
import { auditEvents, mediaFiles, users, videoCaptions, videos } from '../db/schema';
import { testDatabases } from '../db/testing';
import { createLogger } from '../http/log.server';
import { createStorage } from '../storage/create.server';
import { startObjectStore, type TestObjectStore } from '../storage/s3rver.testing';
import type { Storage } from '../storage/storage';
import { toolPaths } from './tools.server';
import { claimTranscode, createVideo, finishUpload, listVideos, releaseClaim, renewClaim, saveCaption } from './videos.server';
import { scratchDir, uploadedFiles, uploadFile, uploadsDir, UPLOADS_PREFIX, type UploadedFiles } from './upload-files.server';
import { reprobeStale, transcodeDue } from './transcode.server';
import { PROBE_STALE_MS, TRANSCODE_LEASE_MS } from './videos';
import { useTempFolders } from '../testing/temp-folders';

const tempFolder = useTempFolders();

const [pglite] = await testDatabases();
const clips = tempFolder('academy-clips-');
const logger = createLogger('silent');
let n = 0;

let objectStore: TestObjectStore | null = null;
let notStarted = '';
try {
  objectStore = await startObjectStore();
} catch (err) {
  notStarted = `s3rver could not start here (${(err as Error).message}): the bucket half of the video library tests is skipped`;
  console.warn(notStarted);
}
afterAll(async () => {
  await objectStore?.stop();
});

/** A clip made by ffmpeg from its test sources. */
function make(name: string, args: string[]): string {
  const out = join(clips, name);
  execFileSync(toolPaths().ffmpeg, ['-hide_banner', '-loglevel', 'error', '-y', ...args, out]);
  return out;
}

let good: Buffer;
beforeAll(() => {
  good = readFileSync(make('good.mp4', ['-f', 'lavfi', '-i', 'testsrc2=size=160x90:rate=15', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000', '-t', '2', '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-shortest']));
}, 120_000);

const places = [
  { name: 'the data folder', env: (): Record<string, string> => ({}), skip: '' },
  { name: 'a bucket', env: (): Record<string, string> => objectStore!.env, skip: notStarted },
] as const;

describe.each(places)('the video library with uploads in $name', ({ env, skip }) => {
  let handle: DbHandle;
  let ownerId: number;
  let storage: Storage;
  let files: UploadedFiles;
  const dataDir = tempFolder('academy-videos-');

  beforeAll(async () => {
    if (skip) return;
    handle = await pglite!.create({ seed: true });
    [{ id: ownerId }] = (await handle.db.select({ id: users.id }).from(users).limit(1)) as [{ id: number }];
    storage = await createStorage(readConfig({ DATA_DIR: dataDir, ...env() }).storage);
    files = uploadedFiles(storage, dataDir);
  }, 120_000);
  afterAll(async () => {
    await storage?.close?.();
    await handle?.close();
  });

  /** An upload whose bytes are `bytes`, as tus leaves it when its last byte arrives (with tus's bookkeeping beside it). */
  async function uploaded(bytes: Buffer, title = 'clip'): Promise<{ uploadId: string; videoId: number }> {
    const uploadId = (++n).toString(16).padStart(32, '0');
    if (storage.kind === 'local') {
      mkdirSync(uploadsDir(dataDir), { recursive: true });
      writeFileSync(uploadFile(dataDir, uploadId), bytes);
      writeFileSync(`${uploadFile(dataDir, uploadId)}.json`, '{}');
    } else {
      await storage.put(UPLOADS_PREFIX + uploadId, bytes);
      await storage.put(`${UPLOADS_PREFIX + uploadId}.info`, Buffer.from('{}'));
    }
    const videoId = await createVideo(handle.db, { uploadId, ownerId, title, sizeBytes: bytes.length });
    return { uploadId, videoId };
  }
  /** The upload's bytes and bookkeeping that are still kept. */
  async function kept(uploadId: string): Promise<string[]> {
    if (storage.kind === 'local') return [uploadFile(dataDir, uploadId), `${uploadFile(dataDir, uploadId)}.json`].filter((f) => existsSync(f));
    const keys: string[] = [];
    for await (const k of storage.list(UPLOADS_PREFIX + uploadId)) keys.push(k);
    return keys;
  }
  /** Scratch copies left in the data folder. */
  const scratch = () => (existsSync(scratchDir(dataDir)) ? readdirSync(scratchDir(dataDir)) : []);

  const row = async (id: number) => (await handle.db.select().from(videos).where(eq(videos.id, id)))[0]!;

  describe.skipIf(skip)('probing a finished upload', () => {
    it('refuses a renamed text file, a truncated video and sound alone, removing the bytes and saying why', async () => {
      const audio = readFileSync(make('audio.mp4', ['-f', 'lavfi', '-i', 'sine=frequency=440', '-t', '2', '-c:a', 'aac']));
      const cases = [
        { bytes: Buffer.from('esto no es un video\n'.repeat(50)), failure: 'notVideo' },
        { bytes: good.subarray(0, Math.floor(good.length / 3)), failure: 'notVideo' },
        { bytes: audio, failure: 'noVideoStream' },
      ];
      for (const c of cases) {
        const { uploadId, videoId } = await uploaded(c.bytes);
        expect(await finishUpload(handle.db, files, uploadId)).toEqual({ ok: false, failure: c.failure });
        expect(await kept(uploadId)).toEqual([]);
        expect(await row(videoId)).toMatchObject({ state: 'failed', failure: c.failure, mediaFileId: null });
      }
      expect(scratch()).toEqual([]);
      // A refused upload is never claimed for conversion.
      expect(await claimTranscode(handle.db, 'worker-a')).toBeNull();
    });

    it('probes again an upload a killed process left probing, once, and leaves a fresh probe alone', async () => {
      const stale = await uploaded(good, 'cortado');
      const fresh = await uploaded(good, 'en curso');
      const now = new Date();
      await handle.db.update(videos).set({ state: 'probing', updatedAt: new Date(now.getTime() - PROBE_STALE_MS - 1000) }).where(eq(videos.id, stale.videoId));
      await handle.db.update(videos).set({ state: 'probing', updatedAt: now }).where(eq(videos.id, fresh.videoId));
      const deps = { db: handle.db, dataDir, storage };
      // Two workers sweeping at once: one takes it.
      expect((await Promise.all([reprobeStale(deps, now), reprobeStale(deps, now)])).sort()).toEqual([0, 1]);
      expect(await row(stale.videoId)).toMatchObject({ state: 'queued', width: 160, height: 90 });
      expect(await row(fresh.videoId)).toMatchObject({ state: 'probing' });
      expect(await reprobeStale(deps, now)).toBe(0);
      // Out of the way of the tests that follow: nothing else is queued for them.
      await handle.db.update(videos).set({ state: 'failed', failure: 'transcode' }).where(inArray(videos.id, [stale.videoId, fresh.videoId]));
      await files.remove(stale.uploadId);
      await files.remove(fresh.uploadId);
    });
  });

  describe.skipIf(skip)('converting', () => {
    it('claims a queued video once, takes an abandoned claim again, and makes the HLS folder, poster and media file', async () => {
      const { uploadId, videoId } = await uploaded(good, 'Clase uno');
      expect(await finishUpload(handle.db, files, uploadId)).toEqual({ ok: true, videoId });
      expect(await row(videoId)).toMatchObject({ state: 'queued', width: 160, height: 90, hasAudio: 1 });

      // One worker claims it; another finds nothing while the lease holds.
      const claimed = await claimTranscode(handle.db, 'worker-a');
      expect(claimed).toMatchObject({ id: videoId, state: 'transcoding', lockedBy: 'worker-a', attempts: 1 });
      expect(await claimTranscode(handle.db, 'worker-b')).toBeNull();
      // worker-a dies (no renewal): once its lease runs out, worker-b takes the video again…
      const later = new Date(Date.now() + TRANSCODE_LEASE_MS + 1000);
      expect(await claimTranscode(handle.db, 'worker-b', later)).toMatchObject({ id: videoId, lockedBy: 'worker-b', attempts: 2 });
      // …and worker-a, back from the dead, can neither save progress nor finish.
      expect(await renewClaim(handle.db, videoId, 'worker-a', 50)).toBe(false);
      // worker-b gives it back (as after a failed attempt); the worker loop converts it.
      await releaseClaim(handle.db, { id: videoId, attempts: 2 }, 'worker-b', new Date(Date.now() - 60_000));
      const handled = await transcodeDue({ db: handle.db, storage, dataDir, workerId: 'worker-c', logger, renewMs: 0 });
      expect(handled).toBe(1);

      const done = await row(videoId);
      expect(done).toMatchObject({ state: 'ready', progress: 100, ladder: '90', posterKey: `videos/${videoId}/poster.jpg`, lockedBy: null });
      const [file] = await handle.db.select().from(mediaFiles).where(eq(mediaFiles.id, done.mediaFileId!));
      expect(file).toMatchObject({ storageKey: `videos/${videoId}/master.m3u8`, mimeType: 'application/vnd.apple.mpegurl' });
      const keys: string[] = [];
      for await (const k of storage.list(`videos/${videoId}/`)) keys.push(k);
      expect(keys).toEqual(expect.arrayContaining([`videos/${videoId}/master.m3u8`, `videos/${videoId}/90p/index.m3u8`, `videos/${videoId}/90p/seg-000.ts`, `videos/${videoId}/poster.jpg`]));
      const master = await storage.get(`videos/${videoId}/master.m3u8`);
      let text = '';
      for await (const chunk of master!.body) text += chunk.toString();
      expect(text).toContain('90p/index.m3u8');
      // The uploaded original is gone once its renditions are stored.
      expect(await kept(uploadId)).toEqual([]);
      expect(scratch()).toEqual([]);
      expect((await listVideos(handle.db)).find((v) => v.id === videoId)).toMatchObject({ state: 'ready', durationSeconds: 2, hasPoster: true, mediaFileId: done.mediaFileId });
    }, 120_000);

    it('marks a video failed after its last attempt, and one whose upload vanished', async () => {
      const { uploadId, videoId } = await uploaded(good);
      await finishUpload(handle.db, files, uploadId);
      await handle.db.update(videos).set({ attempts: 3, state: 'transcoding', lockedUntil: new Date(Date.now() - 1000) }).where(eq(videos.id, videoId));
      expect(await claimTranscode(handle.db, 'worker-a')).toBeNull();
      expect(await row(videoId)).toMatchObject({ state: 'failed', failure: 'transcode' });

      const gone = await uploaded(good);
      await finishUpload(handle.db, files, gone.uploadId);
      await files.remove(gone.uploadId);
      await transcodeDue({ db: handle.db, storage, dataDir, workerId: 'worker-a', logger });
      expect(await row(gone.videoId)).toMatchObject({ state: 'failed', failure: 'missing' });
    }, 120_000);
  });

  describe.skipIf(skip)('caption tracks', () => {
    it('stores a valid WebVTT track and refuses a script-bearing one without writing anything', async () => {
      const [ready] = (await listVideos(handle.db)).filter((v) => v.state === 'ready');
      const vtt = new TextEncoder().encode('WEBVTT\n\n00:00.000 --> 00:01.000\nHola\n');
      expect(await saveCaption(handle.db, storage, ownerId, ready!.id, 'es', vtt)).toEqual({ status: 'ok', cues: 1 });
      expect(await storage.stat(`videos/${ready!.id}/captions-es.vtt`)).toMatchObject({ sizeBytes: vtt.length });
      const bad = new TextEncoder().encode('WEBVTT\n\n00:00.000 --> 00:01.000\n<script>alert(1)</script>\n');
      expect(await saveCaption(handle.db, storage, ownerId, ready!.id, 'en', bad)).toEqual({ status: 'invalid', problem: 'markup', line: 4 });
      expect(await storage.stat(`videos/${ready!.id}/captions-en.vtt`)).toBeNull();
      expect((await handle.db.select().from(videoCaptions).where(eq(videoCaptions.videoId, ready!.id))).map((c) => c.lang)).toEqual(['es']);
      expect(await saveCaption(handle.db, storage, ownerId, 2_147_483_647, 'es', vtt)).toEqual({ status: 'unknownVideo' });
      const audit = await handle.db.select().from(auditEvents).where(eq(auditEvents.subject, `video:${ready!.id}`));
      expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['video.uploadStarted', 'video.captionsSaved']));
    });
  });
});
