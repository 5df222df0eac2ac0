/**
 * Certificate rules that need no I/O: the facts a certificate states, its human-friendly verification
 * code, LinkedIn's "add to profile" link, the Open Badges 3.0 credential that describes it, and the
 * Spanish and English wording of the printed certificate. Safe for the browser; the PDF, the QR code
 * images and the signatures live in the `*.server.ts` files beside it.
 */
import type { Locale } from '~/i18n/locales';
import { format } from '~/i18n/format';
import { localePath, paths } from '~/lib/paths';
import type { BitstringStatusListEntry } from './status-list';

/* ───────────── facts ───────────── */

/** What a certificate states: the printed PDF, the verification page and the credential are all made from these. */
export interface CertificateFacts {
  /** The verification code (see {@link newVerificationCode}). */
  code: string;
  /** The learner's name as printed. */
  holderName: string;
  courseName: string;
  /** The course's length in hours (may be fractional). */
  courseHours: number;
  /** When the certificate was issued, in milliseconds since the epoch. */
  issuedAt: number;
  /** The language the certificate is printed in. */
  locale: Locale;
  /** The absolute URL of the public verification page. */
  verifyUrl: string;
  /** Who awards the certificate (the academy's name). */
  issuerName: string;
}

/* ───────────── verification codes ───────────── */

/** Douglas Crockford's base32 alphabet: digits and upper-case letters without I, L, O and U. */
export const CROCKFORD_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** The fixed start of every verification code. */
export const CODE_PREFIX = 'ACAD';

/** Random characters in a code (5 bits each: 80 bits in all). */
export const CODE_DATA_CHARS = 16;

/** Random bytes {@link newVerificationCode} needs (80 bits). */
export const CODE_RANDOM_BYTES = (CODE_DATA_CHARS * 5) / 8;

/** The canonical form: the prefix and four groups of four Crockford characters, dash-separated. */
const CODE_PATTERN = /^ACAD(?:-[0-9ABCDEFGHJKMNPQRSTVWXYZ]{4}){4}$/;

/** Longest string {@link normalizeCode} looks at; anything longer is refused without further work. */
const MAX_CODE_INPUT = 64;

/**
 * A new verification code such as `ACAD-7K2Q-9XRM-4TPH-B3WD`: the prefix and 16 Crockford base32
 * characters (80 bits) made from the first 10 of `randomBytes`. The caller supplies the randomness
 * (`crypto.getRandomValues(new Uint8Array(10))`) so the rule stays pure and testable.
 * Throws a `RangeError` when fewer than 10 bytes are given.
 */
export function newVerificationCode(randomBytes: Uint8Array): string {
  if (randomBytes.length < CODE_RANDOM_BYTES) throw new RangeError(`A verification code needs at least ${CODE_RANDOM_BYTES} random bytes.`);
  let bits = 0n;
  for (let i = 0; i < CODE_RANDOM_BYTES; i++) bits = (bits << 8n) | BigInt(randomBytes[i]!);
  let data = '';
  for (let i = CODE_DATA_CHARS - 1; i >= 0; i--) data += CROCKFORD_ALPHABET[Number((bits >> BigInt(i * 5)) & 31n)];
  return [CODE_PREFIX, ...data.match(/.{4}/g)!].join('-');
}

/**
 * The canonical form of a typed or pasted verification code, or `null` when it is not one. Surrounding
 * spaces are ignored, letters may be in any case, and the characters Crockford's base32 reads as digits
 * are accepted in the random part (O as 0, I and L as 1); the dashes are required. Non-strings, anything
 * but printable ASCII (NUL and other control characters included) and anything longer than a code are refused.
 */
export function normalizeCode(input: unknown): string | null {
  if (typeof input !== 'string' || input.length > MAX_CODE_INPUT || !/^[\x20-\x7e]*$/.test(input)) return null;
  const upper = input.trim().toUpperCase();
  if (!upper.startsWith(`${CODE_PREFIX}-`)) return null;
  const code = CODE_PREFIX + upper.slice(CODE_PREFIX.length).replace(/O/g, '0').replace(/[IL]/g, '1');
  return CODE_PATTERN.test(code) ? code : null;
}

