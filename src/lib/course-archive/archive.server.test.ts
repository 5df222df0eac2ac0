/**
 * Moving a course between academies on the seeded database: a small published course (a video with
 * captions in both languages, a PDF, a link, an exam with its bank) is exported and imported again; the
 * new course is hidden with a draft equal to the original but for ids and code, its files are the same
 * bytes under new keys, its bank the same. Hostile archives and unresolvable references are refused and
 * write nothing: no course, no row, no stored file (even when the storage fails half way).
 */
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../db/testing';
import type { DbHandle } from '../db/client';
import * as s from '../db/schema';
import { testRuntime } from '../testing/runtime';
import type { Runtime } from '../runtime/runtime.server';
import type { Storage } from '../storage';
import { auditOf } from '../privacy/audit.server';
import { createCourse, editDraft, editorView, liveDoc, newKey } from '../authoring/draft.server';
import { publishDraft } from '../authoring/publish.server';
import { setThumbnail } from '../authoring/thumbnail.server';
import { storedImageKey } from '../media/uploaded-images';
import sharp from 'sharp';
import type { CourseDoc } from '../authoring/authoring';
import { exportBank, importQuestions } from '../question-bank/bank.server';
import { archiveStream, courseArchive } from './export.server';
import { importCourse } from './import.server';
import { ARCHIVE_LIMITS, type CourseArchive } from './course-archive';
import { entryBytes, readZip } from './unzip';
import { renamed, zipBytes } from './archive.testing';
import { zip } from '../zip/zip';

const databases = await testDatabases();

/** The document without what differs between academies: ids, keys, code and file ids. */
function shape(doc: CourseDoc) {
  const { code: _c, prerequisiteCourseId: _p, modules, ...rest } = doc;
  return { ...rest, modules: modules.map(({ id: _i, key: _k, lessons, ...m }) => ({ ...m, lessons: lessons.map(({ id: _li, key: _lk, resources, ...l }) => ({ ...l, resources: resources.map(({ id: _ri, key: _rk, mediaFileId, ...r }) => ({ ...r, file: mediaFileId !== null })) })) })) };
}

