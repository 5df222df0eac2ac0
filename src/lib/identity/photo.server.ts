/**
 * Keeping, reading and removing profile photos. A photo accepted by `photo.ts`'s rules is decoded by
 * sharp with a pixel limit, turned upright, cut to the square the person chose (checked against the
 * picture's real size; none chosen: the centre) and re-encoded as a small WebP: the bytes kept (and
 * ever served) are ours, never the upload. Photos live in the storage (`runtime.storage`) under
 * `photos/<name>`, written whole or not at all; the user's `imageUrl` names the new one, and the one it
 * replaces is removed.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import sharp from 'sharp';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { contacts, users } from '../db/schema';
import { pagesChange, sessionChange, type Change } from '../runtime/changes';
import type { Storage } from '../storage';
import { moveIntoStorage } from '../storage/move.server';
import { centreCrop, cropFits, keptPhotoName, parsePhotoName, PHOTO_MAX_PIXELS, PHOTO_SIDE, photoName, photoRefusal, photoUrl, type PhotoCrop, type PhotoRefusal } from './photo';

/** The folder photos were kept in before they moved to the storage (its files are moved there at start, `movePhotosIntoStorage`). */
export function photoFolder(dataDir: string): string {
  return join(dataDir, 'photos');
}

/** How an uploaded picture is decoded: the pixel limit checked before decoding, a broken file refused, one frame. */
const DECODE_OPTIONS = { limitInputPixels: PHOTO_MAX_PIXELS, failOn: 'error', animated: false } as const;

/**
 * Any uploaded picture under the photo's rules (JPEG, PNG or WebP by its first bytes, at most
 * `PHOTO_MAX_BYTES` and `PHOTO_MAX_PIXELS`), turned upright and re-encoded by the server as a WebP that
 * covers `width`×`height` (cut from the centre): a book's cover, for one. The bytes kept are ours.
 */
export async function reencodeImage(file: { size: number; bytes: Uint8Array } | null, width: number, height: number): Promise<{ ok: true; webp: Buffer } | { ok: false; reason: PhotoRefusal }> {
  const refused = photoRefusal(file);
  if (refused) return { ok: false, reason: refused };
  try {
    const meta = await sharp(file!.bytes, DECODE_OPTIONS).metadata();
    if (meta.width * meta.height > PHOTO_MAX_PIXELS) return { ok: false, reason: 'tooManyPixels' };
    const webp = await sharp(file!.bytes, DECODE_OPTIONS).rotate().resize(width, height, { fit: 'cover', position: 'centre' }).webp({ quality: 80 }).toBuffer();
    return { ok: true, webp };
  } catch (err) {
    return { ok: false, reason: /pixel limit/i.test((err as Error).message) ? 'tooManyPixels' : 'unreadable' };
  }
}

/** The storage key of kept photo `name`. */
export function photoKey(name: string): string {
  return `photos/${name}`;
}

/** EXIF orientations that turn the picture a quarter: shown upright, its width and height swap. */
const QUARTER_TURNS = new Set([5, 6, 7, 8]);

/**
 * The square WebP the server keeps of an accepted photo: the square `crop` (in the pixels of the
 * picture shown upright) or, without one, the centre. Refused when the picture has too many pixels
 * (told by its header, before decoding), cannot be decoded, or the square does not lie inside it.
 */
export async function reencodePhoto(bytes: Uint8Array, crop: PhotoCrop | null = null): Promise<{ ok: true; webp: Buffer } | { ok: false; reason: PhotoRefusal }> {
  const options = DECODE_OPTIONS;
  try {
    const meta = await sharp(bytes, options).metadata();
    if (meta.width * meta.height > PHOTO_MAX_PIXELS) return { ok: false, reason: 'tooManyPixels' };
    const turned = QUARTER_TURNS.has(meta.orientation ?? 1);
    const [width, height] = turned ? [meta.height, meta.width] : [meta.width, meta.height];
    if (crop && !cropFits(crop, width, height)) return { ok: false, reason: 'badCrop' };
    const square = crop ?? centreCrop(width, height);
    const webp = await sharp(bytes, options)
      .rotate()
      .extract({ left: square.x, top: square.y, width: square.size, height: square.size })
      .resize(PHOTO_SIDE, PHOTO_SIDE)
      .webp({ quality: 80 })
      .toBuffer();
    return { ok: true, webp };
  } catch (err) {
    return { ok: false, reason: /pixel limit/i.test((err as Error).message) ? 'tooManyPixels' : 'unreadable' };
  }
}

