/**
 * Course authoring on the seeded database: a new course starts hidden with a draft; edits stay in the
 * draft until published; publishing keeps the ids of rows that still exist (so progress survives), keeps
 * a completed course completed, stops counting a removed lesson, refuses a missing translation, a stale
 * draft and another course's items, writes the audit trail, and reaches a second runtime through the bus.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, postgresAvailable, testDatabases } from '../db/testing';
import { openDatabase, type DbHandle } from '../db/client';
import * as s from '../db/schema';
import { testRuntime } from '../testing/runtime';
import type { Runtime } from '../runtime/runtime.server';
import { createBus } from '../bus/bus.server';
import { createLogger } from '../http/log.server';
import { tellChanges } from '../runtime/changes';
import { auditOf } from '../privacy/audit.server';
import { completedCourses } from '../access/access.server';
import { hasCompletedCourse } from '../certificates/certificates.server';
import { addLesson, addLink, addModule, moveLesson, removeLesson, renameModule, setVideo, type EditResult } from './edits';
import { createCourse, discardDraft, editDraft, editorView, isVideoFile, listCourses, liveDoc, newKey, videoChoices } from './draft.server';
import { publishDraft } from './publish.server';
import type { CourseDoc } from './authoring';

const databases = await testDatabases();

describe.each(databases)('course authoring on the seeded database ($name)', (database) => {
  let handle: DbHandle;
  let editor: number;
  let courseId: number;
  let video: number;
  /** Every lesson of the draft gets a video of the media library (a lesson counts once it has one). */
  const withVideos = (d: CourseDoc): EditResult => {
    let doc = d;
    for (const l of d.modules.flatMap((m) => m.lessons)) {
      const r = setVideo(doc, l.key, video, newKey);
      if (r.ok) doc = r.doc;
    }
    return { ok: true, doc };
  };
  const names = (es: string, en: string) => ({ es, en });
  const edit = (change: (doc: CourseDoc) => EditResult, id = courseId) => editDraft(handle.db, editor, id, { action: 'test' }, change);
  const lessonIds = async (id = courseId) => (await liveDoc(handle.db, id))!.modules.flatMap((m) => m.lessons.map((l) => l.id!));
  const contact = async (tag: string) => (await handle.db.insert(s.contacts).values({ firstName: 'Ana', lastName: tag, email: `${tag}.${database.name}@example.com` }).returning({ id: s.contacts.id }))[0]!.id;
  const complete = (contactId: number, lessons: number[]) => handle.db.insert(s.tracking).values(lessons.map((subtopicId) => ({ contactId, courseId, subtopicId, completedAt: new Date() })));

  beforeAll(async () => {
    handle = await database.create({ seed: true });
    editor = (await handle.db.select({ id: s.users.id }).from(s.users).where(eq(s.users.email, 'editor@academia.example')))[0]!.id;
    video = (await videoChoices(handle.db))[0]!.id;
  });
  afterAll(async () => handle?.close());

  it("offers lessons the converted library videos by their titles, beside plain video files, and nothing else", async () => {
    const [master] = await handle.db.insert(s.mediaFiles).values({ storageKey: 'videos/900/master.m3u8', mimeType: 'application/vnd.apple.mpegurl', sizeBytes: 200, durationSeconds: '12.00' }).returning({ id: s.mediaFiles.id });
    const [rung] = await handle.db.insert(s.mediaFiles).values({ storageKey: 'videos/900/360p/index.m3u8', mimeType: 'application/vnd.apple.mpegurl', sizeBytes: 200 }).returning({ id: s.mediaFiles.id });
    await handle.db.insert(s.videos).values({ uploadId: 'c'.repeat(32), title: 'Cierre de ventas', state: 'ready', sizeBytes: 1000, mediaFileId: master!.id });
    const choices = await videoChoices(handle.db);
    expect(choices).toContainEqual({ id: master!.id, name: 'Cierre de ventas', durationSeconds: '12.00' });
    expect(choices.find((c) => c.id === video)?.name).toMatch(/^clip-\d\.webm$/);
    expect(choices.map((c) => c.id)).not.toContain(rung!.id);
    expect(await isVideoFile(handle.db, master!.id)).toBe(true);
    expect(await isVideoFile(handle.db, rung!.id)).toBe(false);
    const [caption] = await handle.db.select({ id: s.mediaFiles.id }).from(s.mediaFiles).where(eq(s.mediaFiles.mimeType, 'text/vtt')).limit(1);
    expect(await isVideoFile(handle.db, caption!.id)).toBe(false);
  });

  it('creates a course hidden, with a draft, and refuses a code already used', async () => {
    const made = await createCourse(handle.db, editor, { code: 'VENTAS-101', nameEs: 'Ventas', nameEn: 'Sales', categoryId: 2, businessId: 1 });
    expect(made.status).toBe('ok');
    courseId = (made as { courseId: number }).courseId;
    const [row] = await handle.db.select().from(s.courses).where(eq(s.courses.id, courseId));
    expect(row).toMatchObject({ hidden: true, price: '0.00', version: 1 });
    expect((await listCourses(handle.db, 'ventas-1')).map((c) => [c.id, c.state])).toEqual([[courseId, { live: false, hidden: true, draft: true }]]);
    expect(await createCourse(handle.db, editor, { code: 'ventas-101', nameEs: 'Otra', nameEn: 'Other', categoryId: 2, businessId: 1 })).toEqual({ status: 'codeTaken' });
    expect(await createCourse(handle.db, editor, { code: 'X-1', nameEs: 'Otra', nameEn: 'Other', categoryId: 999, businessId: 1 })).toEqual({ status: 'unknownCategory' });
    expect((await auditOf(handle.db, `course:${courseId}`, 'course.created')).length).toBe(1);
  });

  it('keeps edits in the draft until published, then makes them live with a new version', async () => {
    await edit((d) => addModule(d, names('Inicio', 'Start'), newKey));
    const moduleKey = (await editorView(handle.db, courseId))!.doc.modules[0]!.key;
    await edit((d) => addLesson(d, moduleKey, names('Hola', 'Hello'), newKey));
    await edit((d) => addLesson(d, moduleKey, names('Pagos', 'Payments'), newKey));
    await edit(withVideos);
    expect(await lessonIds()).toEqual([]);
    const price = await edit((d) => ({ ok: true, doc: { ...d, priceCents: 1250 } }));
    expect(price.status).toBe('ok');
    const published = await publishDraft(handle.db, editor, courseId);
    expect(published).toMatchObject({ status: 'ok', version: 2, changed: [{ catalog: true }] });
    const [row] = await handle.db.select().from(s.courses).where(eq(s.courses.id, courseId));
    expect(row!.price).toBe('12.50');
    expect(await lessonIds()).toHaveLength(2);
    expect((await editorView(handle.db, courseId))!.draft).toBeNull();
    const [event] = await auditOf(handle.db, `course:${courseId}`, 'course.published');
    expect(event).toMatchObject({ actor: `user:${editor}`, before: { version: 1, priceCents: 0 }, after: { version: 2, priceCents: 1250 } });
  });

  it('refuses to publish a missing translation, and a draft started before another publication', async () => {
    const moduleKey = (await editorView(handle.db, courseId))!.doc.modules[0]!.key;
    await edit((d) => renameModule(d, moduleKey, names('Inicio', ' ')));
    const refused = await publishDraft(handle.db, editor, courseId);
    expect(refused.status).toBe('missingTranslations');
    expect((refused as { missing: unknown[] }).missing).toEqual([{ where: moduleKey, kind: 'module', field: 'name', lang: 'en', other: 'Inicio' }]);
    expect(await discardDraft(handle.db, editor, courseId)).toBe(true);
    expect(await discardDraft(handle.db, editor, courseId)).toBe(false);
    expect(await publishDraft(handle.db, editor, courseId)).toEqual({ status: 'noDraft' });
    // A draft based on version 2, then someone else publishes version 3: the old draft is stale.
    await edit((d) => ({ ok: true, doc: { ...d, descriptionEs: 'Uno', descriptionEn: 'One' } }));
    await handle.db.update(s.courses).set({ version: 3 }).where(eq(s.courses.id, courseId));
    expect(await publishDraft(handle.db, editor, courseId)).toEqual({ status: 'stale' });
    await discardDraft(handle.db, editor, courseId);
  });

  it("never moves a lesson into another course's module, nor publishes another course's ids", async () => {
    const other = (await liveDoc(handle.db, 1))!;
    const lessonKey = (await editorView(handle.db, courseId))!.doc.modules[0]!.lessons[0]!.key;
    expect(await edit((d) => moveLesson(d, lessonKey, other.modules[0]!.key, 0))).toEqual({ status: 'refused', problem: 'unknownModule' });
    // A draft whose document was forged to name course 1's lesson: refused at publication, nothing written.
    await edit((d) => ({ ok: true, doc: { ...d, modules: [{ ...d.modules[0]!, lessons: [...d.modules[0]!.lessons, other.modules[0]!.lessons[0]!] }] } }));
    expect(await publishDraft(handle.db, editor, courseId)).toEqual({ status: 'forgedItem' });
    expect((await liveDoc(handle.db, 1))!.modules[0]!.lessons[0]!.id).toBe(other.modules[0]!.lessons[0]!.id);
    await discardDraft(handle.db, editor, courseId);
  });

  it('keeps a completed course completed when lessons are added, and stops counting a removed lesson', async () => {
    const [a, b] = await lessonIds();
    const done = await contact('completo');
    const partial = await contact('parcial');
    await complete(done, [a!, b!]);
    await complete(partial, [a!]);
    expect((await completedCourses(handle.db, done)).has(courseId)).toBe(true);

    // A third lesson: the one who had finished stays finished; the other still has two to go.
    const moduleKey = (await editorView(handle.db, courseId))!.doc.modules[0]!.key;
    await edit((d) => addLesson(d, moduleKey, names('Cierre', 'Closing'), newKey));
    await edit((d) => addLink(d, d.modules[0]!.lessons[2]!.key, names('Guía', 'Guide'), 'https://example.com/guide', newKey));
    await edit(withVideos);
    expect((await publishDraft(handle.db, editor, courseId)).status).toBe('ok');
    const [a2, b2, c] = await lessonIds();
    expect([a2, b2]).toEqual([a, b]);
    expect((await completedCourses(handle.db, done)).has(courseId)).toBe(true);
    expect((await hasCompletedCourse(handle.db, done, courseId, Date.now())).completed).toBe(true);
    expect((await completedCourses(handle.db, partial)).has(courseId)).toBe(false);

    // The second lesson removed: its progress goes, and the one who did the other two has finished.
    await complete(partial, [c!]);
    expect((await completedCourses(handle.db, partial)).has(courseId)).toBe(false);
    const bKey = (await editorView(handle.db, courseId))!.doc.modules[0]!.lessons[1]!.key;
    await edit((d) => removeLesson(d, bKey));
    expect((await publishDraft(handle.db, editor, courseId)).status).toBe('ok');
    expect(await lessonIds()).toEqual([a, c]);
    expect(await handle.db.select().from(s.tracking).where(and(eq(s.tracking.contactId, done), inArray(s.tracking.subtopicId, [b!])))).toEqual([]);
    expect((await completedCourses(handle.db, partial)).has(courseId)).toBe(true);
    expect((await completedCourses(handle.db, done)).has(courseId)).toBe(true);
    const kinds = await handle.db.select().from(s.resources).where(eq(s.resources.subtopicId, c!));
    expect(kinds.map((r) => [r.typeId, r.mediaFileId, r.url])).toEqual([
      [s.RESOURCE_TYPE.video, video, null],
      [s.RESOURCE_TYPE.link, null, 'https://example.com/guide'],
    ]);
  });

  it("offers an uploaded video once converted (its HLS master playlist, by the library's title), never before, nor a caption file", async () => {
    const file = async (storageKey: string, mimeType: string) => (await handle.db.insert(s.mediaFiles).values({ storageKey, mimeType, sizeBytes: 100 }).returning({ id: s.mediaFiles.id }))[0]!.id;
    const master = await file('videos/9001/master.m3u8', 'application/vnd.apple.mpegurl');
    const caption = await file('videos/9001/captions-es.vtt', 'text/vtt');
    const [upload] = await handle.db.insert(s.videos).values({ uploadId: 'a'.repeat(32), ownerId: editor, title: 'Clase subida', sizeBytes: 100, state: 'transcoding' }).returning({ id: s.videos.id });
    expect((await videoChoices(handle.db)).map((v) => v.id)).not.toContain(master);
    expect(await isVideoFile(handle.db, master)).toBe(false);
    await handle.db.update(s.videos).set({ state: 'ready', mediaFileId: master }).where(eq(s.videos.id, upload!.id));
    expect((await videoChoices(handle.db)).find((v) => v.id === master)).toMatchObject({ name: 'Clase subida' });
    expect(await isVideoFile(handle.db, master)).toBe(true);
    expect(await isVideoFile(handle.db, caption)).toBe(false);
    expect((await videoChoices(handle.db)).map((v) => v.id)).not.toContain(caption);
  });
});