describe.each(databases)('course archives ($name)', (database) => {
  let handle: DbHandle;
  let runtime: Runtime;
  let editor: number;
  let courseId: number;
  let exported: Buffer;
  const video = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.from('tiny video bytes \u0000\u0001\u0002'.repeat(50))]);
  const pdf = Buffer.from('%PDF-1.4\n% tiny\n');
  const vtt = (text: string) => Buffer.from(`WEBVTT\n\n00:00.000 --> 00:01.000\n${text}\n`);

  const bytesOf = async (storage: Storage, key: string) => {
    const got = await storage.get(key);
    const parts: Buffer[] = [];
    for await (const chunk of got!.body) parts.push(Buffer.from(chunk as Uint8Array));
    return Buffer.concat(parts);
  };
  const exportOf = async (id: number) => {
    const outcome = await courseArchive(runtime.db, runtime.storage, id);
    if (outcome.status !== 'ok') throw new Error(outcome.status);
    const parts: Uint8Array[] = [];
    for await (const part of archiveStream(runtime.storage, outcome)) parts.push(part);
    return Buffer.concat(parts);
  };
  const stored = async () => {
    let n = 0;
    for await (const _ of runtime.storage.list('imports/')) n++;
    return n;
  };
  const counts = async () => ({
    courses: (await handle.db.select({ n: count() }).from(s.courses))[0]!.n,
    files: (await handle.db.select({ n: count() }).from(s.mediaFiles))[0]!.n,
    topics: (await handle.db.select({ n: count() }).from(s.topics))[0]!.n,
    questions: (await handle.db.select({ n: count() }).from(s.questions))[0]!.n,
    stored: await stored(),
  });
  const file = async (key: string, bytes: Buffer, mimeType: string) => {
    await runtime.storage.put(key, bytes, { contentType: mimeType });
    return (await handle.db.insert(s.mediaFiles).values({ storageKey: key, mimeType, sizeBytes: bytes.length, durationSeconds: mimeType.startsWith('video/') ? '1.50' : null }).returning({ id: s.mediaFiles.id }))[0]!.id;
  };

  beforeAll(async () => {
    handle = await database.create({ seed: true });
    runtime = await testRuntime(handle);
    editor = (await handle.db.select({ id: s.users.id }).from(s.users).where(eq(s.users.email, 'editor@academia.example')))[0]!.id;
    const made = await createCourse(handle.db, editor, { code: 'MOVER-1', nameEs: 'Mudanza', nameEn: 'Moving', categoryId: 2, businessId: 1 });
    courseId = (made as { courseId: number }).courseId;
    const videoId = await file('videos/test-archive/v.mp4', video, 'video/mp4');
    const pdfId = await file('documents/test-archive/d.pdf', pdf, 'application/pdf');
    await editDraft(handle.db, editor, courseId, { action: 'test' }, (d) => ({
      ok: true,
      doc: {
        ...d,
        descriptionEs: 'Cómo mudar un curso',
        descriptionEn: 'How to move a course',
        priceCents: 1999,
        thumbnail: '/images/courses/1.webp',
        modules: [
          {
            key: newKey(),
            id: null,
            nameEs: 'Inicio',
            nameEn: 'Start',
            lessons: [
              {
                key: newKey(),
                id: null,
                nameEs: 'Hola',
                nameEn: 'Hello',
                summaryEs: 'Resumen',
                summaryEn: 'Summary',
                resources: [
                  { key: newKey(), id: null, kind: 'video', titleEs: 'Vídeo', titleEn: 'Video', url: null, mediaFileId: videoId },
                  { key: newKey(), id: null, kind: 'pdf', titleEs: 'Guía', titleEn: 'Guide', url: null, mediaFileId: pdfId },
                  { key: newKey(), id: null, kind: 'link', titleEs: 'Enlace', titleEn: 'Link', url: 'https://example.com/a', mediaFileId: null },
                ],
              },
            ],
          },
        ],
      },
    }));
    expect((await publishDraft(handle.db, editor, courseId)).status).toBe('ok');
    const resourceId = (await liveDoc(handle.db, courseId))!.modules[0]!.lessons[0]!.resources[0]!.id!;
    await handle.db.insert(s.captions).values([
      { resourceId, lang: 'es', mediaFileId: await file('captions/test-archive/es.vtt', vtt('Hola'), 'text/vtt') },
      { resourceId, lang: 'en', mediaFileId: await file('captions/test-archive/en.vtt', vtt('Hello'), 'text/vtt') },
    ]);
    await handle.db.insert(s.evaluations).values({ courseId, minutes: 10, questionCount: 1, passingScore: 70, maxAttempts: 3 });
    const q = { kind: 'single' as const, promptEs: '¿Sí?', promptEn: 'Yes?', explanationEs: 'Porque sí', explanationEn: 'Because', options: [{ textEs: 'Sí', textEn: 'Yes', correct: true }, { textEs: 'No', textEn: 'No', correct: false }] };
    await importQuestions(handle.db, editor, courseId, [q, { ...q, kind: 'true-false', promptEs: '¿No?', promptEn: 'No?', explanationEs: '', explanationEn: '' }], false);
    exported = await exportOf(courseId);
  });
  afterAll(async () => {
    await runtime?.close?.();
    await handle?.close();
  });

  it('imports an exported course as a new hidden course whose draft equals the original, files and bank included', async () => {
    const outcome = await importCourse(handle.db, runtime.storage, editor, exported);
    expect(outcome).toMatchObject({ status: 'ok', code: 'MOVER-1-2', changed: [{ catalog: true }, { exam: expect.any(Number) }] });
    const newId = (outcome as { courseId: number }).courseId;
    expect(newId).not.toBe(courseId);
    const [row] = await handle.db.select().from(s.courses).where(eq(s.courses.id, newId));
    expect(row).toMatchObject({ hidden: true, code: 'MOVER-1-2', price: '19.99' });
    const original = (await liveDoc(handle.db, courseId))!;
    const view = (await editorView(handle.db, newId))!;
    expect(view.draft).not.toBeNull();
    expect(shape(view.doc)).toEqual(shape(original));
    expect(await exportBank(handle.db, newId)).toEqual(await exportBank(handle.db, courseId));
    const [from, to] = [original, view.doc].map((d) => d.modules[0]!.lessons[0]!.resources);
    for (const i of [0, 1]) {
      const [a] = await handle.db.select().from(s.mediaFiles).where(eq(s.mediaFiles.id, from![i]!.mediaFileId!));
      const [b] = await handle.db.select().from(s.mediaFiles).where(eq(s.mediaFiles.id, to![i]!.mediaFileId!));
      expect(b!.storageKey).not.toBe(a!.storageKey);
      expect((await bytesOf(runtime.storage, b!.storageKey)).equals(await bytesOf(runtime.storage, a!.storageKey))).toBe(true);
    }
    const tracks = await handle.db.select().from(s.captions).where(eq(s.captions.resourceId, to![0]!.id!));
    expect(tracks.map((t) => t.lang).sort()).toEqual(['en', 'es']);
    // The draft publishes as it is; exported again, it is the same archive but for its code.
    expect((await publishDraft(handle.db, editor, newId)).status).toBe('ok');
    const again = await courseArchive(runtime.db, runtime.storage, newId);
    const first = await courseArchive(runtime.db, runtime.storage, courseId);
    const strip = (a: CourseArchive) => ({ ...a, exportedAt: '', course: { ...a.course, code: '', hidden: false } });
    expect(strip((again as { archive: CourseArchive }).archive)).toEqual(strip((first as { archive: CourseArchive }).archive));
    const [event] = await auditOf(handle.db, `course:${newId}`, 'course.imported');
    expect(event).toMatchObject({ actor: `user:${editor}`, after: { code: 'MOVER-1-2', from: 'MOVER-1', files: 5, questions: 2 } });
  });

  it('refuses hostile and broken archives, and unresolvable references, writing nothing', async () => {
    const before = await counts();
    const json = (change: (a: CourseArchive) => unknown) => async () => {
      const a = (await courseArchive(runtime.db, runtime.storage, courseId)) as { archive: CourseArchive };
      return zipBytes([{ name: 'course.json', content: JSON.stringify(change(structuredClone(a.archive))) }]);
    };
    /** The exported archive with the first file of `type` replaced by `bytes` of the same size (and course.json changed by `change`). */
    const swapped = async (type: string, bytes: (size: number) => Buffer, change: (a: CourseArchive) => CourseArchive = (a) => a) => {
      const files = readZip(exported, ARCHIVE_LIMITS);
      const archive = JSON.parse((await entryBytes(exported, files[0]!, 1e7)).toString('utf8')) as CourseArchive;
      const target = archive.media.find((m) => m.contentType === type)!.path;
      const entries = await Promise.all(files.slice(1).map(async (f) => ({ name: f.name, content: f.name === target ? bytes(f.size) : await entryBytes(exported, f, 1e7) })));
      return zipBytes([{ name: 'course.json', content: JSON.stringify(change(archive)) }, ...entries]);
    };
    const cases: [string, () => Promise<Uint8Array> | Uint8Array][] = [
      ['truncated', () => exported.subarray(0, exported.length - 100)],
      ['notZip', () => Buffer.from('%PDF-1.4 renamed to .zip')],
      ['badName', () => renamed(Buffer.from(zip([{ name: 'course.json', content: '{}' }, { name: 'media/a.txt', content: 'x' }])), 'media/a.txt', '../../a.txt')],
      ['bomb', () => zip([{ name: 'course.json', content: '{}' }, { name: 'media/1.mp4', content: Buffer.alloc(4 * 1024 * 1024) }])],
      ['noCourseJson', () => zip([{ name: 'other.json', content: '{}' }])],
      ['notJson', () => zip([{ name: 'course.json', content: '{not json' }])],
      ['version', json((a) => ({ ...a, version: 2 }))],
      ['translation', json((a) => ((a.course.modules[0]!.lessons[0]!.name.en = ' '), a))],
      ['translation', json((a) => ((a.course.description.en = ''), a))],
      ['price', json((a) => ((a.course.priceCents = -1), a))],
      ['price', json((a) => ((a.course.priceCents = 12.5), a))],
      ['unknownCategory', json((a) => ((a.course.category.code = 999), a))],
      ['missingMedia', json((a) => a)],
      ['badQuestion', json((a) => (a.course.exam!.bank[0]!.options.forEach((o) => (o.correct = false)), a))],
      ['mediaType', () => swapped('application/pdf', (size) => Buffer.from('<html>'.padEnd(size, ' ')))],
      ['mediaType', () => swapped('text/vtt', (size) => Buffer.from('WEBVTT\n\n<script>x</script>'.padEnd(size, ' ')))],
      ['unusedMedia', () => swapped('application/pdf', (size) => Buffer.alloc(size), (a) => ((a.course.modules[0]!.lessons[0]!.resources = a.course.modules[0]!.lessons[0]!.resources.filter((r) => r.kind !== 'pdf')), a))],
    ];
    for (const [problem, make] of cases) {
      const outcome = await importCourse(handle.db, runtime.storage, editor, await make());
      expect([problem, outcome.status, (outcome as { problem?: string }).problem]).toEqual([problem, 'refused', problem]);
    }
    expect(await counts()).toEqual(before);
  });

  it('refuses to export a course that does not exist, or whose stored file is gone, before sending a byte', async () => {
    expect(await courseArchive(runtime.db, runtime.storage, 2_147_483_647)).toEqual({ status: 'unknownCourse' });
    const made = await createCourse(handle.db, editor, { code: 'GONE-1', nameEs: 'Perdido', nameEn: 'Lost', categoryId: 2, businessId: 1 });
    const id = (made as { courseId: number }).courseId;
    const [row] = await handle.db.insert(s.mediaFiles).values({ storageKey: 'videos/test-archive/gone.mp4', mimeType: 'video/mp4', sizeBytes: 10 }).returning({ id: s.mediaFiles.id });
    await editDraft(handle.db, editor, id, { action: 'test' }, (d) => ({
      ok: true,
      doc: { ...d, modules: [{ key: newKey(), id: null, nameEs: 'M', nameEn: 'M', lessons: [{ key: newKey(), id: null, nameEs: 'L', nameEn: 'L', summaryEs: '', summaryEn: '', resources: [{ key: newKey(), id: null, kind: 'video', titleEs: 'V', titleEn: 'V', url: null, mediaFileId: row!.id }] }] }] },
    }));
    expect((await publishDraft(handle.db, editor, id)).status).toBe('ok');
    expect(await courseArchive(runtime.db, runtime.storage, id)).toEqual({ status: 'missingMedia', key: 'videos/test-archive/gone.mp4' });
  });

  it('leaves no stored file and no row when the storage fails half way', async () => {
    const before = await counts();
    let puts = 0;
    const failing: Storage = {
      ...runtime.storage,
      kind: runtime.storage.kind,
      put: async (key, body, options) => {
        if (++puts === 3) throw new Error('disk full');
        return runtime.storage.put(key, body, options);
      },
      delete: (key) => runtime.storage.delete(key),
      list: (prefix) => runtime.storage.list(prefix),
    };
    await expect(importCourse(handle.db, failing, editor, exported)).rejects.toThrow('disk full');
    expect(await counts()).toEqual(before);
    expect(puts).toBe(3);
  });

  it("carries a thumbnail staff uploaded: the new course gets its own, re-encoded by this server", async () => {
    const picture = await sharp({ create: { width: 1280, height: 720, channels: 3, background: '#c63' } }).png().toBuffer();
    expect((await setThumbnail(handle.db, runtime.storage, editor, courseId, { size: picture.length, bytes: picture })).status).toBe('ok');
    expect((await publishDraft(handle.db, editor, courseId)).status).toBe('ok');
    const outcome = await importCourse(handle.db, runtime.storage, editor, await exportOf(courseId));
    expect(outcome.status).toBe('ok');
    const newId = (outcome as { courseId: number }).courseId;
    const [row] = await handle.db.select({ thumbnail: s.courses.thumbnail }).from(s.courses).where(eq(s.courses.id, newId));
    expect(row!.thumbnail).toMatch(new RegExp(`^/media/course-thumbnail/${newId}-[0-9a-f]{20}\\.webp$`));
    expect((await editorView(handle.db, newId))!.doc.thumbnail).toBe(row!.thumbnail);
    const meta = await sharp(await bytesOf(runtime.storage, storedImageKey('course-thumbnail', row!.thumbnail)!)).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 960, 540]);
  });
});
