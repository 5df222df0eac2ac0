/**
 * The rules of a profile photo that need no I/O: which files are accepted (JPEG, PNG or WebP, told by
 * their first bytes, never by their name or the browser's type), how large, how many pixels, what the
 * server makes of it (a square WebP of `PHOTO_SIDE` pixels: the square the person chose, else the
 * centre), the crop square and how the browser's frame moves and grows, and the name it is kept and
 * served under (`<user id>-<hash of its bytes>.webp`: a new photo is a new address, so the old one may
 * be cached for good).
 */

/** The largest photo accepted, in bytes (the action's whole request may hold a little more: the form's other fields). */
export const PHOTO_MAX_BYTES = 5 * 1024 * 1024;
/** The largest request an action accepts (`astro.config.mjs` `security.actionBodySizeLimit`): a photo and its form. */
export const ACTION_BODY_LIMIT = PHOTO_MAX_BYTES + 64 * 1024;
/** The most pixels a photo may have before it is decoded (an "image bomb" of huge dimensions is refused). */
export const PHOTO_MAX_PIXELS = 40_000_000;
/** The side of the square the server keeps, in pixels. */
export const PHOTO_SIDE = 256;
/** The formats accepted, as their first bytes tell. */
export const PHOTO_KINDS = ['jpeg', 'png', 'webp'] as const;
export type PhotoKind = (typeof PHOTO_KINDS)[number];
/** What the file input offers (a hint for the browser; the server reads the bytes). */
export const PHOTO_ACCEPT = 'image/jpeg,image/png,image/webp';

/** Why a photo was refused: each has a sentence in `identity.photo.errors`. */
export type PhotoRefusal = 'missing' | 'tooLarge' | 'notImage' | 'tooManyPixels' | 'unreadable' | 'badCrop';

const startsWith = (bytes: Uint8Array, sig: readonly number[], at = 0) => bytes.length >= at + sig.length && sig.every((b, i) => bytes[at + i] === b);

/** The format the bytes are in (JPEG `FF D8 FF`, PNG's 8-byte signature, WebP `RIFF····WEBP`), or `null` for anything else (PDF, SVG, GIF, HEIC…). */
export function sniffPhoto(bytes: Uint8Array): PhotoKind | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8)) return 'webp';
  return null;
}

/** The first reason to refuse a posted file before decoding it, or `null` when it may be decoded. */
export function photoRefusal(file: { size: number; bytes: Uint8Array } | null): PhotoRefusal | null {
  if (!file || file.size === 0) return 'missing';
  if (file.size > PHOTO_MAX_BYTES) return 'tooLarge';
  return sniffPhoto(file.bytes) ? null : 'notImage';
}

/** The HTTP status of a refusal: 413 for size, 415 for a type we do not take, 400 otherwise. */
export function photoRefusalStatus(reason: PhotoRefusal): 400 | 413 | 415 {
  if (reason === 'tooLarge') return 413;
  if (reason === 'notImage') return 415;
  return 400;
}

/** The address a kept photo is served at. */
export const PHOTO_PATH_PREFIX = '/profile/photo/';

/** The file name of user `userId`'s photo whose bytes hash to `hash` (hex). */
export function photoName(userId: number, hash: string): string {
  return `${userId}-${hash.slice(0, 20)}.webp`;
}

/** Reads a photo's file name: its owner and hash, or `null` for anything that is not one of ours. */
export function parsePhotoName(name: string | undefined): { userId: number; name: string } | null {
  const m = /^([1-9]\d{0,9})-([0-9a-f]{20})\.webp$/.exec(name ?? '');
  if (!m) return null;
  const userId = Number(m[1]);
  return userId <= 2_147_483_647 ? { userId, name: name! } : null;
}

/** The address of a kept photo. */
export function photoUrl(name: string): string {
  return PHOTO_PATH_PREFIX + name;
}

/** The file name of a stored image address when it is one of our kept photos (to remove it when replaced). */
export function keptPhotoName(imageUrl: string | null | undefined): string | null {
  if (!imageUrl?.startsWith(PHOTO_PATH_PREFIX)) return null;
  return parsePhotoName(imageUrl.slice(PHOTO_PATH_PREFIX.length))?.name ?? null;
}

