/**
 * `kill -9` of the video worker mid-conversion (`backoffice-faults.child.ts` running `transcodeDue` on a
 * data folder, killing itself at a step): while ffmpeg runs, while the outputs are being stored, and
 * between marking the video ready and removing its upload. Each kill takes ffmpeg with it (no orphan
 * converting on), keeps the upload until the video is ready; after the dead worker's lease runs out the
 * next run converts it again, and the last one finds it ready: ready once, with a complete ladder in the
 * storage (every file the playlists name, nothing else), the scratch folder and the upload gone. On
 * PGlite only: what a kill leaves here is mostly processes and files, and each run converts a clip.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import * as s from '../src/lib/db/schema';
import { defaultStorageDir } from '../src/lib/config/storage';
import { createLocalStorage } from '../src/lib/storage/local.server';
import { toolPaths } from '../src/lib/videos/tools.server';
import { createVideo, finishUpload } from '../src/lib/videos/videos.server';
import { uploadedFiles, uploadFile, uploadsDir } from '../src/lib/videos/upload-files.server';
import { PEOPLE } from '../tests/e2e/support/seed';
import { faultTarget, runWrite, withDb, type FaultTarget } from '../src/lib/testing/fault-runs';

/** The processes still running (not zombies) whose command line names `text`: the converters of this test's folder. */
function processesNaming(text: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      const state = /^State:\s+(\S)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
      if (cmdline.includes(text) && state !== 'Z') found.push(`${pid} ${cmdline.split('\0').slice(0, 2).join(' ')}`);
    } catch {
      /* gone meanwhile */
    }
  }
  return found;
}

