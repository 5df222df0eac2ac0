/**
 * The demo courses' archives (`assets/demo-catalogue`): every folder is a demo course and passes the
 * import's checks, and exporting a seeded demo course gives back its `course.json` and `media.json` to
 * the byte, on each database, so the files and what the seed makes of them cannot drift apart.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARCHIVE_LIMITS, checkArchiveFiles } from '~/lib/course-archive';
import { courseArchive } from '~/lib/course-archive/export.server';
import { createLocalStorage } from '~/lib/storage/local.server';
import type { DbHandle } from '../client';
import { testDatabases } from '../testing';
import { demoCourses } from './catalogue';
import { checkedDemoCatalogue, DEMO_CATALOGUE_DIR, demoFiles, MEDIA_SOURCES, readDemoCatalogue } from './demo-catalogue.server';

const MEDIA = resolve('media');
const text = (code: string, file: string) => readFileSync(join(DEMO_CATALOGUE_DIR, code, file), 'utf8');

describe('the demo catalogue folders', () => {
  it('are exactly the demo courses, each with its course.json and media.json', () => {
    expect(readdirSync(DEMO_CATALOGUE_DIR).sort()).toEqual(demoCourses.map((c) => c.code).sort());
    for (const { code } of demoCourses) expect(readdirSync(join(DEMO_CATALOGUE_DIR, code)).sort()).toEqual(['course.json', MEDIA_SOURCES]);
  });

  it.each(demoCourses.map((c) => [c.code]))('%s passes the checks an imported archive passes', async (code) => {
    const course = readDemoCatalogue().find((c) => c.archive.course.code === code)!;
    expect(await checkArchiveFiles(demoFiles(course, MEDIA), ARCHIVE_LIMITS.maxJsonBytes)).toMatchObject({ status: 'checked' });
  });

  it('refuses to seed a demo course whose files do not match its course.json, naming it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'demo-catalogue-'));
    try {
      cpSync(DEMO_CATALOGUE_DIR, dir, { recursive: true });
      const file = join(dir, 'BOOKING-TOOLS', 'course.json');
      const archive = JSON.parse(readFileSync(file, 'utf8'));
      archive.media[0].sizeBytes += 1;
      writeFileSync(file, JSON.stringify(archive));
      await expect(checkedDemoCatalogue(MEDIA, dir)).rejects.toThrow('demo course BOOKING-TOOLS is refused: mediaSize media/1.webm');
      archive.course.modules[0].name.en = '';
      writeFileSync(file, JSON.stringify(archive));
      await expect(checkedDemoCatalogue(MEDIA, dir)).rejects.toThrow('demo course BOOKING-TOOLS: course.json is refused (translation at "course.modules.0.name.en")');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

const databases = await testDatabases();

describe.each(databases)('the seeded demo courses on $name', ({ create }) => {
  let handle: DbHandle;
  beforeAll(async () => {
    handle = await create({ seed: true });
  });
  afterAll(async () => {
    await handle?.close();
  });

  it.each(demoCourses.map((c) => [c.code, c.id] as const))('%s (course %i) exports back to its course.json and media.json', async (code, id) => {
    const exportedAt = new Date(JSON.parse(text(code, 'course.json')).exportedAt);
    const out = await courseArchive(handle.db, createLocalStorage(MEDIA), id, exportedAt);
    if (out.status !== 'ok') throw new Error(`export refused: ${out.status}`);
    expect(`${JSON.stringify(out.archive, null, 2)}\n`).toBe(text(code, 'course.json'));
    const sources = Object.fromEntries(out.files.flatMap((f) => (f.storageKey ? [[f.path, f.storageKey]] : [])));
    expect(`${JSON.stringify(sources, null, 2)}\n`).toBe(text(code, MEDIA_SOURCES));
  });
});
