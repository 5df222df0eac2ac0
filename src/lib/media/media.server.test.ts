import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { and, asc, eq, like } from 'drizzle-orm';
import { testDatabases, testHashCost } from '../db/testing';
import type { DbHandle } from '../db/client';
import * as s from '../db/schema';
import { seed } from '../db/seed/seed.server';
import { CatalogStore } from '../catalog/catalog.server';
import { directStore, type Store } from '../access/store.server';
import type { Identity } from '../access';
import { createSession, readSession } from '../identity/session.server';
import { createLocalStorage } from '../storage/local.server';
import { resolveResourceFile, serveMedia, type MediaRequest } from './media.server';
import type { MediaTarget } from './media';

const databases = await testDatabases();
const MEDIA = resolve('media');

describe.each(databases)('lesson media on $name', ({ create }) => {
  let handle: DbHandle;
  let store: Store;
  const db = () => handle.db;

  beforeAll(async () => {
    handle = await create({ seed: true });
    store = directStore(handle.db);
  });
  afterAll(async () => {
    await handle?.close();
  });

  /** The resources of a course of one type, in lesson order, with their files. */
  async function resourcesOf(courseId: number, typeId: number) {
    return db()
      .select({ id: s.resources.id, key: s.mediaFiles.storageKey, mime: s.mediaFiles.mimeType, url: s.resources.url, subtopicId: s.resources.subtopicId })
      .from(s.resources)
      .innerJoin(s.subtopics, eq(s.subtopics.id, s.resources.subtopicId))
      .innerJoin(s.topics, eq(s.topics.id, s.subtopics.topicId))
      .leftJoin(s.mediaFiles, eq(s.mediaFiles.id, s.resources.mediaFileId))
      .where(and(eq(s.topics.courseId, courseId), eq(s.resources.typeId, typeId)))
      .orderBy(asc(s.topics.position), asc(s.subtopics.position), asc(s.resources.position));
  }
  const firstVideo = async (courseId: number) => (await resourcesOf(courseId, s.RESOURCE_TYPE.video))[0]!;
  const video = async (courseId: number): Promise<MediaTarget> => ({ kind: 'resource', resourceId: (await firstVideo(courseId)).id });

  // The repository's media folder read as a local storage: its files are under their storage keys.
  const serve = (identity: Identity | null, target: MediaTarget, ask: Partial<MediaRequest> = {}, storage = createLocalStorage(MEDIA)) =>
    serveMedia(store, identity, target, { method: 'GET', locale: 'es', ...ask }, storage);
  const bytes = async (r: Response) => Buffer.from(await r.arrayBuffer());

  /** A new learner account (with its own contact), logged in: the identity its session gives. */
  async function newLearner(): Promise<Identity> {
    const email = `media.${Math.random().toString(36).slice(2, 10)}@example.com`;
    const [u] = await db().insert(s.users).values({ email, firstName: 'Media', lastName: 'Tester' }).returning();
    await db().insert(s.contacts).values({ userId: u!.id, firstName: 'Media', lastName: 'Tester', email });
    return sessionIdentity({ kind: 'user', userId: u!.id });
  }
  async function sessionIdentity(start: Parameters<typeof createSession>[1]): Promise<Identity> {
    const { token } = await createSession(db(), start);
    return (await readSession(db(), token))!.identity;
  }
  async function seededLearner(email: string): Promise<Identity> {
    const [u] = await db().select().from(s.users).where(eq(s.users.email, email));
    return sessionIdentity({ kind: 'user', userId: u!.id });
  }
  async function iboSession(withProspect: boolean): Promise<Identity> {
    const [ibo] = await db().select().from(s.ibos).where(eq(s.ibos.code, 'HORIZONTE01'));
    if (!withProspect) return sessionIdentity({ kind: 'ibo', iboId: ibo!.id });
    const email = `prospect.${Math.random().toString(36).slice(2, 10)}@example.com`;
    const [c] = await db().insert(s.contacts).values({ firstName: 'Pro', lastName: 'Specto', email, iboId: ibo!.id }).returning();
    return sessionIdentity({ kind: 'ibo', iboId: ibo!.id, contactId: c!.id });
  }

  describe('access', () => {
    it('refuses a visitor without a session (403, with the reason, never cached)', async () => {
      const free = await serve(null, await video(1), { locale: 'en' });
      expect(free.status).toBe(403);
      expect(free.headers.get('cache-control')).toBe('no-store');
      expect(free.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(await free.text()).toBe('You do not have access to this lesson. Enter the prospect’s details first.');
      const members = await serve(null, await video(3));
      expect(members.status).toBe(403);
      expect(await members.text()).toBe('No tienes acceso a esta lección. Inicia sesión para verla.');
    });

    it('lets an IBO session open a free course only once a prospect is given, and no other course', async () => {
      const without = await iboSession(false);
      expect((await serve(without, await video(1))).status).toBe(403);
      const withProspect = await iboSession(true);
      const open = await serve(withProspect, await video(1));
      expect(open.status).toBe(200);
      expect(await bytes(open)).toEqual(readFileSync(join(MEDIA, (await firstVideo(1)).key!)));
      expect((await serve(withProspect, await video(3))).status).toBe(403);
      expect((await serve(withProspect, await video(6))).status).toBe(403);
    });

    it('lets a learner open free courses, refuses an unbought paid course until it is bought', async () => {
      const learner = await newLearner();
      expect((await serve(learner, await video(3))).status).toBe(200);
      const paid = await serve(learner, await video(6), { locale: 'en' });
      expect(paid.status).toBe(403);
      expect(await paid.text()).toBe('You do not have access to this lesson. Buy the course to watch it.');
      await db().insert(s.purchaseAccess).values({ userId: learner.userId!, courseId: 6 });
      const bought = await serve(learner, await video(6));
      expect(bought.status).toBe(200);
      expect(bought.headers.get('content-type')).toBe('video/webm');
    });

    it('answers 404 for buyer-only courses to everyone else, exactly like an unknown id', async () => {
      const learner = await seededLearner('learner@academia.example');
      const unknown = await serve(learner, { kind: 'resource', resourceId: 2_000_000_000 });
      expect(unknown.status).toBe(404);
      const unknownText = await unknown.text();
      for (const courseId of [10, 16]) {
        for (const who of [null, learner, await iboSession(true)]) {
          const r = await serve(who, await video(courseId));
          expect(r.status, `course ${courseId}`).toBe(404);
          expect(await r.text()).toBe(unknownText);
        }
      }
      const buyer = await seededLearner('buyer@academia.example');
      for (const courseId of [10, 16]) expect((await serve(buyer, await video(courseId))).status).toBe(200);
    });

    it('keeps Real Vision intermediate (32) refused until every lesson of basic (31) is completed and its exam passed', async () => {
      const learner = await newLearner();
      const refused = await serve(learner, await video(32), { locale: 'en' });
      expect(refused.status).toBe(403);
      expect(await refused.text()).toBe('You must complete the basic course to access this course');
      expect(await (await serve(learner, await video(32))).text()).toBe('Debes completar el curso básico para acceder a este curso');
      const lessons = await db()
        .select({ id: s.subtopics.id })
        .from(s.subtopics)
        .innerJoin(s.topics, eq(s.topics.id, s.subtopics.topicId))
        .where(eq(s.topics.courseId, 31));
      expect(lessons.length).toBeGreaterThan(1);
      const complete = (ids: { id: number }[]) =>
        db().insert(s.tracking).values(ids.map((l) => ({ contactId: learner.contactId!, courseId: 31, subtopicId: l.id, completedAt: new Date() })));
      await complete(lessons.slice(1));
      expect((await serve(learner, await video(32))).status).toBe(403);
      await complete(lessons.slice(0, 1));
      expect((await serve(learner, await video(32))).status).toBe(403);
      const [evaluation] = await db().select().from(s.evaluations).where(eq(s.evaluations.courseId, 31));
      await db()
        .insert(s.examAttempts)
        .values({ evaluationId: evaluation!.id, contactId: learner.contactId!, attemptNumber: 1, questionIds: [], deadlineAt: new Date(), submittedAt: new Date(), score: 100, passed: true });
      expect((await serve(learner, await video(32))).status).toBe(200);
      // The documents and captions of the course follow the same rule.
      const [pdf] = await resourcesOf(32, s.RESOURCE_TYPE.pdf);
      expect((await serve(learner, { kind: 'resource', resourceId: pdf!.id })).status).toBe(200);
      expect((await serve(await newLearner(), { kind: 'resource', resourceId: pdf!.id })).status).toBe(403);
    });

    it('never serves hidden test courses', async () => {
      expect((await serve(await seededLearner('buyer@academia.example'), await video(12))).status).toBe(404);
    });
  });

  describe('bytes', () => {
    let learner: Identity;
    let clip: Buffer;
    let target: MediaTarget;
    beforeAll(async () => {
      learner = await seededLearner('learner@academia.example');
      target = await video(3);
      clip = readFileSync(join(MEDIA, (await firstVideo(3)).key!));
    });

    it('sends the whole video with its length, validators and private caching', async () => {
      const r = await serve(learner, target);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-length')).toBe(String(clip.length));
      expect(r.headers.get('accept-ranges')).toBe('bytes');
      expect(r.headers.get('cache-control')).toBe('private, max-age=3600');
      expect(r.headers.get('vary')).toBe('Cookie');
      expect(r.headers.get('etag')).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
      expect(await bytes(r)).toEqual(clip);
    });

    it('streams from the storage in chunks instead of reading the whole file first', async () => {
      const r = await serve(learner, target);
      const reader = r.body!.getReader();
      const first = await reader.read();
      expect(first.value!.length).toBeGreaterThan(0);
      expect(first.value!.length).toBeLessThan(clip.length);
      await reader.cancel();
    });

    it('reads no further than the client takes when the server gives a drain signal', async () => {
      let calls = 0;
      let open!: () => void;
      let gate = new Promise<void>((r) => (open = r));
      const r = await serve(learner, target, {
        ready: () => {
          calls += 1;
          return gate;
        },
      });
      const reader = r.body!.getReader();
      let arrived = false;
      const first = reader.read().then((x) => ((arrived = true), x));
      // The stream is waiting for the client to be ready: nothing has been read for it.
      await expect.poll(() => calls).toBe(1);
      expect(arrived).toBe(false);
      open();
      const chunk = (await first).value!;
      expect(chunk.length).toBe(64 * 1024);
      gate = Promise.resolve();
      const rest: Uint8Array[] = [];
      for (let next = await reader.read(); !next.done; next = await reader.read()) rest.push(next.value);
      expect(Buffer.concat([chunk, ...rest])).toEqual(clip);
      expect(calls).toBe(Math.ceil(clip.length / (64 * 1024)) + 1);
    });

    it('answers a Range with 206 and exactly that slice of the file', async () => {
      for (const [header, start, end] of [
        ['bytes=0-0', 0, 0],
        ['bytes=1000-4999', 1000, 4999],
        [`bytes=${clip.length - 10}-`, clip.length - 10, clip.length - 1],
        ['bytes=-500', clip.length - 500, clip.length - 1],
        [`bytes=100-${clip.length + 1000}`, 100, clip.length - 1],
      ] as const) {
        const r = await serve(learner, target, { range: header });
        expect(r.status, header).toBe(206);
        expect(r.headers.get('content-range'), header).toBe(`bytes ${start}-${end}/${clip.length}`);
        expect(r.headers.get('content-length'), header).toBe(String(end - start + 1));
        expect(await bytes(r), header).toEqual(clip.subarray(start, end + 1));
      }
    });

    it('answers 416 with bytes */size for a range past the end', async () => {
      const r = await serve(learner, target, { range: `bytes=${clip.length}-`, locale: 'en' });
      expect(r.status).toBe(416);
      expect(r.headers.get('content-range')).toBe(`bytes */${clip.length}`);
      expect(await r.text()).toBe(`The requested range is outside the file, which has ${clip.length} bytes.`);
    });

    it('serves the whole file for a multi-range or malformed Range', async () => {
      for (const range of ['bytes=0-1,5-6', 'bytes=x-y']) {
        const r = await serve(learner, target, { range });
        expect(r.status).toBe(200);
        expect((await bytes(r)).length).toBe(clip.length);
      }
    });

    it('answers HEAD with the headers and no body', async () => {
      const r = await serve(learner, target, { method: 'HEAD', range: 'bytes=0-99' });
      expect(r.status).toBe(206);
      expect(r.headers.get('content-length')).toBe('100');
      expect(r.body).toBeNull();
    });

    it('answers 304 when the browser already has the current bytes', async () => {
      const etag = (await serve(learner, target, { method: 'HEAD' })).headers.get('etag')!;
      const r = await serve(learner, target, { ifNoneMatch: etag });
      expect(r.status).toBe(304);
      expect(r.body).toBeNull();
    });

    it('serves caption tracks as WebVTT, under the same access rules as their video', async () => {
      const id = (await firstVideo(3)).id;
      const es = await serve(learner, { kind: 'caption', resourceId: id, lang: 'es' });
      expect(es.status).toBe(200);
      expect(es.headers.get('content-type')).toBe('text/vtt; charset=utf-8');
      const clipName = (await firstVideo(3)).key!.replace(/^video\/(.*)\.webm$/, '$1');
      const text = await es.text();
      expect(text.startsWith('WEBVTT')).toBe(true);
      expect(text).toBe(readFileSync(join(MEDIA, `captions/${clipName}.es.vtt`), 'utf8'));
      const en = await serve(learner, { kind: 'caption', resourceId: id, lang: 'en' });
      expect(await en.text()).toBe(readFileSync(join(MEDIA, `captions/${clipName}.en.vtt`), 'utf8'));
      expect((await serve(null, { kind: 'caption', resourceId: id, lang: 'es' })).status).toBe(403);
      expect((await serve(learner, { kind: 'caption', resourceId: (await firstVideo(6)).id, lang: 'es' })).status).toBe(403);
      const [pdf] = await resourcesOf(3, s.RESOURCE_TYPE.pdf);
      expect((await serve(learner, { kind: 'caption', resourceId: pdf!.id, lang: 'es' })).status).toBe(404);
    });

    it('serves lesson documents as inline PDFs; link resources have no bytes here', async () => {
      const [pdf] = await resourcesOf(3, s.RESOURCE_TYPE.pdf);
      expect(pdf!.url).toBeNull();
      const r = await serve(learner, { kind: 'resource', resourceId: pdf!.id });
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toBe('application/pdf');
      expect(r.headers.get('content-disposition')).toBe(`inline; filename="${pdf!.key!.split('/').pop()}"`);
      const body = await bytes(r);
      expect(body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(body).toEqual(readFileSync(join(MEDIA, pdf!.key!)));
      const [link] = await resourcesOf(2, s.RESOURCE_TYPE.link);
      expect(link!.url).toMatch(/^https:\/\//);
      expect((await serve(learner, { kind: 'resource', resourceId: link!.id })).status).toBe(404);
    });

    it('answers 404, not 500, when the file is missing from the storage', async () => {
      const empty = mkdtempSync(join(tmpdir(), 'media-empty-'));
      try {
        const r = await serve(learner, target, {}, createLocalStorage(empty));
        expect(r.status).toBe(404);
        expect(await r.text()).toBe('Este recurso no existe o ya no está disponible.');
      } finally {
        rmSync(empty, { recursive: true });
      }
    });

    it('never reads outside the storage, even when the database names such a file', async () => {
      expect(existsSync(resolve(MEDIA, '../package.json'))).toBe(true);
      const [file] = await db().insert(s.mediaFiles).values({ storageKey: '../package.json', mimeType: 'application/json', sizeBytes: 10 }).returning();
      const lesson = (await firstVideo(3)).subtopicId;
      const [res] = await db()
        .insert(s.resources)
        .values({ subtopicId: lesson, typeId: s.RESOURCE_TYPE.pdf, mediaFileId: file!.id, titleEs: 'x', titleEn: 'x', position: 90 })
        .returning();
      const r = await serve(learner, { kind: 'resource', resourceId: res!.id });
      expect(r.status).toBe(404);
      expect(await r.text()).not.toContain('"name"');
    });

    it('keeps which file an id names until the catalogue changes', async () => {
      const lesson = (await firstVideo(3)).subtopicId;
      const [a] = await db().insert(s.mediaFiles).values({ storageKey: 'docs/prueba.pdf-copy', mimeType: 'application/pdf', sizeBytes: 1 }).returning();
      const [res] = await db()
        .insert(s.resources)
        .values({ subtopicId: lesson, typeId: s.RESOURCE_TYPE.pdf, mediaFileId: a!.id, titleEs: 'x', titleEn: 'x', position: 91 })
        .returning();
      const catalog = new CatalogStore(db());
      expect((await resolveResourceFile(db(), res!.id, await catalog.get()))?.storageKey).toBe('docs/prueba.pdf-copy');
      await db().update(s.mediaFiles).set({ storageKey: 'docs/prueba.pdf-moved' }).where(eq(s.mediaFiles.id, a!.id));
      expect((await resolveResourceFile(db(), res!.id, await catalog.get()))?.storageKey).toBe('docs/prueba.pdf-copy');
      catalog.invalidate();
      expect((await resolveResourceFile(db(), res!.id, await catalog.get()))?.storageKey).toBe('docs/prueba.pdf-moved');
    });
  });

  describe('seeded documents', () => {
    it('makes every PDF resource a stored document and re-seeding changes nothing', async () => {
      const pdfs = await db().select().from(s.resources).where(eq(s.resources.typeId, s.RESOURCE_TYPE.pdf));
      const seededPdfs = pdfs.filter((p) => p.position < 90);
      expect(seededPdfs.length).toBeGreaterThanOrEqual(18);
      for (const p of seededPdfs) {
        expect(p.url).toBeNull();
        expect(p.mediaFileId).not.toBeNull();
      }
      const docs = await db().select().from(s.mediaFiles).where(like(s.mediaFiles.storageKey, 'docs/%.pdf'));
      for (const d of docs) {
        expect(d.mimeType).toBe('application/pdf');
        expect(d.sizeBytes).toBe(statSync(join(MEDIA, d.storageKey)).size);
      }
      // A database seeded before documents existed had `/files/…` links: seeding again converts them.
      await db().update(s.resources).set({ url: '/files/old.pdf', mediaFileId: null }).where(eq(s.resources.id, seededPdfs[0]!.id));
      const mediaBefore = (await db().select().from(s.mediaFiles)).length;
      await seed(db(), MEDIA, testHashCost);
      const [again] = await db().select().from(s.resources).where(eq(s.resources.id, seededPdfs[0]!.id));
      expect(again).toMatchObject({ url: null, mediaFileId: seededPdfs[0]!.mediaFileId });
      expect((await db().select().from(s.mediaFiles)).length).toBe(mediaBefore);
      expect(await db().select().from(s.resources).where(like(s.resources.url, '/files/%'))).toEqual([]);
    });
  });
});