/** True when `input` is a verification code (in any letter case; see {@link normalizeCode}). */
export function isVerificationCode(input: unknown): input is string {
  return normalizeCode(input) !== null;
}

/* ───────────── LinkedIn ───────────── */

/** What LinkedIn's "add licence or certification" form is pre-filled with. */
export interface LinkedInCertification {
  /** The certification's name (the course). */
  name: string;
  /** Who issued it (the academy). */
  organizationName: string;
  /** When it was issued, in milliseconds since the epoch (LinkedIn keeps the UTC year and month). */
  issuedAt: number;
  /** The public verification page. */
  certUrl: string;
  /** The credential id LinkedIn shows (the verification code). */
  certId: string;
}

/**
 * LinkedIn's "add to profile" link that opens the certification form pre-filled
 * (`https://www.linkedin.com/profile/add?startTask=CERTIFICATION_NAME&…`), every value percent-encoded;
 * the issue month is 1–12 in UTC.
 */
export function linkedInAddCertificationUrl(c: LinkedInCertification): string {
  const issued = new Date(c.issuedAt);
  const params: [string, string][] = [
    ['startTask', 'CERTIFICATION_NAME'],
    ['name', c.name],
    ['organizationName', c.organizationName],
    ['issueYear', String(issued.getUTCFullYear())],
    ['issueMonth', String(issued.getUTCMonth() + 1)],
    ['certUrl', c.certUrl],
    ['certId', c.certId],
  ];
  return `https://www.linkedin.com/profile/add?${params.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&')}`;
}

/* ───────────── Open Badges 3.0 ───────────── */

/** The W3C Verifiable Credentials 2.0 context. */
export const VC_CONTEXT_V2 = 'https://www.w3.org/ns/credentials/v2';
/** The Open Badges 3.0 context. */
export const OB3_CONTEXT = 'https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json';

/** The issuing organisation (an Open Badges `Profile`). */
export interface BadgeProfile {
  id: string;
  type: ['Profile'];
  name: string;
  url: string;
}

/** How the learner is named in the credential (Open Badges `IdentityObject`, in plain text). */
export interface BadgeIdentity {
  type: 'IdentityObject';
  identityType: 'name';
  hashed: false;
  identityHash: string;
}

/** The course as an Open Badges `Achievement`. */
export interface BadgeAchievement {
  id: string;
  type: ['Achievement'];
  name: string;
  description: string;
  criteria: { narrative: string };
  /** The language of the achievement's texts (the course length is stated in the criteria narrative). */
  inLanguage: string;
}

/** The learner and what they achieved (Open Badges `AchievementSubject`). */
export interface BadgeSubject {
  type: ['AchievementSubject'];
  name?: string;
  /** Open Badges requires an `id` or an `identifier`; learners have no public id, so their name is the identifier. */
  identifier: BadgeIdentity[];
  achievement: BadgeAchievement;
}

/** An Open Badges 3.0 `OpenBadgeCredential` (W3C Verifiable Credential 2.0), before it is signed. */
export interface OpenBadgeCredential {
  '@context': [typeof VC_CONTEXT_V2, typeof OB3_CONTEXT];
  id: string;
  type: ['VerifiableCredential', 'OpenBadgeCredential'];
  issuer: BadgeProfile;
  /** ISO 8601 date-time of issue (UTC). */
  validFrom: string;
  /** The credential's name (Open Badges requires one). */
  name: string;
  credentialSubject: BadgeSubject;
  /** Where its revocation is published (a W3C Bitstring Status List entry); credentials signed before lists existed have none until served again. */
  credentialStatus?: BitstringStatusListEntry;
}

/** The identifiers and wording a credential needs beyond the certificate's facts. */
export interface CredentialOptions {
  /** The issuer's id (a URL such as the site's origin). */
  issuerId: string;
  /** The issuer's home page. */
  issuerUrl: string;
  /** The achievement's id (a URL naming the course, the same for everyone who completes it). */
  achievementId: string;
  /** This credential's id (a URL or `urn:uuid:`, typically the verification page). */
  credentialId: string;
  /** What the achievement is (the course summary). */
  description: string;
}

/**
 * The Open Badges 3.0 credential for a certificate: the issuer as a `Profile`, the issue instant as
 * `validFrom`, and the learner (named, as they have no public id) with the course as an `Achievement`
 * whose criteria narrative says what was required, in the certificate's language.
 */
