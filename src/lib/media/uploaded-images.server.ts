/**
 * Serves and stores the pictures staff upload for the public pages (`uploaded-images.ts`): to anyone, as
 * the pages that show them are public; 404 in words for a name that is not one of ours or a file gone.
 */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { messages, type Locale } from '~/i18n';
import { reencodeImage } from '../identity/photo.server';
import type { PhotoRefusal } from '../identity/photo';
import type { Storage } from '../storage';
import { imageKey, imageName, imageUrl, parseImageName, UPLOADED_IMAGES, type UploadedImageKind } from './uploaded-images';

/**
 * Re-encodes an upload as `kind`'s WebP (the photo's checks: JPEG, PNG or WebP by its first bytes, size
 * and pixel limits) and stores it; answers its address, or why it was refused (nothing stored then).
 */
export async function storeUploadedImage(storage: Storage, kind: UploadedImageKind, ownerId: number, upload: { size: number; bytes: Uint8Array } | null): Promise<{ ok: true; url: string } | { ok: false; reason: PhotoRefusal }> {
  const { width, height } = UPLOADED_IMAGES[kind];
  const made = await reencodeImage(upload, width, height);
  if (!made.ok) return made;
  const name = imageName(ownerId, createHash('sha256').update(made.webp).digest('hex'));
  await storage.put(imageKey(kind, name), made.webp, { contentType: 'image/webp' });
  return { ok: true, url: imageUrl(kind, name) };
}

/** The answer to GET or HEAD of picture `rawName` of `kind`. */
export async function serveUploadedImage(storage: Storage, kind: UploadedImageKind, rawName: string | undefined, method: 'GET' | 'HEAD', locale: Locale): Promise<Response> {
  const name = parseImageName(rawName);
  const found = name ? await storage.get(imageKey(kind, name)) : null;
  if (!found) {
    return new Response(messages(locale).notFound.message, {
      status: 404,
      headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Language': locale, 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' },
    });
  }
  const headers = { 'Content-Type': 'image/webp', 'Content-Length': String(found.object.sizeBytes), 'Cache-Control': 'public, max-age=31536000, immutable', 'X-Content-Type-Options': 'nosniff' };
  if (method === 'HEAD') {
    (found.body as Readable).destroy?.();
    return new Response(null, { headers });
  }
  return new Response(Readable.toWeb(Readable.from(found.body)) as ReadableStream<Uint8Array>, { headers });
}
