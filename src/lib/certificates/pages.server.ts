/**
 * What the certificate pages show: the issue page, a learner's own certificate, and the public
 * verification of a code.
 */
import type { JSONWebKeySet } from 'jose';
import type { Db } from '../db/client';
import type { Certificate } from '../db/schema';
import type { PageRead } from '../runtime/changes';
import { isListed, type Viewer } from '../access/access';
import { parseCourseId, type CatalogCourse, type CatalogSnapshot } from '../catalog/catalog';
import { verificationStatus } from './certificates';
import { certificateByCode, certificateCredential, findCertificate, hasCompletedCourse, holderOf } from './certificates.server';
import { checkCertificateCredential } from './credentials.server';

/** The course a certificate page may name for a viewer: listed for them (test and buyers-only courses answer as unknown). */
function knownCourse(catalog: Pick<CatalogSnapshot, 'byId'>, viewer: Viewer, courseId: number | null): CatalogCourse | null {
  if (courseId === null) return null;
  const course = catalog.byId.get(courseId);
  return course && isListed(course, viewer) ? course : null;
}

/** The learner a viewer is (a logged-in user's own contact), or `null`. */
function learnerOf(viewer: Viewer): number | null {
  return viewer.kind === 'learner' && viewer.contactId !== null ? viewer.contactId : null;
}

/** What `/course-generate?course={id}` shows. */
export type GeneratePage =
  | { kind: 'not-found' }
  /** Not a learner (the middleware sends visitors and IBO sessions to the login page first). */
  | { kind: 'login' }
  /** Already issued: go straight to the certificate. */
  | { kind: 'issued'; courseId: number }
  | { kind: 'not-completed'; course: CatalogCourse }
  | { kind: 'ready'; course: CatalogCourse; holderName: string };

/**
 * Loads what the issue page shows for `rawCourse` (the `course` query parameter, unchecked), and what
 * reading it changed (checking the completion grades an exam attempt whose time is up).
 */
export async function loadGeneratePage(db: Db, catalog: Pick<CatalogSnapshot, 'byId'>, viewer: Viewer, rawCourse: string | null, now: number): Promise<PageRead<GeneratePage>> {
  const course = knownCourse(catalog, viewer, parseCourseId(rawCourse ?? undefined));
  if (!course) return { page: { kind: 'not-found' }, changed: [] };
  const contactId = learnerOf(viewer);
  if (contactId === null) return { page: { kind: 'login' }, changed: [] };
  if (await findCertificate(db, contactId, course.id)) return { page: { kind: 'issued', courseId: course.id }, changed: [] };
  const { completed, changed } = await hasCompletedCourse(db, contactId, course.id, now);
  if (!completed) return { page: { kind: 'not-completed', course }, changed };
  const holder = await holderOf(db, contactId);
  return { page: holder ? { kind: 'ready', course, holderName: holder.name } : { kind: 'login' }, changed };
}

/** The viewer's certificate of the course `rawId` names (a route parameter, unchecked), or `null` (the page answers 404). */
export async function loadOwnCertificate(db: Db, catalog: Pick<CatalogSnapshot, 'byId'>, viewer: Viewer, rawId: string | undefined): Promise<{ certificate: Certificate; course: CatalogCourse } | null> {
  const course = knownCourse(catalog, viewer, parseCourseId(rawId));
  const contactId = learnerOf(viewer);
  if (!course || contactId === null) return null;
  const certificate = await findCertificate(db, contactId, course.id);
  return certificate ? { certificate, course } : null;
}

/** What the public verification page says of a code. */
export type Verification =
  | { status: 'unknown' }
  | { status: 'valid' | 'revoked'; certificate: Certificate; course: CatalogCourse; signatureChecked: boolean };

/**
 * Verifies a code for the public page: unknown (malformed input included), or the certificate, revoked
 * or not, with whether its signed credential verifies with the published key set alone. A certificate
 * without a credential yet (the seed's) is signed first, by `sign`.
 */
export async function verifyCode(
  db: Db,
  catalog: Pick<CatalogSnapshot, 'byId'>,
  rawCode: unknown,
  keySet: JSONWebKeySet,
  sign: (certificate: Certificate, course: CatalogCourse) => Promise<string>,
): Promise<Verification> {
  const certificate = await certificateByCode(db, rawCode);
  const course = certificate ? catalog.byId.get(certificate.courseId) : undefined;
  const status = verificationStatus(certificate);
  if (!certificate || !course || status === 'unknown') return { status: 'unknown' };
  const jwt = await certificateCredential(db, certificate, () => sign(certificate, course));
  return { status, certificate, course, signatureChecked: await checkCertificateCredential(jwt, certificate, keySet) };
}
