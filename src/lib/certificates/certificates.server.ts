/**
 * The stored certificates: issuing one (once per person and course, only to someone who completed the
 * course), finding a person's or a code's, revoking one, and keeping its signed credential. The PDF is
 * in `pdf.server.ts`, the QR images in `qr.server.ts`, signing in `credentials.server.ts`, the e-mail
 * on issuing in `mail.server.ts`, what the pages show in `pages.server.ts`.
 */
import { randomBytes } from 'node:crypto';
import { and, count, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { Locale } from '~/i18n/locales';
import { certificates, contacts, courseCompletions, courses, resources, RESOURCE_TYPE, subtopics, topics, users, type Certificate } from '../db/schema';
import { displayName } from '../forms/characters';
import { examStanding } from '../exams/exams.server';
import { loadExam } from '../exams/exam-source.server';
import { courseCompleted } from '../exams/exams';
import { completedLessons } from '../learning/progress.server';
import type { Change } from '../runtime/changes';
import { CODE_RANDOM_BYTES, newVerificationCode, normalizeCode } from './certificates';
import { carriesStatus } from './credentials.server';

/** Why a certificate was not issued. */
export type IssueRefusal =
  /** No such course, or an internal test course. */
  | 'unknown-course'
  /** No such person. */
  | 'unknown-person'
  /** Lessons left to complete, or the course's exam not passed. */
  | 'not-completed';

/**
 * The outcome of {@link issueCertificate}: the certificate (`created`: issued by this call), or why not;
 * either way, what checking the course's completion changed (an overdue exam attempt graded), for the
 * caller to tell the runtime.
 */
export type IssueOutcome = ({ ok: true; certificate: Certificate; created: boolean } | { ok: false; reason: IssueRefusal }) & { changed: Change[] };

/**
 * Whether the person completed the course: every lesson of it completed and, when it has an exam, the
 * exam passed (`courseCompleted`, with the exams' own standing: an overdue attempt is graded first, and
 * `changed` says what that grading changed).
 */
export async function hasCompletedCourse(db: Db, contactId: number, courseId: number, now: number): Promise<{ completed: boolean; changed: Change[] }> {
  // The course's lessons as the catalogue shows them: those with their video.
  const lessonRows = await db
    .selectDistinct({ id: subtopics.id })
    .from(subtopics)
    .innerJoin(topics, eq(topics.id, subtopics.topicId))
    .innerJoin(resources, and(eq(resources.subtopicId, subtopics.id), eq(resources.typeId, RESOURCE_TYPE.video)))
    .where(eq(topics.courseId, courseId));
  const lessonIds = new Set(lessonRows.map((r) => r.id));
  const [done, exam] = await Promise.all([completedLessons(db, contactId, courseId), loadExam(db, courseId)]);
  const { standing, changed } = exam ? await examStanding(db, exam, contactId, now) : { standing: null, changed: [] };
  const completed = courseCompleted({ lessonsTotal: lessonIds.size, lessonsCompleted: done.filter((id) => lessonIds.has(id)).length, hasExam: exam !== null, examPassed: standing?.passed ?? false });
  // Completed before a publication changed the lessons: it stays completed.
  const kept = completed ? [] : await db.select({ at: courseCompletions.keptAt }).from(courseCompletions).where(and(eq(courseCompletions.contactId, contactId), eq(courseCompletions.courseId, courseId)));
  return { completed: completed || kept.length > 0, changed };
}

/**
 * The person a certificate names: their account's name and e-mail when they have one, else the
 * contact's; `locale` is the language they chose for our mails in their profile (null: none chosen).
 */
export async function holderOf(db: Db, contactId: number): Promise<{ name: string; email: string; locale: Locale | null } | null> {
  if (!isRowId(contactId)) return null;
  const [row] = await db
    .select({
      first: sql<string>`coalesce(${users.firstName}, ${contacts.firstName})`,
      last: sql<string>`coalesce(${users.lastName}, ${contacts.lastName})`,
      email: sql<string>`coalesce(${users.email}, ${contacts.email})`,
      locale: users.locale,
    })
    .from(contacts)
    .leftJoin(users, eq(users.id, contacts.userId))
    .where(eq(contacts.id, contactId));
  if (!row) return null;
  // Shown on the certificate, its page and the public verify page: no format or control characters.
  return { name: displayName(`${row.first} ${row.last}`).replace(/\s+/g, ' ').trim(), email: row.email, locale: row.locale ?? null };
}

/**
 * Issues the person's certificate of a course, or returns the one they already hold: idempotent and
 * safe under concurrency (the unique (contact, course) index decides; the insert does nothing on a
 * conflict and the existing row is read back). Refused, with nothing stored, unless the person
 * completed the course (see {@link hasCompletedCourse}). A new certificate gets a random verification
 * code and keeps the holder's name as it is now.
 */
export async function issueCertificate(db: Db, contactId: number, courseId: number, now: number): Promise<IssueOutcome> {
  if (!isRowId(courseId)) return { ok: false, reason: 'unknown-course', changed: [] };
  if (!isRowId(contactId)) return { ok: false, reason: 'unknown-person', changed: [] };
  const existing = await findCertificate(db, contactId, courseId);
  if (existing) return { ok: true, certificate: existing, created: false, changed: [] };
  const [course] = await db.select({ isTest: courses.isTest }).from(courses).where(eq(courses.id, courseId));
  if (!course || course.isTest) return { ok: false, reason: 'unknown-course', changed: [] };
  const holder = await holderOf(db, contactId);
  if (holder === null) return { ok: false, reason: 'unknown-person', changed: [] };
  const holderName = holder.name;
  const { completed, changed } = await hasCompletedCourse(db, contactId, courseId, now);
  if (!completed) return { ok: false, reason: 'not-completed', changed };
  // A code already taken (80 random bits: practically never) makes the insert do nothing: try another.
  for (let attempt = 0; attempt < 5; attempt++) {
    const code = newVerificationCode(new Uint8Array(randomBytes(CODE_RANDOM_BYTES)));
    const [row] = await db.insert(certificates).values({ contactId, courseId, code, holderName, issuedAt: new Date(now) }).onConflictDoNothing().returning();
    if (row) return { ok: true, certificate: row, created: true, changed };
    const other = await findCertificate(db, contactId, courseId);
    if (other) return { ok: true, certificate: other, created: false, changed };
  }
  throw new Error('Could not store a certificate with a new verification code.');
}

/** A whole number a 32-bit id column can hold (anything else names no row and is not sent to the database). */
function isRowId(n: number): boolean {
  return Number.isSafeInteger(n) && n > 0 && n <= 2_147_483_647;
}

/** The person's certificate of a course, or `null`. */
export async function findCertificate(db: Db, contactId: number, courseId: number): Promise<Certificate | null> {
  if (!isRowId(contactId) || !isRowId(courseId)) return null;
  const [row] = await db.select().from(certificates).where(and(eq(certificates.contactId, contactId), eq(certificates.courseId, courseId)));
  return row ?? null;
}

/** The certificate a typed or scanned code names (any letter case; see `normalizeCode`), or `null` — malformed input included, without a query. */
export async function certificateByCode(db: Db, input: unknown): Promise<Certificate | null> {
  const code = normalizeCode(input);
  if (code === null) return null;
  const [row] = await db.select().from(certificates).where(eq(certificates.code, code));
  return row ?? null;
}

/** Revokes a certificate (kept, and its verification page says it was revoked); false when it was already revoked or does not exist. */
export async function revokeCertificate(db: Db, certificateId: number, now: number): Promise<boolean> {
  const rows = await db.update(certificates).set({ revokedAt: new Date(now) }).where(and(eq(certificates.id, certificateId), isNull(certificates.revokedAt))).returning({ id: certificates.id });
  return rows.length > 0;
}

/** How many certificates a course has issued (tests, reports). */
export async function certificateCount(db: Db, courseId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(certificates).where(eq(certificates.courseId, courseId));
  return row?.n ?? 0;
}

/**
 * The certificate's signed credential: the one kept with it, or, the first time (certificates the seed
 * wrote have none yet), the one `sign` makes, kept so every later download and check sees the same
 * bytes. When two requests sign at once, the first one stored wins and both return it. A credential
 * signed before the revocation lists existed (no status entry) is signed again, with its entry, the
 * next time it is served, and replaces the old one.
 */
export async function certificateCredential(db: Db, certificate: Certificate, sign: () => Promise<string>): Promise<string> {
  const old = certificate.credential;
  if (old && carriesStatus(old)) return old;
  const jwt = await sign();
  const [stored] = await db
    .update(certificates)
    .set({ credential: jwt })
    .where(and(eq(certificates.id, certificate.id), old ? eq(certificates.credential, old) : isNull(certificates.credential)))
    .returning({ credential: certificates.credential });
  if (stored?.credential) return stored.credential;
  const [row] = await db.select({ credential: certificates.credential }).from(certificates).where(eq(certificates.id, certificate.id));
  return row?.credential ?? jwt;
}
