/**
 * The demo media reach the configured storage (the local folder, or an object store: s3rver here) once,
 * and the media route then serves them from it with ranges, behind the same access checks.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { directStore } from '../access/store.server';
import { readConfig } from '../config/config';
import { ConfigError } from '../config/error';
import type { DbHandle } from '../db/client';
import * as s from '../db/schema';
import { testDatabases } from '../db/testing';
import { createSession, readSession } from '../identity/session.server';
import { createStorage } from '../storage/create.server';
import { startObjectStore, type TestObjectStore } from '../storage/s3rver.testing';
import type { Storage } from '../storage';
import { serveMedia } from './media.server';
import { prepareStorage } from '../runtime/prepare-storage.server';
import { stockMedia } from './stock.server';

const MEDIA = resolve('media');
const [pglite] = await testDatabases();
const folder = await mkdtemp(join(tmpdir(), 'media-stock-'));
let objectStore: TestObjectStore | null = null;
let notStarted = '';
try {
  objectStore = await startObjectStore();
} catch (err) {
  notStarted = `s3rver could not start here (${(err as Error).message}): media from an object store are not tested`;
  console.warn(notStarted);
}
let handle: DbHandle;
beforeAll(async () => {
  handle = await pglite!.create({ seed: true });
});
afterAll(async () => {
  await handle?.close();
  await objectStore?.stop();
  await rm(folder, { recursive: true, force: true });
});

const backends = [
  { name: 'the local folder', env: () => ({ DATA_DIR: folder }), skip: '' },
  { name: 'an S3-compatible object store', env: () => ({ DATA_DIR: folder, ...objectStore!.env }), skip: notStarted },
] as const;

describe.each(backends)('demo media in $name', ({ env, skip }) => {
  let storage: Storage;
  beforeAll(async () => {
    if (!skip) storage = await createStorage(readConfig(env()).storage);
  });
  afterAll(() => storage?.close?.());

  it.skipIf(skip)('are copied once under their storage keys; a start after that copies nothing', async () => {
    const rows = await handle.db.select().from(s.mediaFiles);
    const first = await stockMedia(handle.db, storage, MEDIA);
    expect(first).toEqual({ copied: rows.length, present: 0, notInFolder: 0 });
    for (const row of rows) expect(await storage.stat(row.storageKey), row.storageKey).toMatchObject({ sizeBytes: row.sizeBytes });
    expect(await stockMedia(handle.db, storage, MEDIA)).toEqual({ copied: 0, present: rows.length, notInFolder: 0 });
    // A stored copy that differs in size from the folder's file is copied again; an uploaded file the
    // folder does not hold is left alone.
    await storage.put('docs/prueba.pdf', Buffer.from('truncated'));
    const [upload] = await handle.db.insert(s.mediaFiles).values({ storageKey: 'videos/99/source.mp4', mimeType: 'video/mp4', sizeBytes: 3 }).returning();
    await storage.put('videos/99/source.mp4', Buffer.from('abc'));
    expect(await stockMedia(handle.db, storage, MEDIA)).toEqual({ copied: 1, present: rows.length - 1, notInFolder: 1 });
    expect((await storage.stat('docs/prueba.pdf'))!.sizeBytes).toBe(readFileSync(join(MEDIA, 'docs/prueba.pdf')).length);
    expect((await storage.stat('videos/99/source.mp4'))!.sizeBytes).toBe(3);
    await handle.db.delete(s.mediaFiles).where(eq(s.mediaFiles.id, upload!.id));
  });

  it.skipIf(skip)('are served by the media route from the storage, by ranges, only to who may open the course', async () => {
    const [video] = await handle.db
      .select({ id: s.resources.id, key: s.mediaFiles.storageKey })
      .from(s.resources)
      .innerJoin(s.mediaFiles, eq(s.mediaFiles.id, s.resources.mediaFileId))
      .innerJoin(s.subtopics, eq(s.subtopics.id, s.resources.subtopicId))
      .innerJoin(s.topics, eq(s.topics.id, s.subtopics.topicId))
      .where(and(eq(s.topics.courseId, 3), eq(s.resources.typeId, s.RESOURCE_TYPE.video)))
      .orderBy(asc(s.topics.position), asc(s.subtopics.position))
      .limit(1);
    const clip = readFileSync(join(MEDIA, video!.key));
    const [learner] = await handle.db.select().from(s.users).where(eq(s.users.email, 'learner@academia.example'));
    const { token } = await createSession(handle.db, { kind: 'user', userId: learner!.id });
    const identity = (await readSession(handle.db, token))!.identity;
    const store = directStore(handle.db);
    const target = { kind: 'resource', resourceId: video!.id } as const;

    const part = await serveMedia(store, identity, target, { method: 'GET', locale: 'es', range: 'bytes=1000-1999' }, storage);
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 1000-1999/${clip.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(clip.subarray(1000, 2000))).toBe(true);
    const whole = await serveMedia(store, identity, target, { method: 'GET', locale: 'es' }, storage);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('video/webm');
    expect(Buffer.from(await whole.arrayBuffer()).equals(clip)).toBe(true);
    // The ETag is the stored object's: a browser's copy is answered 304.
    const again = await serveMedia(store, identity, target, { method: 'GET', locale: 'es', ifNoneMatch: whole.headers.get('etag') }, storage);
    expect(again.status).toBe(304);
    const past = await serveMedia(store, identity, target, { method: 'GET', locale: 'en', range: `bytes=${clip.length}-` }, storage);
    expect(past.status).toBe(416);
    expect((await serveMedia(store, null, target, { method: 'GET', locale: 'es' }, storage)).status).toBe(403);
  });
});

describe('a configured storage that cannot be used', () => {
  it('stops the start with one sentence naming what to check', async () => {
    const env = objectStore ? { DATA_DIR: folder, ...objectStore.env, S3_BUCKET: 'no-such-bucket' } : { DATA_DIR: folder, STORAGE: 's3', S3_BUCKET: 'no-such-bucket', S3_ENDPOINT: 'http://127.0.0.1:9', S3_ACCESS_KEY_ID: 'x', S3_SECRET_ACCESS_KEY: 'y' };
    const failure = await prepareStorage(handle.db, readConfig(env), MEDIA).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(ConfigError);
    expect((failure as Error).message).toMatch(/^The bucket no-such-bucket at http:\/\/127\.0\.0\.1:\d+ cannot be used \(.+\): check S3_ENDPOINT, S3_BUCKET \(the bucket must exist\)/);
  });
});
