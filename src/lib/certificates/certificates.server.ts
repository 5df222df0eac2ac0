/**
 * Certificate I/O: the printable PDF (A4 landscape, an embedded font that covers Spanish, a QR code of
 * the verification link), the QR code as PNG or SVG for the verification page, and the Ed25519 key
 * that signs certificates as Open Badges 3.0 VC-JWTs, with the public JWKS that lets anyone check them;
 * and the stored certificates: issuing one (once per person and course), finding a person's or a
 * code's, and keeping its signed credential.
 */
import { randomBytes } from 'node:crypto';
import { createLocalJWKSet, jwtVerify, SignJWT, type JSONWebKeySet, type JWTPayload } from 'jose';
import QRCode from 'qrcode';
import { and, count, eq, isNull, sql } from 'drizzle-orm';
import { DOCUMENT_COLORS, DOCUMENT_FONT, drawCentred, drawQr, fittingSize, newDocument, PAGE_SIZES, printable, wrapText } from '../documents';
import type { Db } from '../db/client';
import { certificates, contacts, courses, subtopics, topics, users, type Certificate } from '../db/schema';
import { displayName } from '../forms/characters';
import { examStanding, loadExam } from '../exams/exams.server';
import { courseCompleted } from '../exams/exams';
import { completedLessons } from '../learning/progress.server';
import type { Locale } from '~/i18n/locales';
import type { SendMail } from '../mail/mail';
import { isListed, type Viewer } from '../access/access';
import { parseCourseId, type CatalogCourse, type CatalogSnapshot } from '../catalog/catalog';
import {
  certificateFacts,
  certificateMail,
  certificateTexts,
  certificateUrls,
  CODE_RANDOM_BYTES,
  credentialDescribes,
  credentialOptions,
  openBadgeCredential,
  verificationStatus,
  type CertificateMailTexts,
  type CertifiedCourse,
  newVerificationCode,
  normalizeCode,
  OB3_CONTEXT,
  VC_CONTEXT_V2,
  type CertificateFacts,
  type OpenBadgeCredential,
} from './certificates';

/* ───────────── font ───────────── */

/** The embedded font (see `documents/font.server`). */
export const CERTIFICATE_FONT = DOCUMENT_FONT;

/* ───────────── PDF ───────────── */

/** A4 landscape, in points. */
const { width: PAGE_WIDTH, height: PAGE_HEIGHT } = PAGE_SIZES.a4Landscape;
const { ink: INK, muted: MUTED, accent: ACCENT } = DOCUMENT_COLORS;
/** Width the centred lines may use. */
const TEXT_WIDTH = 680;

/**
 * The printable certificate: one A4 landscape page with the issuer, title, holder, course, length,
 * date, verification code and URL, and a QR code of the URL; the font is embedded (subset) so every
 * Spanish character prints, and the document's title, author, subject, language and dates are set.
 */
