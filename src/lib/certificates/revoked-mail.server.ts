/**
 * The job a revocation leaves behind (written in the revocation's transaction, so it survives a crash
 * at any line): it tells every process again that kept pages are stale, then e-mails the holder in the
 * language they chose in their profile (else Spanish) that the certificate was revoked, since when and why.
 */
import { eq } from 'drizzle-orm';
import { messages } from '~/i18n';
import type { Db } from '../db/client';
import { certificates, courses } from '../db/schema';
import { mailLocale } from '../identity/account';
import type { Scheduler } from '../jobs/jobs.server';
import type { MailMessage, MailReceipt } from '../mail/mail';
import { certificateTexts, certificateUrls } from './certificates';
import { holderOf } from './certificates.server';
import { REVOKED_MAIL_JOB, revokedMail } from './revocation';

export interface RevokedMailDeps {
  db: Db;
  send: (message: MailMessage) => Promise<MailReceipt>;
  /** `runtime.catalogChanged`: told again here, in case the process that revoked died before telling. */
  catalogChanged(): Promise<void>;
}

/** Runs one job: a certificate gone (its holder's account deleted) or no longer revoked sends nothing. A failed send throws, and the job is retried. */
export async function runRevokedMail(deps: RevokedMailDeps, payload: unknown): Promise<'sent' | 'nothing'> {
  const { certificateId, origin } = (payload ?? {}) as { certificateId?: unknown; origin?: unknown };
  if (typeof certificateId !== 'number' || typeof origin !== 'string') return 'nothing';
  await deps.catalogChanged();
  const [row] = await deps.db
    .select({ certificate: certificates, nameEs: courses.nameEs, nameEn: courses.nameEn })
    .from(certificates)
    .innerJoin(courses, eq(courses.id, certificates.courseId))
    .where(eq(certificates.id, certificateId));
  if (!row?.certificate.revokedAt) return 'nothing';
  const holder = await holderOf(deps.db, row.certificate.contactId);
  if (!holder) return 'nothing';
  const locale = mailLocale(holder.locale, 'es');
  const { certificate } = row;
  const mail = revokedMail(
    { name: certificate.holderName || holder.name, email: holder.email },
    {
      courseName: locale === 'en' ? row.nameEn : row.nameEs,
      code: certificate.code,
      date: certificateTexts(locale).date(certificate.revokedAt!.getTime()),
      reason: certificate.revokedReason ?? '',
      verifyUrl: certificateUrls(origin, certificate.courseId, certificate.code, locale).verify,
    },
    messages(locale).certificates.revokedMail,
  );
  await deps.send(mail);
  return 'sent';
}

/** Registers the job's handler. */
export function registerRevokedMail(scheduler: Scheduler, deps: RevokedMailDeps): void {
  scheduler.handle(REVOKED_MAIL_JOB, async (payload) => void (await runRevokedMail(deps, payload)));
}