export function openBadgeCredential(facts: CertificateFacts, options: CredentialOptions): OpenBadgeCredential {
  const t = certificateTexts(facts.locale);
  return {
    '@context': [VC_CONTEXT_V2, OB3_CONTEXT],
    id: options.credentialId,
    type: ['VerifiableCredential', 'OpenBadgeCredential'],
    issuer: { id: options.issuerId, type: ['Profile'], name: facts.issuerName, url: options.issuerUrl },
    validFrom: new Date(facts.issuedAt).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    name: `${t.title}: ${facts.courseName}`,
    credentialSubject: {
      type: ['AchievementSubject'],
      name: facts.holderName,
      identifier: [{ type: 'IdentityObject', identityType: 'name', hashed: false, identityHash: facts.holderName }],
      achievement: {
        id: options.achievementId,
        type: ['Achievement'],
        name: facts.courseName,
        description: options.description,
        criteria: { narrative: t.criteria(facts.courseHours) },
        inLanguage: facts.locale,
      },
    },
  };
}

/* ───────────── wording ───────────── */

/** The words of a printed certificate in one language. */
export interface CertificateTexts {
  /** "Certificado de finalización" / "Certificate of Completion". */
  title: string;
  /** "otorgado a" / "awarded to". */
  awardedTo: string;
  /** "por completar el curso" / "for completing the course". */
  forCompleting: string;
  /** The course length: "12 horas", "1 hora" / "12 hours", "1 hour" (fractions in the locale's notation). */
  hours: (n: number) => string;
  /** A date as in "5 de marzo de 2025" / "March 5, 2025" (UTC). */
  date: (ms: number) => string;
  /** "Código de verificación" / "Verification code". */
  verificationCode: string;
  /** "Verifica este certificado en" / "Verify this certificate at". */
  verifyAt: string;
  /** Text alternative of the QR code image. */
  qrAlt: string;
  /** What earning the certificate required (the credential's criteria). */
  criteria: (hours: number) => string;
}

/** The Spanish or English wording of the certificate. */
export function certificateTexts(locale: Locale): CertificateTexts {
  const numbers = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 });
  const dates = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' });
  const date = (ms: number) => dates.format(new Date(ms));
  if (locale === 'en') {
    const hours = (n: number) => `${numbers.format(n)} ${n === 1 ? 'hour' : 'hours'}`;
    return {
      title: 'Certificate of Completion',
      awardedTo: 'awarded to',
      forCompleting: 'for completing the course',
      hours,
      date,
      verificationCode: 'Verification code',
      verifyAt: 'Verify this certificate at',
      qrAlt: 'QR code with the verification link',
      criteria: (n) => `Complete every lesson of the course (${hours(n)}) and pass its final exam.`,
    };
  }
  const hours = (n: number) => `${numbers.format(n)} ${n === 1 ? 'hora' : 'horas'}`;
  return {
    title: 'Certificado de finalización',
    awardedTo: 'otorgado a',
    forCompleting: 'por completar el curso',
    hours,
    date,
    verificationCode: 'Código de verificación',
    verifyAt: 'Verifica este certificado en',
    qrAlt: 'Código QR con el enlace de verificación',
    criteria: (n) => `Completar todas las lecciones del curso (${hours(n)}) y aprobar su examen final.`,
  };
}

/* ───────────── the academy's certificates ───────────── */

/**
 * A course's length in hours as a certificate states it: the total of its videos to the tenth of an
 * hour, and never less than a tenth (a course of a few minutes still shows a length).
 */
export function courseHours(durationSeconds: number): number {
  if (!Number.isFinite(durationSeconds) || durationSeconds <= 0) return 0.1;
  return Math.max(0.1, Math.round(durationSeconds / 360) / 10);
}

/** What the verification page says of a code. */
export type VerificationStatus = 'valid' | 'revoked' | 'unknown';

/** The status of a stored certificate (`null`: no certificate has the code). */
export function verificationStatus(certificate: { revokedAt: Date | null } | null): VerificationStatus {
  if (!certificate) return 'unknown';
  return certificate.revokedAt ? 'revoked' : 'valid';
}