export async function certificatePdf(facts: CertificateFacts): Promise<Uint8Array> {
  const t = certificateTexts(facts.locale);
  const holder = printable(facts.holderName);
  const course = printable(facts.courseName);
  const issuer = printable(facts.issuerName);
  const issued = new Date(facts.issuedAt);

  const { doc, font } = await newDocument({
    title: `${t.title}: ${course} – ${holder}`,
    author: issuer,
    subject: `${t.title} – ${t.verificationCode}: ${facts.code}`,
    keywords: [facts.code, course],
    language: facts.locale,
    creator: issuer,
    date: issued,
  });

  const page = doc.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
  page.drawRectangle({ x: 22, y: 22, width: PAGE_WIDTH - 44, height: PAGE_HEIGHT - 44, borderColor: ACCENT, borderWidth: 3 });
  page.drawRectangle({ x: 30, y: 30, width: PAGE_WIDTH - 60, height: PAGE_HEIGHT - 60, borderColor: ACCENT, borderWidth: 0.75 });

  drawCentred(page, font, issuer, PAGE_HEIGHT - 92, fittingSize(font, issuer, 16, TEXT_WIDTH, 9), ACCENT);
  drawCentred(page, font, t.title, PAGE_HEIGHT - 150, 36, INK);
  drawCentred(page, font, t.awardedTo, PAGE_HEIGHT - 192, 14, MUTED);
  drawCentred(page, font, holder, PAGE_HEIGHT - 236, fittingSize(font, holder, 32, TEXT_WIDTH, 14), INK);
  drawCentred(page, font, t.forCompleting, PAGE_HEIGHT - 274, 14, MUTED);
  const courseSize = wrapText(font, course, 22, TEXT_WIDTH, 9).length <= 2 ? 22 : 16;
  const courseLines = wrapText(font, course, courseSize, TEXT_WIDTH, courseSize === 22 ? 2 : 3);
  courseLines.forEach((line, i) => drawCentred(page, font, line, PAGE_HEIGHT - 308 - i * courseSize * 1.2, courseSize, INK));
  drawCentred(page, font, `${t.hours(facts.courseHours)} · ${t.date(facts.issuedAt)}`, 178, 14, INK);

  const qrSide = 104;
  const qrX = PAGE_WIDTH - 64 - qrSide;
  drawQr(page, facts.verifyUrl, qrX, 52, qrSide);
  const left = 64;
  const blockWidth = qrX - left - 24;
  page.drawText(`${t.verificationCode}: ${facts.code}`, { x: left, y: 96, size: 12, font, color: INK });
  page.drawText(`${t.verifyAt}:`, { x: left, y: 78, size: 10, font, color: MUTED });
  page.drawText(facts.verifyUrl, { x: left, y: 63, size: fittingSize(font, facts.verifyUrl, 10, blockWidth, 5), font, color: ACCENT });

  return doc.save();
}

/* ───────────── QR images ───────────── */

/** A PNG of the QR code of `text` (error correction M, 4-module quiet zone, 8 pixels a module). */
export async function qrPng(text: string): Promise<Uint8Array> {
  const png = await QRCode.toBuffer(text, { type: 'png', errorCorrectionLevel: 'M', margin: 4, scale: 8 });
  return new Uint8Array(png.buffer, png.byteOffset, png.byteLength);
}

/**
 * An SVG of the QR code of `text` (error correction M, 4-module quiet zone) that scales to its box.
 * With `label` (e.g. `certificateTexts(locale).qrAlt`) it is `role="img"` with that accessible name,
 * for use inline; as an `<img>` source the `alt` attribute names it instead.
 */
export async function qrSvg(text: string, label?: string): Promise<string> {
  const svg = await QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 4 });
  if (label === undefined) return svg;
  const escaped = label.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  return svg.replace(/<svg\b/, `<svg role="img" aria-label="${escaped}"`).replace(/(<svg\b[^>]*>)/, `$1<title>${escaped}</title>`);
}

export { jwks, loadOrCreateSigningKey, type PublicJwk, type SigningKey } from './signing.server';
import type { SigningKey } from './signing.server';

/* ───────────── signing and verifying ───────────── */

/** The JOSE header `typ` of a signed credential. */
export const VC_JWT_TYPE = 'vc+jwt';

/**
 * The credential signed as a compact VC-JWT: header `alg: 'EdDSA'`, `typ: 'vc+jwt'` and the key's `kid`;
 * payload the credential itself plus `iss` (issuer id), `jti` (credential id), and `nbf` and `iat`
 * (from `validFrom`, and `exp` from `validUntil` when present).
 */
export async function signCredential(credential: OpenBadgeCredential, key: SigningKey): Promise<string> {
  const validFrom = Date.parse(credential.validFrom);
  if (!Number.isFinite(validFrom)) throw new TypeError('The credential has no valid validFrom date.');
  const seconds = Math.floor(validFrom / 1000);
  const jwt = new SignJWT(structuredClone(credential) as unknown as JWTPayload)
    .setProtectedHeader({ alg: 'EdDSA', typ: VC_JWT_TYPE, kid: key.kid })
    .setIssuer(credential.issuer.id)
    .setJti(credential.id)
    .setNotBefore(seconds)
    .setIssuedAt(seconds);
  const validUntil = (credential as { validUntil?: unknown }).validUntil;
  if (typeof validUntil === 'string' && Number.isFinite(Date.parse(validUntil))) jwt.setExpirationTime(Math.floor(Date.parse(validUntil) / 1000));
  return jwt.sign(key.privateKey);
}

