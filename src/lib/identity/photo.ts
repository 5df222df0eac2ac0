/**
 * The rules of a profile photo that need no I/O: which files are accepted (JPEG, PNG or WebP, told by
 * their first bytes, never by their name or the browser's type), how large, how many pixels, what the
 * server makes of it (a square WebP of `PHOTO_SIDE` pixels, centre-cropped), and the name it is kept
 * and served under (`<user id>-<hash of its bytes>.webp`: a new photo is a new address, so the old one
 * may be cached for good).
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
export type PhotoRefusal = 'missing' | 'tooLarge' | 'notImage' | 'tooManyPixels' | 'unreadable';

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
