/**
 * The demo clips through the video pipeline, on the seeded catalogue with real ffprobe and ffmpeg:
 * preparing queues each shipped clip once as an owner-less library video (a second preparation queues
 * nothing, one cut short is finished), the worker converts them like uploads, and the lessons then play
 * the HLS through the media route behind the lesson's access rules, the shipped file staying served.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq, isNotNull } from 'drizzle-orm';
import { directStore } from '../access/store.server';
import type { Identity } from '../access';
import type { DbHandle } from '../db/client';
import * as s from '../db/schema';
import { testDatabases } from '../db/testing';
import { createLogger } from '../http/log.server';
import { createSession, readSession } from '../identity/session.server';
import { lessonResources } from '../learning/progress.server';
import { serveMedia } from '../media/media.server';
import { stockMedia } from '../media/stock.server';
import { createLocalStorage } from '../storage/local.server';
import { queueDemoVideos } from './demo.server';
import { transcodeDue } from './transcode.server';
import { uploadFile } from './upload-files.server';
import { useTempFolders } from '../testing/temp-folders';

const tempFolder = useTempFolders();

const [pglite] = await testDatabases();
const MEDIA = resolve('media');
const dataDir = tempFolder('academy-demo-videos-');
const storage = createLocalStorage(join(dataDir, 'files'));
let handle: DbHandle;
const db = () => handle.db;

const demoVideos = () => db().select().from(s.videos).where(isNotNull(s.videos.sourceMediaFileId)).orderBy(asc(s.videos.id));

/** The first video resource of a course. */
async function firstVideo(courseId: number): Promise<number> {
  const [row] = await db()
    .select({ id: s.resources.id })
    .from(s.resources)
    .innerJoin(s.subtopics, eq(s.subtopics.id, s.resources.subtopicId))
    .innerJoin(s.topics, eq(s.topics.id, s.subtopics.topicId))
    .where(and(eq(s.topics.courseId, courseId), eq(s.resources.typeId, s.RESOURCE_TYPE.video)))
    .orderBy(asc(s.topics.position), asc(s.subtopics.position))
    .limit(1);
  return row!.id;
}

async function newLearner(): Promise<Identity> {
  const email = `demo.video.${Math.random().toString(36).slice(2, 10)}@example.com`;
  const [u] = await db().insert(s.users).values({ email, firstName: 'Demo', lastName: 'Video' }).returning();
  await db().insert(s.contacts).values({ userId: u!.id, firstName: 'Demo', lastName: 'Video', email });
  const { token } = await createSession(db(), { kind: 'user', userId: u!.id });
  return (await readSession(db(), token))!.identity;
}

/** A media request as the route makes it; a new store each time (as after a catalogue change). */
const hls = (who: Identity | null, resourceId: number, path = 'master.m3u8') =>
  serveMedia(directStore(db()), who, { kind: 'hls', resourceId, path }, { method: 'GET', locale: 'en' }, storage);

beforeAll(async () => {
  handle = await pglite!.create({ seed: true });
  await stockMedia(db(), storage, MEDIA);
}, 600_000);
afterAll(async () => {
  await handle?.close();
});

