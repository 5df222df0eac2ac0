import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '~/lib/db';
import { users } from '~/lib/db/schema';
import { testDatabases } from '~/lib/db/testing';
import { imageBomb } from '~/lib/testing/images';
import { PHOTO_MAX_BYTES, PHOTO_SIDE, photoUrl } from './photo';
import { createLocalStorage } from '~/lib/storage/local.server';
import type { Storage } from '~/lib/storage';
import { movePhotosIntoStorage, photoFolder, readPhoto, removePhoto, savePhoto } from './photo.server';

const databases = await testDatabases();
/** A PNG that says it is 100 000 × 100 000 pixels in a few hundred bytes: decoding it would need gigabytes. */
const bomb = await imageBomb(100_000);

const file = (b: Uint8Array) => ({ size: b.length, bytes: b });

describe.each(databases)('keeping a profile photo on $name', ({ create }) => {
  let handle: DbHandle;
  let dataDir: string;
  let storage: Storage;
  let userId: number;
  let goodJpeg: Buffer;
  beforeAll(async () => {
    handle = await create({ seed: true });
    dataDir = await mkdtemp(join(tmpdir(), 'photos-'));
    storage = createLocalStorage(join(dataDir, 'files'));
    const [row] = await handle.db.select({ id: users.id }).from(users).where(eq(users.email, 'learner@academia.example'));
    userId = row!.id;
    // A wide picture: red on the left, blue in the middle, green on the right.
    const third = (r: number, g: number, b: number) => sharp({ create: { width: 300, height: 600, channels: 3, background: { r, g, b } } }).png().toBuffer();
    goodJpeg = await sharp({ create: { width: 900, height: 600, channels: 3, background: { r: 0, g: 0, b: 0 } } })
      .composite([
        { input: await third(255, 0, 0), left: 0, top: 0 },
        { input: await third(0, 0, 255), left: 300, top: 0 },
        { input: await third(0, 255, 0), left: 600, top: 0 },
      ])
      .jpeg()
      .toBuffer();
  });
  afterAll(async () => {
    await handle.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const stored = async () => (await handle.db.select({ imageUrl: users.imageUrl }).from(users).where(eq(users.id, userId)))[0]!.imageUrl;
  const files = async () => {
    const names: string[] = [];
    for await (const key of storage.list('photos/')) names.push(key.slice('photos/'.length));
    return names;
  };

  it.each([
    ['a PDF renamed .jpg', Buffer.from('%PDF-1.7\n1 0 obj << >> endobj\n%%EOF'), 'notImage'],
    ['an SVG with a script', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>'), 'notImage'],
    ['a GIF', Buffer.from('GIF89a\u0001\u0000\u0001\u0000\u0000\u0000\u0000;'), 'notImage'],
    ['an image bomb (100 000 × 100 000 pixels)', bomb, 'tooManyPixels'],
    ['a JPEG that is only its first bytes', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46]), 'unreadable'],
    ['nothing', Buffer.alloc(0), 'missing'],
  ])('refuses %s and stores nothing', async (_, bytes, reason) => {
    const before = await stored();
    expect(await savePhoto(handle.db, storage, userId, file(bytes))).toEqual({ status: 'refused', reason });
    expect(await stored()).toBe(before);
    expect(await files()).toEqual([]);
  });

  it('refuses a 20 MB file by its size, without decoding it', async () => {
    const outcome = await savePhoto(handle.db, storage, userId, { size: 20 * 1024 * 1024, bytes: goodJpeg });
    expect(outcome).toEqual({ status: 'refused', reason: 'tooLarge' });
    expect(PHOTO_MAX_BYTES).toBeLessThan(20 * 1024 * 1024);
    expect(await files()).toEqual([]);
  });

  it('keeps its own square WebP of a good photo (the centre of it), names it on the account and tells the sessions', async () => {
    const outcome = await savePhoto(handle.db, storage, userId, file(goodJpeg));
    if (outcome.status !== 'ok') throw new Error(`refused: ${JSON.stringify(outcome)}`);
    expect(outcome.changed).toContainEqual({ session: { userId } });
    expect(await stored()).toBe(outcome.imageUrl);
    const name = outcome.imageUrl.split('/').pop()!;
    expect(outcome.imageUrl).toBe(photoUrl(name));
    const kept = (await readPhoto(storage, name))!;
    expect(Buffer.compare(kept, goodJpeg)).not.toBe(0);
    const meta = await sharp(kept).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: PHOTO_SIDE, height: PHOTO_SIDE });
    // The centre third was blue: the square is blue in its middle.
    const { data } = await sharp(kept).extract({ left: PHOTO_SIDE / 2, top: PHOTO_SIDE / 2, width: 1, height: 1 }).raw().toBuffer({ resolveWithObject: true });
    expect(data[2]).toBeGreaterThan(200);
    expect(data[0]).toBeLessThan(60);
    expect(kept.length).toBeLessThan(20_000);

    // A new photo replaces the file of the old one.
    const png = await sharp({ create: { width: 400, height: 400, channels: 4, background: { r: 10, g: 200, b: 10, alpha: 1 } } }).png().toBuffer();
    const again = await savePhoto(handle.db, storage, userId, file(png));
    if (again.status !== 'ok') throw new Error('refused');
    expect(await files()).toEqual([again.imageUrl.split('/').pop()]);
  });

  /** The colour at the middle of a kept photo. */
  const middle = async (imageUrl: string) => {
    const kept = (await readPhoto(storage, imageUrl.split('/').pop()!))!;
    const { data } = await sharp(kept).extract({ left: PHOTO_SIDE / 2, top: PHOTO_SIDE / 2, width: 1, height: 1 }).raw().toBuffer({ resolveWithObject: true });
    return { r: data[0]!, g: data[1]!, b: data[2]! };
  };

  it('keeps the square the person chose, cut from the picture as shown upright', async () => {
    const right = await savePhoto(handle.db, storage, userId, file(goodJpeg), { x: 600, y: 0, size: 300 });
    if (right.status !== 'ok') throw new Error(`refused: ${JSON.stringify(right)}`);
    expect(await middle(right.imageUrl)).toMatchObject({ g: expect.toSatisfy((g: number) => g > 200), r: expect.toSatisfy((r: number) => r < 60) });
    const left = await savePhoto(handle.db, storage, userId, file(goodJpeg), { x: 0, y: 100, size: 450 });
    if (left.status !== 'ok') throw new Error('refused');
    expect((await middle(left.imageUrl)).r).toBeGreaterThan(200);
    expect(await sharp((await readPhoto(storage, left.imageUrl.split('/').pop()!))!).metadata()).toMatchObject({ format: 'webp', width: PHOTO_SIDE, height: PHOTO_SIDE });
    // A phone picture stored on its side (EXIF orientation 6): 600 × 300 as stored, 300 × 600 upright.
    const sideways = await sharp({ create: { width: 600, height: 300, channels: 3, background: { r: 0, g: 0, b: 255 } } }).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const upright = await savePhoto(handle.db, storage, userId, file(sideways), { x: 0, y: 300, size: 300 });
    expect(upright.status).toBe('ok');
    expect(await savePhoto(handle.db, storage, userId, file(sideways), { x: 300, y: 0, size: 300 })).toEqual({ status: 'refused', reason: 'badCrop' });
  });

  it.each([
    ['past the right edge', { x: 601, y: 0, size: 300 }],
    ['past the bottom', { x: 0, y: 301, size: 300 }],
    ['larger than the picture', { x: 0, y: 0, size: 601 }],
    ['smaller than the smallest frame', { x: 0, y: 0, size: 8 }],
    ['at a negative place', { x: -1, y: 0, size: 300 }],
  ])('refuses a square %s, keeping nothing new', async (_, crop) => {
    const before = await stored();
    const kept = await files();
    expect(await savePhoto(handle.db, storage, userId, file(goodJpeg), crop)).toEqual({ status: 'refused', reason: 'badCrop' });
    expect(await stored()).toBe(before);
    expect(await files()).toEqual(kept);
  });

  it('removes the photo: the file and the account’s link to it; removing again changes nothing', async () => {
    const saved = await savePhoto(handle.db, storage, userId, file(goodJpeg));
    if (saved.status !== 'ok') throw new Error('refused');
    expect(await files()).toEqual([saved.imageUrl.split('/').pop()]);
    const removed = await removePhoto(handle.db, storage, userId);
    expect(removed).toMatchObject({ status: 'ok', removed: true });
    if (removed.status === 'ok') expect(removed.changed).toContainEqual({ session: { userId } });
    expect(await stored()).toBeNull();
    expect(await files()).toEqual([]);
    expect(await removePhoto(handle.db, storage, userId)).toEqual({ status: 'ok', removed: false, changed: [] });
    expect(await removePhoto(handle.db, storage, 2_000_000_000)).toEqual({ status: 'unknownUser' });
  });

  it('answers an unknown user without keeping a file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'photos-'));
    const outcome = await savePhoto(handle.db, createLocalStorage(dir), 2_000_000_000, file(goodJpeg));
    expect(outcome).toEqual({ status: 'unknownUser' });
    expect(await readdir(dir)).toEqual([]);
    await rm(dir, { recursive: true, force: true });
  });

  it('moves the photos kept in the data folder before the storage into it, once, leaving other files alone', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'photos-legacy-'));
    const into = createLocalStorage(join(dir, 'files'));
    await mkdir(photoFolder(dir));
    const name = `${userId}-0123456789abcdef0123.webp`;
    await writeFile(join(photoFolder(dir), name), 'webp bytes');
    await writeFile(join(photoFolder(dir), 'notes.txt'), 'not a photo');
    expect(await movePhotosIntoStorage(dir, into)).toBe(1);
    expect((await readPhoto(into, name))!.toString()).toBe('webp bytes');
    expect(await readdir(photoFolder(dir))).toEqual(['notes.txt']);
    expect(await movePhotosIntoStorage(dir, into)).toBe(0);
    await rm(dir, { recursive: true, force: true });
  });
});