describe.skipIf(process.platform !== 'linux')('kill -9 of the video worker', () => {
  let target: FaultTarget;
  beforeAll(async () => {
    target = await faultTarget('videos-faults');
  });
  afterAll(async () => {
    await target?.remove();
  });

  it('converts the video once, completely, leaving no ffmpeg, scratch folder or upload behind', async () => {
    const { dataDir } = target;
    // 8 s of 1280×720 with sound: two rungs (360p, 720p), a few segments each, ffmpeg busy for a while.
    const uploadId = 'f'.repeat(32);
    mkdirSync(uploadsDir(dataDir), { recursive: true });
    execFileSync(toolPaths().ffmpeg, ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=10', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000', '-t', '8', '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-shortest', '-f', 'mp4', uploadFile(dataDir, uploadId)]);
    writeFileSync(`${uploadFile(dataDir, uploadId)}.json`, '{}');
    const videoId = await withDb(target, async ({ db }) => {
      const [admin] = await db.select({ id: s.users.id }).from(s.users).where(eq(s.users.email, PEOPLE.admin.email));
      const id = await createVideo(db, { uploadId, ownerId: admin!.id, title: 'clase', sizeBytes: readFileSync(uploadFile(dataDir, uploadId)).length });
      expect(await finishUpload(db, uploadedFiles(createLocalStorage(defaultStorageDir(dataDir)), dataDir), uploadId)).toEqual({ ok: true, videoId: id });
      return id;
    });
    const video = () => withDb(target, async ({ db }) => (await db.select().from(s.videos).where(eq(s.videos.id, videoId)))[0]!);
    /** The dead worker's lease runs out (as 30 s later). */
    const leaseRunsOut = () => withDb(target, ({ db }) => db.update(s.videos).set({ lockedUntil: new Date(Date.now() - 1000) }).where(eq(s.videos.id, videoId)));
    const storage = createLocalStorage(defaultStorageDir(dataDir));
    const stored = async () => {
      const keys: string[] = [];
      for await (const key of storage.list(`videos/${videoId}/`)) keys.push(key);
      return keys.sort();
    };

    // Killed while ffmpeg converts: ffmpeg dies with it (a converter left running would go on writing).
    expect(await runWrite('transcode', target, { at: 'ffmpeg-running' })).toMatchObject({ end: 'killed' });
    await expect.poll(() => processesNaming(dataDir), { timeout: 1000, interval: 20 }).toEqual([]);
    expect(await video()).toMatchObject({ state: 'transcoding', attempts: 1 });
    expect(existsSync(uploadFile(dataDir, uploadId))).toBe(true);
    await leaseRunsOut();

    // Killed after 3 of its outputs are stored: no playlist names a missing file (playlists go last).
    expect(await runWrite('transcode', target, { at: 'output-stored', nth: 3 })).toMatchObject({ end: 'killed' });
    expect(processesNaming(dataDir)).toEqual([]);
    const partial = await stored();
    expect(partial).toHaveLength(3);
    expect(partial.filter((k) => k.endsWith('.m3u8'))).toEqual([]);
    expect(await video()).toMatchObject({ state: 'transcoding', attempts: 2, mediaFileId: null });
    expect(existsSync(uploadFile(dataDir, uploadId))).toBe(true);
    // A kill in the middle of the fourth output's write leaves its temporary file (as old as the lease).
    const half = join(defaultStorageDir(dataDir), ...partial[0]!.split('/')) + '.0a1b2c3d4e5f.part';
    writeFileSync(half, 'half a segment');
    utimesSync(half, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    await leaseRunsOut();

    // Killed once the video is ready, before its upload is removed.
    expect(await runWrite('transcode', target, { at: 'ready-marked' })).toMatchObject({ end: 'killed' });
    expect(await video()).toMatchObject({ state: 'ready', attempts: 3, progress: 100, ladder: '360,720' });
    expect(existsSync(uploadFile(dataDir, uploadId))).toBe(true);

    // The next start converts nothing again and clears what the dead runs left.
    const last = await runWrite('transcode', target);
    expect(last).toMatchObject({ end: 'done', result: { handled: 0 } });
    expect(last.steps).toEqual([]);
    const ready = await video();
    expect(ready).toMatchObject({ state: 'ready', attempts: 3, lockedBy: null, failure: null });
    const masters = await withDb(target, ({ db }) => db.select().from(s.mediaFiles).where(eq(s.mediaFiles.storageKey, `videos/${videoId}/master.m3u8`)));
    expect(masters.map((m) => m.id)).toEqual([ready.mediaFileId]);
    expect(existsSync(uploadFile(dataDir, uploadId))).toBe(false);
    expect(existsSync(`${uploadFile(dataDir, uploadId)}.json`)).toBe(false);
    expect(readdirSync(join(dataDir, 'transcode'))).toEqual([]);
    expect(processesNaming(dataDir)).toEqual([]);

    // The ladder is whole: the master names each rung's playlist, each playlist its segments, all
    // stored, and nothing else is (no half-written file under a key: the storage writes by renaming).
    const text = async (key: string) => {
      const got = await storage.get(key);
      if (!got) throw new Error(`${key} is not stored`);
      const parts: Buffer[] = [];
      for await (const c of got.body) parts.push(c as Buffer);
      return Buffer.concat(parts).toString('utf8');
    };
    const named = (playlist: string) => playlist.split('\n').filter((l) => l && !l.startsWith('#'));
    const rungs = named(await text(`videos/${videoId}/master.m3u8`));
    expect(rungs).toEqual(['360p/index.m3u8', '720p/index.m3u8']);
    const expected = [`videos/${videoId}/master.m3u8`, `videos/${videoId}/poster.jpg`];
    for (const rung of rungs) {
      const playlist = await text(`videos/${videoId}/${rung}`);
      expect(playlist).toContain('#EXT-X-ENDLIST');
      const segments = named(playlist);
      expect(segments.length).toBeGreaterThanOrEqual(1);
      expected.push(`videos/${videoId}/${rung}`, ...segments.map((seg) => `videos/${videoId}/${rung.split('/')[0]}/${seg}`));
    }
    expect(await stored()).toEqual(expected.sort());
    const onDisk = readdirSync(join(defaultStorageDir(dataDir), 'videos', String(videoId)), { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    expect(onDisk.map((e) => e.name).filter((name) => name.endsWith('.part'))).toEqual([]);
    expect(onDisk).toHaveLength(expected.length);
  }, 600_000);
});