describe('the demo clips at preparation', () => {
  it('queues each shipped clip once, owner-less, probed as an upload; a second preparation queues nothing', async () => {
    const first = await queueDemoVideos(db(), storage, dataDir, MEDIA);
    expect(first).toEqual({ queued: 6, present: 0 });
    const rows = await demoVideos();
    expect(rows.map((v) => [v.title, v.state, v.ownerId, v.width, v.height, v.hasAudio])).toEqual(
      ['clip-1', 'clip-2', 'clip-3', 'clip-4', 'clip-5', 'clip-6'].map((t) => [t, 'queued', null, 640, 360, 1]),
    );
    // Probed as the lessons know them: the durations the catalogue has.
    const webm = await db().select({ id: s.mediaFiles.id, duration: s.mediaFiles.durationSeconds }).from(s.mediaFiles).where(eq(s.mediaFiles.mimeType, 'video/webm'));
    for (const v of rows) expect(v.durationSeconds).toBe(webm.find((m) => m.id === v.sourceMediaFileId)!.duration);
    for (const v of rows) expect(existsSync(uploadFile(dataDir, v.uploadId))).toBe(true);

    expect(await queueDemoVideos(db(), storage, dataDir, MEDIA)).toEqual({ queued: 0, present: 6 });
    expect((await demoVideos()).map((v) => [v.id, v.state, v.updatedAt.getTime()])).toEqual(rows.map((v) => [v.id, v.state, v.updatedAt.getTime()]));
  });

  it('finishes a preparation cut short (a clip left probing, another waiting without its file)', async () => {
    const [a, b] = await demoVideos();
    await db().update(s.videos).set({ state: 'probing' }).where(eq(s.videos.id, a!.id));
    const { rm } = await import('node:fs/promises');
    await rm(uploadFile(dataDir, b!.uploadId));
    expect(await queueDemoVideos(db(), storage, dataDir, MEDIA)).toEqual({ queued: 1, present: 5 });
    expect((await demoVideos()).filter((v) => v.state !== 'queued')).toEqual([]);
    expect(existsSync(uploadFile(dataDir, b!.uploadId))).toBe(true);
    expect(await demoVideos()).toHaveLength(6);
  });

  it('lets the lessons play the shipped file while the clips wait: no HLS yet', async () => {
    const resourceId = await firstVideo(3);
    const listed = (await lessonResources(db(), { courseId: 3 })).values().next().value!;
    expect(listed[0]!.hls).toBeUndefined();
    expect((await hls(await newLearner(), resourceId)).status).toBe(404);
    const webm = await serveMedia(directStore(db()), await newLearner(), { kind: 'resource', resourceId }, { method: 'GET', locale: 'en' }, storage);
    expect([webm.status, webm.headers.get('content-type')]).toEqual([200, 'video/webm']);
  });
});

describe('the demo clips once the worker converted them', () => {
  let told = 0;
  const lessonsChanged = async () => {
    told += 1;
  };

  beforeAll(async () => {
    const handled = await transcodeDue({ db: db(), storage, dataDir, workerId: 'demo-test', logger: createLogger('silent'), lessonsChanged });
    expect(handled).toBe(6);
  }, 600_000);

  it('makes every clip ready through the upload path (HLS ladder, poster, its upload removed) and tells the lessons', async () => {
    const rows = await demoVideos();
    expect(rows.map((v) => [v.state, v.ladder])).toEqual(rows.map(() => ['ready', '360']));
    for (const v of rows) {
      expect(existsSync(uploadFile(dataDir, v.uploadId))).toBe(false);
      expect(await storage.stat(`videos/${v.id}/poster.jpg`)).not.toBeNull();
    }
    expect(told).toBe(6);
    // A later start leaves the ready clips alone.
    expect(await queueDemoVideos(db(), storage, dataDir, MEDIA)).toEqual({ queued: 0, present: 6 });
    expect((await demoVideos()).map((v) => v.state)).toEqual(rows.map(() => 'ready'));
  });

  it('plays the lessons as HLS through the media route, behind the lesson access rules', async () => {
    const free = await firstVideo(3);
    expect((await lessonResources(db(), { courseId: 3 })).values().next().value![0]!.hls).toBe(true);
    const learner = await newLearner();
    const master = await hls(learner, free);
    expect([master.status, master.headers.get('content-type')]).toEqual([200, 'application/vnd.apple.mpegurl']);
    expect(await master.text()).toMatch(/^#EXTM3U\n[\s\S]*RESOLUTION=640x360\n360p\/index\.m3u8\n$/);
    const segment = await hls(learner, free, '360p/seg-000.ts');
    expect([segment.status, segment.headers.get('content-type')]).toEqual([200, 'video/mp2t']);
    // A visitor without a session, and a learner who has not bought a paid course, are refused.
    expect((await hls(null, free)).status).toBe(403);
    const paid = await hls(learner, await firstVideo(6));
    expect([paid.status, await paid.text()]).toEqual([403, 'You do not have access to this lesson. Buy the course to watch it.']);
    expect((await hls(null, await firstVideo(6), '360p/index.m3u8')).status).toBe(403);
    // The shipped file itself stays where it was (archives and older pages name it).
    const webm = await serveMedia(directStore(db()), learner, { kind: 'resource', resourceId: free }, { method: 'HEAD', locale: 'en' }, storage);
    expect([webm.status, webm.headers.get('content-type')]).toEqual([200, 'video/webm']);
  });
});