/** Why a signed credential was not accepted. */
export type CredentialRejection =
  /** Not a compact JWS, or its parts do not decode. */
  | 'malformed'
  /** Signed with something other than EdDSA (including `alg: none`). */
  | 'unsupported-algorithm'
  /** No published key matches its `kid` and algorithm. */
  | 'unknown-key'
  /** The signature does not match the content. */
  | 'bad-signature'
  /** Its `nbf`/`iat` lies in the future. */
  | 'not-yet-valid'
  | 'expired'
  /** Validly signed, but not an Open Badges credential consistent with its claims (or the wrong `typ`). */
  | 'not-a-credential';

/** The outcome of {@link verifyCredential}. */
export type CredentialCheck = { ok: true; credential: OpenBadgeCredential; kid: string } | { ok: false; reason: CredentialRejection };

/** Longest token {@link verifyCredential} looks at. */
const MAX_JWT_LENGTH = 100_000;

function rejection(err: unknown): CredentialRejection {
  const code = (err as { code?: unknown })?.code;
  switch (code) {
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
    case 'ERR_JOSE_NOT_SUPPORTED':
      return 'unsupported-algorithm';
    case 'ERR_JWKS_NO_MATCHING_KEY':
    case 'ERR_JWKS_MULTIPLE_MATCHING_KEYS':
      return 'unknown-key';
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
      return 'bad-signature';
    case 'ERR_JWT_EXPIRED':
      return 'expired';
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED': {
      const claim = (err as { claim?: unknown }).claim;
      return claim === 'nbf' || claim === 'iat' ? 'not-yet-valid' : 'not-a-credential';
    }
    default:
      return 'malformed';
  }
}

/** True when the verified payload is an Open Badges credential whose JWT claims agree with it. */
function isConsistentCredential(p: JWTPayload): boolean {
  const r = p as Record<string, unknown>;
  const context = r['@context'];
  const type = r['type'];
  const issuer = r['issuer'] as { id?: unknown } | null | undefined;
  const subject = r['credentialSubject'] as { achievement?: unknown } | null | undefined;
  return (
    Array.isArray(context) &&
    context[0] === VC_CONTEXT_V2 &&
    context.includes(OB3_CONTEXT) &&
    Array.isArray(type) &&
    type.includes('VerifiableCredential') &&
    type.includes('OpenBadgeCredential') &&
    typeof issuer === 'object' &&
    issuer !== null &&
    issuer.id === p.iss &&
    typeof r['id'] === 'string' &&
    r['id'] === p.jti &&
    typeof r['validFrom'] === 'string' &&
    Math.floor(Date.parse(r['validFrom']) / 1000) === p.nbf &&
    typeof subject === 'object' &&
    subject !== null &&
    typeof subject.achievement === 'object' &&
    subject.achievement !== null
  );
}

/**
 * Checks a VC-JWT against the published key set only (never a key embedded in the token): EdDSA,
 * `typ: 'vc+jwt'`, a `kid` of the set, a valid signature, `nbf` not in the future (a minute of clock
 * skew allowed), and a payload that is an Open Badges credential agreeing with `iss`, `jti` and `nbf`.
 * Returns the credential (without the JWT claims) or why it was refused. A malformed key set throws.
 */
export async function verifyCredential(jwt: string, keySet: JSONWebKeySet): Promise<CredentialCheck> {
  const keys = createLocalJWKSet(keySet);
  if (typeof jwt !== 'string' || jwt.length > MAX_JWT_LENGTH) return { ok: false, reason: 'malformed' };
  try {
    const { payload, protectedHeader } = await jwtVerify(jwt.trim(), keys, { algorithms: ['EdDSA'], typ: VC_JWT_TYPE, clockTolerance: 60 });
    if (!isConsistentCredential(payload)) return { ok: false, reason: 'not-a-credential' };
    const { iss: _iss, jti: _jti, nbf: _nbf, iat: _iat, exp: _exp, ...credential } = payload;
    return { ok: true, credential: credential as unknown as OpenBadgeCredential, kid: protectedHeader.kid ?? '' };
  } catch (err) {
    return { ok: false, reason: rejection(err) };
  }
}

/* ───────────── stored certificates ───────────── */

/** Why a certificate was not issued. */
export type IssueRefusal =
  /** No such course, or an internal test course. */
  | 'unknown-course'
  /** No such person. */
  | 'unknown-person'
  /** Lessons left to complete, or the course's exam not passed. */
  | 'not-completed';