/** The headers of a served photo: our own bytes, WebP, kept by the browser for good (a new photo is a new address), never by shared caches. */
export const PHOTO_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'image/webp',
  'Cache-Control': 'private, max-age=31536000, immutable',
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'; sandbox",
  'Content-Disposition': 'inline; filename="photo.webp"',
};

/* ───────────── the crop square ───────────── */

/** A square of the picture, in its pixels (as shown upright): the left and top edges and the side. */
export interface PhotoCrop {
  x: number;
  y: number;
  size: number;
}

/** The smallest square the frame may shrink to, in the picture's pixels (a smaller picture: its short side). */
export const CROP_MIN_SIZE = 32;
/** The form fields that carry the square. */
export const CROP_FIELDS = { x: 'cropX', y: 'cropY', size: 'cropSize' } as const;

const CROP_NUMBER = /^(0|[1-9]\d{0,5})$/;

/**
 * Reads the square posted with a photo: `null` when none was sent (the form without JavaScript: the
 * centre is kept), `'invalid'` when the fields are there but are not whole numbers (or only some are).
 */
export function parseCrop(x: unknown, y: unknown, size: unknown): PhotoCrop | null | 'invalid' {
  const given = [x, y, size].filter((v) => v !== undefined && v !== null && v !== '');
  if (given.length === 0) return null;
  if (given.length !== 3 || !given.every((v) => typeof v === 'string' && CROP_NUMBER.test(v))) return 'invalid';
  return { x: Number(x), y: Number(y), size: Number(size) };
}

/** Does the square lie inside a picture of `width` × `height` pixels, no smaller than the frame may be? */
export function cropFits(crop: PhotoCrop, width: number, height: number): boolean {
  const { x, y, size } = crop;
  if (![x, y, size].every(Number.isSafeInteger)) return false;
  return x >= 0 && y >= 0 && size >= Math.min(CROP_MIN_SIZE, width, height) && x + size <= width && y + size <= height;
}

/** The largest square at the centre of a `width` × `height` picture (what is kept when no square is chosen). */
export function centreCrop(width: number, height: number): PhotoCrop {
  const size = Math.max(1, Math.min(width, height));
  return { x: Math.floor((width - size) / 2), y: Math.floor((height - size) / 2), size };
}

/** The square moved and sized to fit inside the picture: at least the smallest frame, at most the short side. */
export function clampCrop(crop: PhotoCrop, width: number, height: number): PhotoCrop {
  const largest = Math.max(1, Math.min(width, height));
  const size = Math.round(Math.min(largest, Math.max(Math.min(CROP_MIN_SIZE, largest), crop.size)));
  const x = Math.round(Math.min(width - size, Math.max(0, crop.x)));
  const y = Math.round(Math.min(height - size, Math.max(0, crop.y)));
  return { x, y, size };
}

/** The square moved by `dx`, `dy` pixels, kept inside the picture. */
export function moveCrop(crop: PhotoCrop, dx: number, dy: number, width: number, height: number): PhotoCrop {
  return clampCrop({ ...crop, x: crop.x + dx, y: crop.y + dy }, width, height);
}

/** The square grown (or shrunk, `by` < 0) by `by` pixels around its centre, kept inside the picture. */
export function resizeCrop(crop: PhotoCrop, by: number, width: number, height: number): PhotoCrop {
  const size = clampCrop({ ...crop, size: crop.size + by }, width, height).size;
  const half = (size - crop.size) / 2;
  return clampCrop({ x: crop.x - half, y: crop.y - half, size }, width, height);
}

/** The square grown by `by` pixels from its top-left corner (the frame's handle is the bottom-right one), kept inside the picture. */
export function growCropFromCorner(crop: PhotoCrop, by: number, width: number, height: number): PhotoCrop {
  const room = Math.min(width - crop.x, height - crop.y);
  const smallest = Math.min(CROP_MIN_SIZE, width, height);
  const size = Math.max(Math.min(smallest, room), Math.min(room, crop.size + by));
  return clampCrop({ ...crop, size }, width, height);
}

/** How far one key press moves or sizes the frame: a twentieth of the picture's short side, at least one pixel. */
export function cropStep(width: number, height: number): number {
  return Math.max(1, Math.round(Math.min(width, height) / 20));
}
