/**
 * The rules of revoking a certificate from the back office, pure: the form (the certificate's code and
 * a reason), what the search box finds by, and the e-mail that tells the holder.
 */
import { format } from '~/i18n/format';
import { DEFAULT_LOCALE, LOCALES } from '~/i18n/locales';
import { formText } from '../forms/forms';
import { z } from '../zod';
import { normalizeCode } from './certificates';

/** The longest reason staff may give. */
export const REASON_MAX = 500;
/** The longest search the back office's box reads (a code or an e-mail address). */
export const SEARCH_MAX = 254;
/** The job that e-mails the holder once a revocation is stored (`key`: one per certificate). */
export const REVOKED_MAIL_JOB = 'certificate-revoked-mail';
export const revokedMailKey = (certificateId: number) => `${REVOKED_MAIL_JOB}:${certificateId}`;
/** A certificate as an audit reference. */
export const certificateRef = (certificateId: number) => `certificate:${certificateId}`;

const lang = z.enum(LOCALES).catch(DEFAULT_LOCALE);

/**
 * The reason: line breaks typed in the box become spaces, then trimmed, 1 to 500 characters, and no
 * control character (NUL included) nor lone surrogate.
 */
export const revocationReason = z
  .string({ error: 'required' })
  .max(REASON_MAX * 4, 'tooLong')
  .transform((s) => s.replace(/\r\n?|\n/g, ' '))
  .pipe(formText({ error: 'required' }).trim().min(1, 'required').max(REASON_MAX, 'tooLong'));

/** The revocation form: the certificate's code (any letter case), the reason, the page's language. */
export const revokeFormSchema = z.object({
  code: z
    .string({ error: 'required' })
    .max(64, 'invalidOption')
    .transform((raw, ctx) => {
      const code = normalizeCode(raw);
      if (code === null) {
        ctx.addIssue({ code: 'custom', message: 'invalidOption' });
        return z.NEVER;
      }
      return code;
    }),
  reason: revocationReason,
  lang,
});
export type RevokeForm = z.output<typeof revokeFormSchema>;

/** What the back office's search box asks for: a code, an e-mail address, or nothing it can look up. */
export type CertificateSearch = { by: 'code'; code: string } | { by: 'email'; email: string } | { by: 'nothing' };

/** Reads the search box (`?q=`): a certificate code, else an e-mail address (lower case), else nothing. */
export function readCertificateSearch(raw: string | null | undefined): CertificateSearch {
  const q = (raw ?? '').trim();
  if (q === '' || q.length > SEARCH_MAX) return { by: 'nothing' };
  const code = normalizeCode(q);
  if (code !== null) return { by: 'code', code };
  const email = z.email().safeParse(q.toLowerCase());
  return email.success ? { by: 'email', email: email.data } : { by: 'nothing' };
}

/** The words of the e-mail that tells a holder their certificate was revoked (from the message catalogue). */
export interface RevokedMailTexts {
  subject: string;
  greeting: string;
  intro: string;
  reason: string;
  verify: string;
}

/** The e-mail telling the holder the certificate of `courseName` was revoked, when, and why. */
export function revokedMail(to: { name: string; email: string }, c: { courseName: string; code: string; date: string; reason: string; verifyUrl: string }, t: RevokedMailTexts): { to: string; subject: string; text: string } {
  const oneLine = (s: string) => s.replace(/[\r\n]+/g, ' ');
  const text = [format(t.greeting, { name: to.name }), '', format(t.intro, { course: c.courseName, code: c.code, date: c.date }), '', format(t.reason, { reason: oneLine(c.reason) }), '', t.verify, '', c.verifyUrl, ''].join('\n');
  return { to: to.email, subject: oneLine(format(t.subject, { course: c.courseName })), text };
}