/** Two runtimes over one database: on PostgreSQL each with its own pool and LISTEN/NOTIFY bus (two processes' worth), else sharing the local bus. */
describe('a publication reaches another runtime', () => {
  let runtimes: Runtime[] = [];
  let cleanup: () => Promise<void> = async () => undefined;

  beforeAll(async () => {
    if (await postgresAvailable()) {
      const database = await createPostgresDatabase({ prefix: 'academy_authoring', from: 'seeded' });
      const handles = [await openDatabase({ databaseUrl: database.url, dataDir: 'unused' }), await openDatabase({ databaseUrl: database.url, dataDir: 'unused' })];
      runtimes = await Promise.all(handles.map((h) => testRuntime(h, { env: { DATABASE_URL: database.url } })));
      cleanup = async () => {
        for (const r of runtimes) await r.close();
        for (const h of handles) await h.close();
        await database.drop();
      };
    } else {
      const [pglite] = await testDatabases();
      const handle = await pglite!.create({ seed: true });
      const bus = createBus({ kind: 'local' }, createLogger('silent'));
      runtimes = [await testRuntime(handle, { bus }), await testRuntime(handle, { bus })];
      cleanup = async () => {
        for (const r of runtimes) await r.close();
        await handle.close();
      };
    }
  }, 120_000);
  afterAll(async () => cleanup());

  it("drops the other runtime's catalogue and kept pages, which then show the published course", async () => {
    const [a, b] = runtimes as [Runtime, Runtime];
    const before = await b.catalog.get();
    const version = b.catalog.version;
    b.pages.set('http://localhost/courses?', version, { status: 200, headers: [], body: 'kept' });
    const editor = (await a.db.select({ id: s.users.id }).from(s.users).where(eq(s.users.email, 'editor@academia.example')))[0]!.id;
    await editDraft(a.db, editor, 1, { action: 'settings' }, (d) => ({ ok: true, doc: { ...d, nameEn: 'Renamed everywhere' } }));
    const outcome = await publishDraft(a.db, editor, 1);
    if (outcome.status !== 'ok') throw new Error(`not published: ${outcome.status}`);
    await tellChanges(a, outcome.changed);
    await expect.poll(async () => (await b.catalog.get()).byId.get(1)!.nameEn, { timeout: 10_000 }).toBe('Renamed everywhere');
    expect(b.catalog.version).toBeGreaterThan(version);
    expect(b.pages.get('http://localhost/courses?', b.catalog.version)).toBeUndefined();
    expect(before.byId.get(1)!.nameEn).not.toBe('Renamed everywhere');
  });
});
