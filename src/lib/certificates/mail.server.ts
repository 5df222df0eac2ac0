/**
 * Issuing a certificate on the learner's request: issued once, its signed credential kept, and the
 * learner e-mailed the certificate's link and its verification link, in the language they chose in
 * their profile (else the one they asked in).
 */
import type { Db } from '../db/client';
import type { Locale } from '~/i18n/locales';
import type { SendMail } from '../mail/mail';
import { mailLocale } from '../identity/account';
import { certificateMail, certificateUrls, type CertificateMailTexts, type CertifiedCourse } from './certificates';
import { certificateCredential, holderOf, issueCertificate, type IssueOutcome } from './certificates.server';
import { signCertificate } from './credentials.server';
import type { SigningKey } from './signing.server';

/** What {@link issueAndNotify} needs besides the database: the key, the mail, and the words and URLs of one language. */
export interface IssueContext {
  db: Db;
  signingKey: SigningKey;
  /** Sends the e-mail (the runtime's mailer). */
  send: SendMail;
  /** The site's public origin, for the absolute links. */
  origin: string;
  /** The language the learner asked in: the credential's, and the e-mail's unless they chose one. */
  locale: Locale;
  course: CertifiedCourse;
  issuerName: string;
  /** The e-mail's words in a language. */
  mailTexts: (locale: Locale) => CertificateMailTexts;
  /** Told when the e-mail could not be sent (the certificate stays issued). */
  onMailError?: (err: unknown) => void;
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
  const locale = mailLocale(holder.locale, ctx.locale);
  const urls = certificateUrls(ctx.origin, courseId, outcome.certificate.code, locale);
  const mail = certificateMail(
    { name: outcome.certificate.holderName, email: holder.email },
    { courseName: locale === 'en' ? ctx.course.nameEn : ctx.course.nameEs, code: outcome.certificate.code, certificateUrl: urls.certificate, verifyUrl: urls.verify },
    ctx.mailTexts(locale),
  );
  try {
    await ctx.send(mail);
    return { ...outcome, mailed: true };
  } catch (err) {
    ctx.onMailError?.(err);
    return { ...outcome, mailed: false };
  }
}