/** A stored certificate, as far as its printed and signed forms need it. */
export interface IssuedCertificate {
  courseId: number;
  code: string;
  holderName: string;
  issuedAt: Date;
}

/** A course, as far as a certificate needs it. */
export interface CertifiedCourse {
  nameEs: string;
  nameEn: string;
  descriptionEs: string;
  descriptionEn: string;
  durationSeconds: number;
}

/** The absolute URLs a certificate points to, on the site's public origin; the pages in `locale`. */
export function certificateUrls(origin: string, courseId: number, code: string, locale: Locale = 'es') {
  const at = (path: string) => new URL(path, origin).href;
  return {
    verify: at(localePath(locale, paths.verify(code))),
    certificate: at(localePath(locale, paths.courseCertificate(courseId))),
    issuer: at(paths.issuerProfile),
    home: at(paths.home),
    achievement: at(paths.course(courseId)),
  };
}

/** The facts of a stored certificate in one language (the verification link in that language too). */
export function certificateFacts(certificate: IssuedCertificate, course: CertifiedCourse, locale: Locale, origin: string, issuerName: string): CertificateFacts {
  return {
    code: certificate.code,
    holderName: certificate.holderName,
    courseName: locale === 'en' ? course.nameEn : course.nameEs,
    courseHours: courseHours(course.durationSeconds),
    issuedAt: certificate.issuedAt.getTime(),
    locale,
    verifyUrl: certificateUrls(origin, certificate.courseId, certificate.code, locale).verify,
    issuerName,
  };
}

/** The identifiers of a certificate's credential: the issuer profile, the course, and the verification page as its id. */
export function credentialOptions(certificate: IssuedCertificate, course: CertifiedCourse, locale: Locale, origin: string): CredentialOptions {
  const urls = certificateUrls(origin, certificate.courseId, certificate.code);
  const description = (locale === 'en' ? course.descriptionEn : course.descriptionEs).trim() || (locale === 'en' ? course.nameEn : course.nameEs);
  return { issuerId: urls.issuer, issuerUrl: urls.home, achievementId: urls.achievement, credentialId: urls.verify, description };
}

/**
 * True when a verified credential states this very certificate: its id is the code's verification
 * page (on any origin the site had), it names the holder, and it was valid from the issue instant.
 */
export function credentialDescribes(credential: OpenBadgeCredential, certificate: IssuedCertificate): boolean {
  if (typeof credential.id !== 'string' || !URL.canParse(credential.id)) return false;
  const path = new URL(credential.id).pathname;
  return (
    (path === paths.verify(certificate.code) || path === localePath('en', paths.verify(certificate.code))) &&
    credential.credentialSubject?.name === certificate.holderName &&
    Math.floor(Date.parse(credential.validFrom) / 1000) === Math.floor(certificate.issuedAt.getTime() / 1000)
  );
}

/** The academy as an Open Badges 3.0 issuer `Profile`, published at its own id. */
export function issuerProfile(origin: string, name: string, email: string): BadgeProfile & { '@context': [typeof VC_CONTEXT_V2, typeof OB3_CONTEXT]; email: string } {
  const urls = certificateUrls(origin, 0, '');
  return { '@context': [VC_CONTEXT_V2, OB3_CONTEXT], id: urls.issuer, type: ['Profile'], name, url: urls.home, email };
}

/** The words of the e-mail sent when a certificate is issued (from the message catalogue). */
export interface CertificateMailTexts {
  subject: string;
  greeting: string;
  intro: string;
  verify: string;
}

/** The e-mail that tells a learner their certificate was issued: the certificate's page and its public verification link. */
export function certificateMail(
  to: { name: string; email: string },
  c: { courseName: string; code: string; certificateUrl: string; verifyUrl: string },
  t: CertificateMailTexts,
): { to: string; subject: string; text: string } {
  const oneLine = (s: string) => s.replace(/[\r\n]+/g, ' ');
  const text = [format(t.greeting, { name: to.name }), '', format(t.intro, { course: c.courseName }), '', c.certificateUrl, '', format(t.verify, { code: c.code }), '', c.verifyUrl, ''].join('\n');
  return { to: to.email, subject: oneLine(format(t.subject, { course: c.courseName })), text };
}
