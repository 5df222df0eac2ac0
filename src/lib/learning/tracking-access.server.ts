/**
 * Who may send progress for which course: the session must name a person to track, and the course
 * must be one the access rules let them see. Shared by the realtime socket and the HTTP fallback.
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { ibos } from '../db/schema';
import { refusal } from '../access/access';
import type { Store } from '../access/store.server';
import type { CatalogCourse } from '../catalog/catalog';
import type { SessionInfo } from '../identity/session.server';
import type { Outline, TrackingError } from './learning';
import { courseIdSchema } from './tracking';

/** The person progress is recorded for, as the session says. */
export interface Tracked {
  contactId: number;
  /** The only `CreadoPor` accepted besides none: the learner's user, or the IBO's own user. */
  createdBy: number | null;
}

/** A course whose lessons the person may record progress in (a catalogue course has these fields). */
export type TrackedCourse = Outline;

/** May this session record progress in this course? */
export type TrackingAuth = { ok: true; who: Tracked; course: CatalogCourse } | { ok: false; error: TrackingError };

/**
 * Checks a session and a course id: `unauthorized` without a session or without a person to track
 * (an IBO session before prospect data), `invalid` for a course id that is not one, `forbidden` for an
 * unknown course or one the access rules refuse this person.
 */
export async function authorizeTracking(store: Store, session: SessionInfo | null, rawCourseId: unknown): Promise<TrackingAuth> {
  const contactId = session?.identity.contactId ?? null;
  if (!session || contactId === null) return { ok: false, error: 'unauthorized' };
  const id = courseIdSchema.safeParse(rawCourseId);
  if (!id.success) return { ok: false, error: 'invalid' };
  try {
    const catalog = await store.catalog();
    const course = catalog.byId.get(id.data);
    if (!course) return { ok: false, error: 'forbidden' };
    const viewer = await store.viewer(session.identity);
    if (refusal(course, viewer) !== null) return { ok: false, error: 'forbidden' };
    return { ok: true, who: { contactId, createdBy: await createdByOf(store.db, session) }, course };
  } catch {
    return { ok: false, error: 'unavailable' };
  }
}

async function createdByOf(db: Db, session: SessionInfo): Promise<number | null> {
  if (session.identity.userId !== null) return session.identity.userId;
  if (!session.ibo) return null;
  const [row] = await db.select({ userId: ibos.userId }).from(ibos).where(eq(ibos.id, session.ibo.id)).limit(1);
  return row?.userId ?? null;
}