export type PhotoOutcome = { status: 'ok'; imageUrl: string; changed: Change[] } | { status: 'refused'; reason: PhotoRefusal } | { status: 'unknownUser' };

/**
 * Keeps `file` as user `userId`'s photo, cut to `crop` (null: the centre). A refused file leaves nothing behind (no file, no change to
 * the account). The user's sessions are told (the header shows the new photo on the next page).
 */
export async function savePhoto(db: Db, storage: Storage, userId: number, file: { size: number; bytes: Uint8Array }, crop: PhotoCrop | null = null): Promise<PhotoOutcome> {
  const refused = photoRefusal(file);
  if (refused) return { status: 'refused', reason: refused };
  const made = await reencodePhoto(file.bytes, crop);
  if (!made.ok) return { status: 'refused', reason: made.reason };
  const [before] = await db.select({ imageUrl: users.imageUrl }).from(users).where(eq(users.id, userId)).limit(1);
  if (!before) return { status: 'unknownUser' };
  const name = photoName(userId, createHash('sha256').update(made.webp).digest('hex'));
  await storage.put(photoKey(name), made.webp, { contentType: 'image/webp' });
  const imageUrl = photoUrl(name);
  await db.update(users).set({ imageUrl }).where(eq(users.id, userId));
  const old = keptPhotoName(before.imageUrl);
  if (old && old !== name) await storage.delete(photoKey(old));
  return { status: 'ok', imageUrl, changed: await photoChanges(db, userId) };
}

/**
 * Removes user `userId`'s photo: the column is cleared (the header and menu show their initials) and
 * the kept file deleted. Nothing to remove is no error (`removed: false`, nothing changed).
 */
export async function removePhoto(db: Db, storage: Storage, userId: number): Promise<{ status: 'ok'; removed: boolean; changed: Change[] } | { status: 'unknownUser' }> {
  const [before] = await db.select({ imageUrl: users.imageUrl }).from(users).where(eq(users.id, userId)).limit(1);
  if (!before) return { status: 'unknownUser' };
  if (before.imageUrl === null) return { status: 'ok', removed: false, changed: [] };
  await db.update(users).set({ imageUrl: null }).where(eq(users.id, userId));
  const old = keptPhotoName(before.imageUrl);
  if (old) await storage.delete(photoKey(old));
  return { status: 'ok', removed: true, changed: await photoChanges(db, userId) };
}

/** Who is told of a new (or removed) photo: the person's sessions (the header) and their kept pages. */
async function photoChanges(db: Db, userId: number): Promise<Change[]> {
  const own = await db.select({ id: contacts.id }).from(contacts).where(eq(contacts.userId, userId));
  return [sessionChange({ userId }), ...own.map((c) => pagesChange(c.id))];
}

/** The bytes of kept photo `name` (already checked by `parsePhotoName`), or `null` when there is no such photo. */
export async function readPhoto(storage: Storage, name: string): Promise<Buffer | null> {
  const read = await storage.get(photoKey(name));
  if (!read) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of read.body) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/** Removes every photo of user `userId` (a deleted account): safe to run again, nothing left is no error. */
export async function removePhotos(storage: Storage, userId: number): Promise<void> {
  const keys: string[] = [];
  for await (const key of storage.list(`photos/${userId}-`)) keys.push(key);
  await Promise.all(keys.map((key) => storage.delete(key)));
}

/**
 * Moves the photos of the data folder's `photos/` (where they were kept before the storage) into the
 * storage, each removed from the folder once stored; returns how many. Safe to run at every start.
 */
export function movePhotosIntoStorage(dataDir: string, storage: Storage): Promise<number> {
  return moveIntoStorage(photoFolder(dataDir), storage, 'photos/', (name) => parsePhotoName(name) !== null, 'image/webp');
}
