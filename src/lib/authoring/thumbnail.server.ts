/**
 * A course's thumbnail, uploaded by an editor: the server's own 960×540 WebP of the picture (the photo's
 * checks: JPEG, PNG or WebP by its first bytes, size and pixel limits; an SVG, an HTML page or a renamed
 * file is refused), stored under a name of its bytes, and set in the course's draft (live at publication).
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { courses } from '../db/schema';
import type { PhotoRefusal } from '../identity/photo';
import { storeUploadedImage } from '../media/uploaded-images.server';
import type { Storage } from '../storage';
import { editDraft } from './draft.server';

export type ThumbnailOutcome = { status: 'ok'; url: string } | { status: 'unknownCourse' } | { status: 'refused'; reason: PhotoRefusal };

/** Stores `upload` as course `courseId`'s thumbnail in its draft; nothing is stored for an unknown course or a refused picture. */
export async function setThumbnail(db: Db, storage: Storage, actorId: number, courseId: number, upload: { size: number; bytes: Uint8Array } | null): Promise<ThumbnailOutcome> {
  const [course] = await db.select({ id: courses.id }).from(courses).where(eq(courses.id, courseId));
  if (!course) return { status: 'unknownCourse' };
  const stored = await storeUploadedImage(storage, 'course-thumbnail', courseId, upload);
  if (!stored.ok) return { status: 'refused', reason: stored.reason };
  const outcome = await editDraft(db, actorId, courseId, { action: 'thumbnail', facts: { thumbnail: stored.url } }, (doc) => ({ ok: true, doc: { ...doc, thumbnail: stored.url } }));
  return outcome.status === 'ok' ? { status: 'ok', url: stored.url } : { status: 'unknownCourse' };
}