/** The outcome of {@link issueCertificate}: the certificate (`created`: issued by this call), or why not. */
export type IssueOutcome = { ok: true; certificate: Certificate; created: boolean } | { ok: false; reason: IssueRefusal };

/**
 * True when the person completed the course: every lesson of it completed and, when it has an exam,
 * the exam passed (`courseCompleted`, with the exams' own standing: an overdue attempt is graded first).
 */
export async function hasCompletedCourse(db: Db, contactId: number, courseId: number, now: number): Promise<boolean> {
  const lessonRows = await db.select({ id: subtopics.id }).from(subtopics).innerJoin(topics, eq(topics.id, subtopics.topicId)).where(eq(topics.courseId, courseId));
  const lessonIds = new Set(lessonRows.map((r) => r.id));
  const [done, exam] = await Promise.all([completedLessons(db, contactId, courseId), loadExam(db, courseId)]);
  const passed = exam ? (await examStanding(db, exam, contactId, now)).passed : false;
  return courseCompleted({ lessonsTotal: lessonIds.size, lessonsCompleted: done.filter((id) => lessonIds.has(id)).length, hasExam: exam !== null, examPassed: passed });
}

/** The person a certificate names: their account's name and e-mail when they have one, else the contact's. */
export async function holderOf(db: Db, contactId: number): Promise<{ name: string; email: string } | null> {
  if (!isRowId(contactId)) return null;
  const [row] = await db
    .select({
      first: sql<string>`coalesce(${users.firstName}, ${contacts.firstName})`,
      last: sql<string>`coalesce(${users.lastName}, ${contacts.lastName})`,
      email: sql<string>`coalesce(${users.email}, ${contacts.email})`,
    })
    .from(contacts)
    .leftJoin(users, eq(users.id, contacts.userId))
    .where(eq(contacts.id, contactId));
  if (!row) return null;
  // Shown on the certificate, its page and the public verify page: no format or control characters.
  return { name: displayName(`${row.first} ${row.last}`).replace(/\s+/g, ' ').trim(), email: row.email };
}

/**
 * Issues the person's certificate of a course, or returns the one they already hold: idempotent and
 * safe under concurrency (the unique (contact, course) index decides; the insert does nothing on a
 * conflict and the existing row is read back). Refused, with nothing stored, unless the person
 * completed the course (see {@link hasCompletedCourse}). A new certificate gets a random verification
 * code and keeps the holder's name as it is now.
 */
