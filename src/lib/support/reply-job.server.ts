/**
 * The job that mails a reply: it reads the reply (a reply whose message was deleted meanwhile is gone
 * with it: nothing to send), sends it unless already marked sent, then marks it sent. A crash between
 * sending and marking sends it again on the next run with the same Message-ID, so the mail server keeps
 * one message; the thread records it once.
 */
import { messages } from '~/i18n';
import type { Db } from '../db/client';
import { formatInstant } from '../dates/dates';
import type { Scheduler } from '../jobs/jobs.server';
import type { MailMessage, MailReceipt } from '../mail/mail';
import { replyMail, replyLocale, REPLY_JOB } from './support';
import { markReplySent, replyToSend } from './support.server';
import { type Step } from '../faults/step';

/** A fault test's crash point (nothing in production). */
export type ReplyStep = Step<'mail-sent' | 'sent-marked'>;

export interface ReplyJobDeps {
  db: Db;
  send: (message: MailMessage) => Promise<MailReceipt>;
  now?: () => Date;
}

/** Mails one reply (payload `{ entryId }`). */
export async function runReplyJob(deps: ReplyJobDeps, payload: unknown, step: Step = () => undefined): Promise<void> {
  const entryId = Number((payload as { entryId?: unknown } | null)?.entryId);
  if (!Number.isInteger(entryId) || entryId < 1) return;
  const row = await replyToSend(deps.db, entryId);
  if (!row || row.e.sentAt) return;
  const locale = replyLocale(row.e.locale ?? row.m.language);
  const mail = replyMail(
    { entryId, to: row.m.email, name: row.m.name, body: row.e.body, original: row.m.description, sentOn: formatInstant(row.m.createdAt, locale, 'date') },
    messages(locale).support.mail,
  );
  await deps.send(mail);
  await step('mail-sent');
  await markReplySent(deps.db, entryId, row.m.id, deps.now?.() ?? new Date());
  await step('sent-marked');
}

/** Registers the reply job with the scheduler. */
export function registerSupportJobs(scheduler: Scheduler, deps: ReplyJobDeps, step?: Step): void {
  scheduler.handle(REPLY_JOB, (payload) => runReplyJob(deps, payload, step));
}
