/**
 * A course's thumbnail uploaded by an editor: the server's own 960×540 WebP, stored under a name of its
 * bytes and set in the draft (the live course keeps its picture until publication), served to anyone;
 * an SVG, an HTML page renamed .png and a truncated picture are refused with nothing stored, and so is
 * any picture for a course that does not exist.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../db/testing';
import type { DbHandle } from '../db/client';
import * as s from '../db/schema';
import { createLocalStorage } from '../storage/local.server';
import { serveUploadedImage } from '../media/uploaded-images.server';
import { parseImageName, storedImageKey } from '../media/uploaded-images';
import { editorView } from './draft.server';
import { setThumbnail } from './thumbnail.server';

const [database] = await testDatabases();
const folder = mkdtempSync(join(tmpdir(), 'thumbnails-'));
const storage = createLocalStorage(folder);
const png = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#2a7' } }).png().toBuffer();
const upload = (bytes: Uint8Array) => ({ size: bytes.length, bytes });

async function stored(): Promise<string[]> {
  const keys: string[] = [];
  for await (const k of storage.list('courses/thumbnails/')) keys.push(k);
  return keys;
}

describe('a course thumbnail', () => {
  let handle: DbHandle;
  let editor: number;
  beforeAll(async () => {
    handle = await database!.create({ seed: true });
    editor = (await handle.db.select({ id: s.users.id }).from(s.users).where(eq(s.users.email, 'editor@academia.example')))[0]!.id;
  });
  afterAll(async () => {
    await handle?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('is re-encoded as a 960×540 WebP, set in the draft only, and served to anyone', async () => {
    const [live] = await handle.db.select({ thumbnail: s.courses.thumbnail }).from(s.courses).where(eq(s.courses.id, 3));
    const outcome = await setThumbnail(handle.db, storage, editor, 3, upload(png));
    expect(outcome.status).toBe('ok');
    if (outcome.status !== 'ok') return;
    expect(outcome.url).toMatch(/^\/media\/course-thumbnail\/3-[0-9a-f]{20}\.webp$/);
    expect((await editorView(handle.db, 3))!.doc.thumbnail).toBe(outcome.url);
    expect((await handle.db.select({ thumbnail: s.courses.thumbnail }).from(s.courses).where(eq(s.courses.id, 3)))[0]).toEqual(live);
    const key = storedImageKey('course-thumbnail', outcome.url)!;
    const answer = await serveUploadedImage(storage, 'course-thumbnail', outcome.url.split('/').pop(), 'GET', 'en');
    expect([answer.status, answer.headers.get('content-type')]).toEqual([200, 'image/webp']);
    const meta = await sharp(Buffer.from(await answer.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 960, 540]);
    expect(await stored()).toEqual([key]);
  });

  it('refuses what is not a JPEG, PNG or WebP picture, and a course that does not exist, storing nothing', async () => {
    const before = await stored();
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const html = new TextEncoder().encode('<!doctype html><title>x</title>');
    expect(await setThumbnail(handle.db, storage, editor, 3, upload(svg))).toEqual({ status: 'refused', reason: 'notImage' });
    expect(await setThumbnail(handle.db, storage, editor, 3, upload(html))).toEqual({ status: 'refused', reason: 'notImage' });
    expect(await setThumbnail(handle.db, storage, editor, 3, upload(png.subarray(0, 200)))).toEqual({ status: 'refused', reason: 'unreadable' });
    expect(await setThumbnail(handle.db, storage, editor, 3, null)).toEqual({ status: 'refused', reason: 'missing' });
    expect(await setThumbnail(handle.db, storage, editor, 999_999, upload(png))).toEqual({ status: 'unknownCourse' });
    expect(await stored()).toEqual(before);
  });

  it('answers 404 in words for a name that is not one of ours', async () => {
    for (const name of ['../../etc/passwd', '3-zz.webp', '0-aaaaaaaaaaaaaaaaaaaa.webp', undefined]) {
      expect(parseImageName(name)).toBeNull();
      const answer = await serveUploadedImage(storage, 'course-thumbnail', name, 'GET', 'es');
      expect(answer.status).toBe(404);
      expect(await answer.text()).not.toBe('');
    }
  });
});
