/**
 * `kill -9` in the middle of a course import (`backoffice-faults.child.ts` running `importCourse` on a
 * data folder, killing itself at a step): after two of its files are stored, inside its transaction, and
 * just after its commit. A run killed before the commit leaves no course, and its stored files are
 * deleted by the next import once that batch is older than an import can take; one killed after the
 * commit leaves a complete hidden course with its draft. Importing again works, and in the end every
 * file under `imports/` belongs to an imported course. On PGlite, and on PostgreSQL when it answers (each
 * a copy of the run's seeded database).
 */
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { count, eq, like } from 'drizzle-orm';
import * as s from '../src/lib/db/schema';
import type { CourseDoc } from '../src/lib/authoring/authoring';
import { createCourse, editDraft, editorView, liveDoc, newKey } from '../src/lib/authoring/draft.server';
import { publishDraft } from '../src/lib/authoring/publish.server';
import { defaultStorageDir } from '../src/lib/config/storage';
import { archiveStream, courseArchive } from '../src/lib/course-archive/export.server';
import { IMPORT_ABANDONED_MS } from '../src/lib/course-archive/course-archive';
import { exportBank, importQuestions } from '../src/lib/question-bank/bank.server';
import { createLocalStorage } from '../src/lib/storage/local.server';
import { faultDatabases, useFaultTarget, runWrite, withDb } from '../src/lib/testing/fault-runs';

/** The document without what differs between academies: ids, keys, code and file ids. */
function shape(doc: CourseDoc) {
  const { code: _c, prerequisiteCourseId: _p, modules, ...rest } = doc;
  return { ...rest, modules: modules.map(({ id: _i, key: _k, lessons, ...m }) => ({ ...m, lessons: lessons.map(({ id: _li, key: _lk, resources, ...l }) => ({ ...l, resources: resources.map(({ id: _ri, key: _rk, mediaFileId, ...r }) => ({ ...r, file: mediaFileId !== null })) })) })) };
}

