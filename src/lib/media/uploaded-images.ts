/**
 * Pictures staff upload for the public pages (book covers, course thumbnails, IBO logos): the server's own WebP of
 * each (re-encoded from the upload, never the upload itself), stored under a name made of its owner's id
 * and its bytes' hash, so a new picture is a new address and an address is kept for good. Pure: names,
 * keys and addresses; `uploaded-images.server.ts` serves them.
 */

/** Each kind: where its files are stored, and the size the server makes of an upload (cut from the centre). */
export const UPLOADED_IMAGES = {
  'book-cover': { folder: 'books/covers', width: 400, height: 600 },
  'course-thumbnail': { folder: 'courses/thumbnails', width: 960, height: 540 },
  'ibo-logo': { folder: 'ibos/logos', width: 400, height: 400 },
} as const;
export type UploadedImageKind = keyof typeof UPLOADED_IMAGES;

/** The file name of owner `ownerId`'s picture whose bytes hash to `hash` (hex). Never a name a person typed. */
export function imageName(ownerId: number, hash: string): string {
  return `${ownerId}-${hash.slice(0, 20)}.webp`;
}

/** Reads a picture's file name, or null for anything that is not one of ours. */
export function parseImageName(name: string | undefined): string | null {
  const m = /^([1-9]\d{0,9})-[0-9a-f]{20}\.webp$/.exec(name ?? '');
  return m && Number(m[1]) <= 2_147_483_647 ? name! : null;
}

/** The address pictures of `kind` are served under. */
export const imagePathPrefix = (kind: UploadedImageKind): string => `/media/${kind}/`;
/** The storage key of picture `name` of `kind`. */
export const imageKey = (kind: UploadedImageKind, name: string): string => `${UPLOADED_IMAGES[kind].folder}/${name}`;
/** The address of picture `name` of `kind`. */
export const imageUrl = (kind: UploadedImageKind, name: string): string => imagePathPrefix(kind) + name;

/** The storage key behind an address of `kind`, or null for any other address (a demo picture under `public/`). */
export function storedImageKey(kind: UploadedImageKind, url: string): string | null {
  const prefix = imagePathPrefix(kind);
  if (!url.startsWith(prefix)) return null;
  const name = parseImageName(url.slice(prefix.length));
  return name ? imageKey(kind, name) : null;
}