export async function issueCertificate(db: Db, contactId: number, courseId: number, now: number): Promise<IssueOutcome> {
  if (!isRowId(courseId)) return { ok: false, reason: 'unknown-course' };
  if (!isRowId(contactId)) return { ok: false, reason: 'unknown-person' };
  const existing = await findCertificate(db, contactId, courseId);
  if (existing) return { ok: true, certificate: existing, created: false };
  const [course] = await db.select({ isTest: courses.isTest }).from(courses).where(eq(courses.id, courseId));
  if (!course || course.isTest) return { ok: false, reason: 'unknown-course' };
  const holder = await holderOf(db, contactId);
  if (holder === null) return { ok: false, reason: 'unknown-person' };
  const holderName = holder.name;
  if (!(await hasCompletedCourse(db, contactId, courseId, now))) return { ok: false, reason: 'not-completed' };
  // A code already taken (80 random bits: practically never) makes the insert do nothing: try another.
  for (let attempt = 0; attempt < 5; attempt++) {
    const code = newVerificationCode(new Uint8Array(randomBytes(CODE_RANDOM_BYTES)));
    const [row] = await db.insert(certificates).values({ contactId, courseId, code, holderName, issuedAt: new Date(now) }).onConflictDoNothing().returning();
    if (row) return { ok: true, certificate: row, created: true };
    const other = await findCertificate(db, contactId, courseId);
    if (other) return { ok: true, certificate: other, created: false };
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
 * bytes. When two requests sign at once, the first one stored wins and both return it.
 */
export async function certificateCredential(db: Db, certificate: Certificate, sign: () => Promise<string>): Promise<string> {
  if (certificate.credential) return certificate.credential;
  const jwt = await sign();
  const [stored] = await db.update(certificates).set({ credential: jwt }).where(and(eq(certificates.id, certificate.id), isNull(certificates.credential))).returning({ credential: certificates.credential });
  if (stored?.credential) return stored.credential;
  const [row] = await db.select({ credential: certificates.credential }).from(certificates).where(eq(certificates.id, certificate.id));
  return row?.credential ?? jwt;
}

/**
 * Whether a certificate's kept credential is genuine: its signature verifies with the published key
 * set alone, and what it states is this certificate (code, holder, issue instant).
 */
export async function checkCertificateCredential(jwt: string, certificate: Certificate, keySet: JSONWebKeySet): Promise<boolean> {
  const check = await verifyCredential(jwt, keySet);
  return check.ok && credentialDescribes(check.credential, certificate);
}

/** What {@link issueAndNotify} needs besides the database: the key, the mail, and the words and URLs of one language. */
export interface IssueContext {
  db: Db;
  signingKey: SigningKey;
  /** Sends the e-mail (the runtime's mailer). */
  send: SendMail;
  /** The site's public origin, for the absolute links. */
  origin: string;
  locale: Locale;
  course: CertifiedCourse;
  issuerName: string;
  mailTexts: CertificateMailTexts;
  /** Told when the e-mail could not be sent (the certificate stays issued). */
  onMailError?: (err: unknown) => void;
}

/** The signed credential of a certificate in `locale` (Open Badges 3.0, VC-JWT). */
export function signCertificate(certificate: Certificate, ctx: Pick<IssueContext, 'signingKey' | 'origin' | 'locale' | 'course' | 'issuerName'>): Promise<string> {
  const facts = certificateFacts(certificate, ctx.course, ctx.locale, ctx.origin, ctx.issuerName);
  return signCredential(openBadgeCredential(facts, credentialOptions(certificate, ctx.course, ctx.locale, ctx.origin)), ctx.signingKey);
}

/**
 * Issues the certificate (see {@link issueCertificate}), keeps its signed credential, and, when this
 * call issued it, e-mails the learner the certificate's link and its verification link. A failed
 * e-mail is reported to `onMailError` and does not undo the certificate. `mailed` says whether it went.
 */
export async function issueAndNotify(ctx: IssueContext, contactId: number, courseId: number, now: number): Promise<IssueOutcome & { mailed?: boolean }> {
  const outcome = await issueCertificate(ctx.db, contactId, courseId, now);
  if (!outcome.ok) return outcome;
  await certificateCredential(ctx.db, outcome.certificate, () => signCertificate(outcome.certificate, ctx));
  if (!outcome.created) return outcome;
  const holder = await holderOf(ctx.db, contactId);
  if (!holder) return { ...outcome, mailed: false };
  const urls = certificateUrls(ctx.origin, courseId, outcome.certificate.code, ctx.locale);
  const mail = certificateMail(
    { name: outcome.certificate.holderName, email: holder.email },
    { courseName: ctx.locale === 'en' ? ctx.course.nameEn : ctx.course.nameEs, code: outcome.certificate.code, certificateUrl: urls.certificate, verifyUrl: urls.verify },
    ctx.mailTexts,
  );
  try {
    await ctx.send(mail);
    return { ...outcome, mailed: true };
  } catch (err) {
    ctx.onMailError?.(err);
    return { ...outcome, mailed: false };
  }
}

/* ───────────── what the pages show ───────────── */

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

/** Loads what the issue page shows for `rawCourse` (the `course` query parameter, unchecked). */
export async function loadGeneratePage(db: Db, catalog: Pick<CatalogSnapshot, 'byId'>, viewer: Viewer, rawCourse: string | null, now: number): Promise<GeneratePage> {
  const course = knownCourse(catalog, viewer, parseCourseId(rawCourse ?? undefined));
  if (!course) return { kind: 'not-found' };
  const contactId = learnerOf(viewer);
  if (contactId === null) return { kind: 'login' };
  if (await findCertificate(db, contactId, course.id)) return { kind: 'issued', courseId: course.id };
  if (!(await hasCompletedCourse(db, contactId, course.id, now))) return { kind: 'not-completed', course };
  const holder = await holderOf(db, contactId);
  return holder ? { kind: 'ready', course, holderName: holder.name } : { kind: 'login' };
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