/** Every file in the folder, as paths relative to it. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort();
}

describe.each(await faultDatabases())('kill -9 during a course import on $name', ({ name, up }) => {
  const target = useFaultTarget('import-faults', { name, up });

  it.skipIf(!up)('leaves no course or a complete hidden one, no orphan file after the next import, and imports again', async () => {
    const { dataDir } = target();
    const storageDir = defaultStorageDir(dataDir);
    const storage = createLocalStorage(storageDir);
    const archiveFile = join(dataDir, 'course.zip');
    // A published course with a video, its captions, a PDF, a link and an exam, exported.
    const { editor, original } = await withDb(target(), async ({ db }) => {
      const editor = (await db.select({ id: s.users.id }).from(s.users).where(eq(s.users.email, 'editor@academia.example')))[0]!.id;
      const made = await createCourse(db, editor, { code: 'MOVER-1', nameEs: 'Mudanza', nameEn: 'Moving', categoryId: 2, businessId: 1 });
      const courseId = (made as { courseId: number }).courseId;
      const file = async (key: string, bytes: Buffer, mimeType: string) => {
        await storage.put(key, bytes, { contentType: mimeType });
        return (await db.insert(s.mediaFiles).values({ storageKey: key, mimeType, sizeBytes: bytes.length, durationSeconds: mimeType.startsWith('video/') ? '1.50' : null }).returning({ id: s.mediaFiles.id }))[0]!.id;
      };
      const video = await file('videos/faults/v.mp4', Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(4000, 7)]), 'video/mp4');
      const pdf = await file('documents/faults/d.pdf', Buffer.from('%PDF-1.4\n% tiny\n'), 'application/pdf');
      await editDraft(db, editor, courseId, { action: 'test' }, (d) => ({
        ok: true,
        doc: {
          ...d,
          priceCents: 1999,
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
                  summaryEs: '',
                  summaryEn: '',
                  resources: [
                    { key: newKey(), id: null, kind: 'video', titleEs: 'Vídeo', titleEn: 'Video', url: null, mediaFileId: video },
                    { key: newKey(), id: null, kind: 'pdf', titleEs: 'Guía', titleEn: 'Guide', url: null, mediaFileId: pdf },
                    { key: newKey(), id: null, kind: 'link', titleEs: 'Enlace', titleEn: 'Link', url: 'https://example.com/a', mediaFileId: null },
                  ],
                },
              ],
            },
          ],
        },
      }));
      expect((await publishDraft(db, editor, courseId)).status).toBe('ok');
      const original = (await liveDoc(db, courseId))!;
      const resourceId = original.modules[0]!.lessons[0]!.resources[0]!.id!;
      await db.insert(s.captions).values([
        { resourceId, lang: 'es', mediaFileId: await file('captions/faults/es.vtt', Buffer.from('WEBVTT\n\n00:00.000 --> 00:01.000\nHola\n'), 'text/vtt') },
        { resourceId, lang: 'en', mediaFileId: await file('captions/faults/en.vtt', Buffer.from('WEBVTT\n\n00:00.000 --> 00:01.000\nHello\n'), 'text/vtt') },
      ]);
      await db.insert(s.evaluations).values({ courseId, minutes: 10, questionCount: 1, passingScore: 70, maxAttempts: 3 });
      const q = { kind: 'single' as const, promptEs: '¿Sí?', promptEn: 'Yes?', explanationEs: '', explanationEn: '', options: [{ textEs: 'Sí', textEn: 'Yes', correct: true }, { textEs: 'No', textEn: 'No', correct: false }] };
      await importQuestions(db, editor, courseId, [q], false);
      const outcome = await courseArchive(db, storage, courseId);
      if (outcome.status !== 'ok') throw new Error(outcome.status);
      const parts: Uint8Array[] = [];
      for await (const part of archiveStream(storage, outcome)) parts.push(part);
      writeFileSync(archiveFile, Buffer.concat(parts));
      return { editor, original: { doc: original, bank: await exportBank(db, courseId) } };
    });
    const args = { actor: editor, archive: archiveFile };
    const imported = () => withDb(target(), async ({ db }) => db.select().from(s.courses).where(like(s.courses.code, 'MOVER-1-%')).orderBy(s.courses.id));
    const rows = () => withDb(target(), async ({ db }) => ({ courses: (await db.select({ n: count() }).from(s.courses))[0]!.n, files: (await db.select({ n: count() }).from(s.mediaFiles))[0]!.n, drafts: (await db.select({ n: count() }).from(s.courseDrafts))[0]!.n }));
    const named = () => withDb(target(), async ({ db }) => new Set((await db.select({ key: s.mediaFiles.storageKey }).from(s.mediaFiles).where(like(s.mediaFiles.storageKey, 'imports/%'))).map((r) => r.key)));
    const importFiles = () => filesUnder(storageDir).filter((f) => f.startsWith('imports/'));
    const before = await rows();

    // Killed after two files are stored, then inside the transaction: no course, no row; its files stay for now.
    expect(await runWrite('import', target(), { at: 'media-stored', nth: 2, args })).toMatchObject({ end: 'killed' });
    expect(await rows()).toEqual(before);
    const batch = importFiles();
    expect(batch).toHaveLength(2);
    // A kill in the middle of the third file's write leaves its temporary file beside the others.
    writeFileSync(join(storageDir, `${batch[0]!.replace(/[^/]+$/, '')}3.vtt.0a1b2c3d4e5f.part`), 'WEBVTT\n\n00:00.000 --> 00');
    expect(await runWrite('import', target(), { at: 'in-transaction', args })).toMatchObject({ end: 'killed' });
    expect(await rows()).toEqual(before);
    expect(importFiles()).toHaveLength(3 + 4);

    // Killed just after the commit: a complete hidden course with its draft, like the original.
    expect(await runWrite('import', target(), { at: 'committed', args })).toMatchObject({ end: 'killed' });
    const complete = async (courseId: number) =>
      withDb(target(), async ({ db }) => {
        const view = (await editorView(db, courseId))!;
        expect(view.draft).not.toBeNull();
        expect(shape(view.doc)).toEqual(shape(original.doc));
        expect(await exportBank(db, courseId)).toEqual(original.bank);
        const resource = view.doc.modules[0]!.lessons[0]!.resources[0]!;
        expect((await db.select().from(s.captions).where(eq(s.captions.resourceId, resource.id!))).map((c) => c.lang).sort()).toEqual(['en', 'es']);
      });
    const [first] = await imported();
    expect(first).toMatchObject({ code: 'MOVER-1-2', hidden: true });
    await complete(first!.id);

    // The next import, once the dead imports are older than an import can take: their files go; it imports whole.
    const next = await runWrite('import', target(), { now: Date.now() + IMPORT_ABANDONED_MS + 60_000, args });
    expect(next).toMatchObject({ end: 'done', result: { status: 'ok', code: 'MOVER-1-3' } });
    const courses = await imported();
    expect(courses.map((c) => [c.code, c.hidden])).toEqual([['MOVER-1-2', true], ['MOVER-1-3', true]]);
    await complete(courses[1]!.id);
    const keys = await named();
    expect(keys.size).toBe(2 * 4);
    expect(importFiles()).toEqual([...keys].sort());
  }, 600_000);
});
