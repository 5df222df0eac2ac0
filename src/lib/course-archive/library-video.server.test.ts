/**
 * A course whose lesson plays a converted library video moves between academies: the archive carries the
 * video as one MP4 (its top rung's streams copied out of the HLS segments) with the library video's
 * caption tracks, another academy imports it as a playable video file with both tracks, and the export's
 * scratch folder is gone once the archive ends.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../db/testing';
import type { DbHandle } from '../db/client';
import * as s from '../db/schema';
import { testRuntime } from '../testing/runtime';
import type { Runtime } from '../runtime/runtime.server';
import { createLogger } from '../http/log.server';
import { createCourse, editDraft, editorView, liveDoc, newKey } from '../authoring/draft.server';
import { publishDraft } from '../authoring/publish.server';
import { createVideo, finishUpload, probeFile, saveCaption, toolPaths, transcodeDue, uploadedFiles, uploadFile, uploadsDir } from '../videos';
import { archiveStream, courseArchive, discardExport, webStream } from './export.server';
import { importCourse } from './import.server';
import { ARCHIVE_LIMITS } from './course-archive';
import { entryBytes, readZip } from './unzip';
import { useTempFolders } from '../testing/temp-folders';

const tempFolder = useTempFolders();

const [pglite] = await testDatabases();
const vtt = (text: string) => Buffer.from(`WEBVTT\n\n00:00.000 --> 00:01.000\n${text}\n`);

describe('a lesson playing a converted library video, in a course archive', () => {
  let handle: DbHandle;
  let runtime: Runtime;
  let editor: number;
  let courseId: number;
  const dataDir = tempFolder('academy-archive-video-');
  const scratchDirs = () => readdirSync(tmpdir()).filter((n) => n.startsWith('academy-export-'));

  beforeAll(async () => {
    handle = await pglite!.create({ seed: true });
    runtime = await testRuntime(handle);
    editor = (await handle.db.select({ id: s.users.id }).from(s.users).where(eq(s.users.email, 'editor@academia.example')))[0]!.id;
    // An uploaded 2 s clip, probed and converted by the worker's own code into the storage.
    const uploadId = 'a'.repeat(32);
    mkdirSync(uploadsDir(dataDir), { recursive: true });
    execFileSync(toolPaths().ffmpeg, ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=15', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000', '-t', '2', '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-shortest', '-f', 'mp4', uploadFile(dataDir, uploadId)]);
    const videoId = await createVideo(handle.db, { uploadId, ownerId: editor, title: 'Cierre', sizeBytes: 1 });
    expect((await finishUpload(handle.db, uploadedFiles(runtime.storage, dataDir), uploadId)).ok).toBe(true);
    await transcodeDue({ db: handle.db, storage: runtime.storage, dataDir, workerId: 'archive-test', logger: createLogger('silent') });
    const [video] = await handle.db.select().from(s.videos).where(eq(s.videos.id, videoId));
    expect(video).toMatchObject({ state: 'ready' });
    for (const [lang, text] of [['es', 'Hola'], ['en', 'Hello']] as const) expect((await saveCaption(handle.db, runtime.storage, editor, videoId, lang, vtt(text))).status).toBe('ok');

    courseId = ((await createCourse(handle.db, editor, { code: 'HLS-MOVER', nameEs: 'Vídeo', nameEn: 'Video', categoryId: 2, businessId: 1 })) as { courseId: number }).courseId;
    await editDraft(handle.db, editor, courseId, { action: 'test' }, (d) => ({
      ok: true,
      doc: {
        ...d,
        descriptionEs: 'Un curso con un vídeo subido',
        descriptionEn: 'A course with an uploaded video',
        modules: [
          {
            key: newKey(),
            id: null,
            nameEs: 'Inicio',
            nameEn: 'Start',
            lessons: [{ key: newKey(), id: null, nameEs: 'Hola', nameEn: 'Hello', summaryEs: 'Resumen', summaryEn: 'Summary', resources: [{ key: newKey(), id: null, kind: 'video', titleEs: 'Vídeo', titleEn: 'Video', url: null, mediaFileId: video!.mediaFileId }] }],
          },
        ],
      },
    }));
    expect((await publishDraft(handle.db, editor, courseId)).status).toBe('ok');
  }, 120_000);
  afterAll(async () => {
    await runtime?.close?.();
    await handle?.close();
  });

  it('exports the video as an MP4 with its captions, and another academy imports a playable lesson', async () => {
    const before = new Set(scratchDirs());
    const outcome = await courseArchive(runtime.db, runtime.storage, courseId);
    if (outcome.status !== 'ok') throw new Error(outcome.status);
    const parts: Uint8Array[] = [];
    for await (const part of archiveStream(runtime.storage, outcome)) parts.push(part);
    const archive = Buffer.concat(parts);
    // The scratch folder of the remuxed video is gone with the archive's end.
    expect(scratchDirs().filter((d) => !before.has(d))).toEqual([]);

    const resource = outcome.archive.course.modules[0]!.lessons[0]!.resources[0]!;
    expect(resource).toMatchObject({ kind: 'video', captions: { es: expect.any(String), en: expect.any(String) } });
    const file = 'file' in resource ? resource.file : '';
    expect(outcome.archive.media.find((m) => m.path === file)).toMatchObject({ contentType: 'video/mp4', durationSeconds: expect.any(String) });
    const entries = readZip(archive, ARCHIVE_LIMITS);
    const mp4 = await entryBytes(archive, entries.find((e) => e.name === file)!, ARCHIVE_LIMITS.maxEntryBytes);
    const probedAt = join(dataDir, 'exported.mp4');
    writeFileSync(probedAt, mp4);
    const probed = (await probeFile(probedAt)) as { format: { format_name: string; duration: string }; streams: { codec_type: string; codec_name: string }[] };
    expect(probed.format.format_name).toContain('mp4');
    expect(probed.streams.map((st) => `${st.codec_type}:${st.codec_name}`).sort()).toEqual(['audio:aac', 'video:h264']);
    expect(Math.abs(Number(probed.format.duration) - 2)).toBeLessThan(0.3);

    const imported = await importCourse(handle.db, runtime.storage, editor, archive);
    expect(imported.status).toBe('ok');
    const doc = (await editorView(handle.db, (imported as { courseId: number }).courseId))!.doc;
    const [file2] = await handle.db.select().from(s.mediaFiles).where(eq(s.mediaFiles.id, doc.modules[0]!.lessons[0]!.resources[0]!.mediaFileId!));
    expect(file2).toMatchObject({ mimeType: 'video/mp4', sizeBytes: mp4.length });
    expect(await runtime.storage.stat(file2!.storageKey)).toMatchObject({ sizeBytes: mp4.length });
    const tracks = await handle.db.select().from(s.captions).where(eq(s.captions.resourceId, doc.modules[0]!.lessons[0]!.resources[0]!.id!));
    expect(tracks.map((t) => t.lang).sort()).toEqual(['en', 'es']);
    // The live course's own document is untouched.
    expect((await liveDoc(handle.db, courseId))!.modules[0]!.lessons[0]!.resources[0]!.mediaFileId).not.toBe(file2!.id);
    expect(existsSync(dataDir)).toBe(true);
  });

  it('drops the remuxed video of a download cancelled before its first byte', async () => {
    const before = new Set(scratchDirs());
    const outcome = await courseArchive(runtime.db, runtime.storage, courseId);
    if (outcome.status !== 'ok') throw new Error(outcome.status);
    expect(existsSync(outcome.scratch!)).toBe(true);
    await webStream(archiveStream(runtime.storage, outcome), () => discardExport(outcome)).cancel();
    expect(existsSync(outcome.scratch!)).toBe(false);
    expect(scratchDirs().filter((d) => !before.has(d))).toEqual([]);
  });
});
