/**
 * A nudge: an IBO asks the academy to e-mail one of its people, encouraging them to go on learning.
 * The nudge and the job that mails it are written in one transaction, the IBO's row locked so that its
 * day's allowance is counted once however many requests arrive together; the same form's key twice (a
 * double submit) finds the nudge already made. The job mails the person in their language with a link
 * that stops every IBO's nudges to them; a crash between sending and marking sends again with the same
 * Message-ID (one message at the mail server), and a person who stopped nudges or withdrew their
 * consent meanwhile gets nothing.
 */
import { and, count, desc, eq, gte, sql } from 'drizzle-orm';
import { format, messages, type Locale } from '~/i18n';
import type { Db } from '../db/client';
import { contacts, ibos, jobs, nudges } from '../db/schema';
import type { Scheduler } from '../jobs/jobs.server';
import type { MailMessage, MailReceipt } from '../mail/mail';
import type { Step } from '../faults/step';
import { localePath, paths } from '../paths';
import { nudgeTarget } from './people.server';
import { nudgeVerdict, utcDayStart, type NudgeRefusal } from './people';

/** The job that mails a nudge, one per nudge. */
export const NUDGE_JOB = 'business.nudge';
/** The purpose of a stop link's token (see `ExportLinks.sign`). */
export const NUDGE_STOP_PURPOSE = 'nudge-stop';

/** Kill points of a nudge's writing and mailing (fault tests only). */
export type NudgeStep = Step<'nudge-checked' | 'nudge-stored' | 'mail-sent' | 'sent-marked'>;

export type NudgeOutcome = { status: 'ok'; nudgeId: number; repeated: boolean; firstName: string } | { status: 'refused'; reason: NudgeRefusal };

/**
 * Nudges person `contactId` for IBO `iboId` (its form's one-time `key`, the page's `locale` for a
 * person who chose none): refused when the person is not the IBO's to see, asked for no more, was
 * nudged by this IBO in the last week, or the IBO's day is used up.
 */
export async function nudgePerson(db: Db, req: { iboId: number; contactId: number; key: string; locale: Locale; origin: string; now?: Date }, step: NudgeStep = () => undefined): Promise<NudgeOutcome> {
  const { iboId, contactId, key, locale, origin } = req;
  const now = req.now ?? new Date();
  const outcome = await db.transaction(async (tx): Promise<NudgeOutcome> => {
    // One IBO's nudges one at a time: the day's count below is then exact.
    await tx.execute(sql`select 1 from ${ibos} where ${ibos.id} = ${iboId} for update`);
    const target = await nudgeTarget(tx, iboId, contactId);
    const [earlier] = await tx.select({ id: nudges.id, contactId: nudges.contactId }).from(nudges).where(and(eq(nudges.iboId, iboId), eq(nudges.requestKey, key)));
    // The same form sent again: the nudge it made (a key reused for someone else is not a nudge of them).
    if (earlier && target && earlier.contactId === contactId) return { status: 'ok', nudgeId: earlier.id, repeated: true, firstName: target.firstName };
    if (earlier) return { status: 'refused', reason: target ? 'recent' : 'notYours' };
    const [last] = target
      ? await tx.select({ at: nudges.createdAt }).from(nudges).where(and(eq(nudges.iboId, iboId), eq(nudges.contactId, contactId))).orderBy(desc(nudges.createdAt)).limit(1)
      : [];
    const [today] = await tx.select({ n: count() }).from(nudges).where(and(eq(nudges.iboId, iboId), gte(nudges.createdAt, utcDayStart(now))));
    const verdict = nudgeVerdict({ visible: target !== null, stoppedAt: target?.stoppedAt ?? null, lastNudgeAt: last?.at ?? null, sentToday: today?.n ?? 0, now });
    if (!verdict.ok) return { status: 'refused', reason: verdict.reason };
    await step('nudge-checked');
    const [made] = await tx
      .insert(nudges)
      .values({ iboId, contactId, locale: target!.locale ?? locale, requestKey: key, createdAt: now })
      .returning({ id: nudges.id });
    await tx.insert(jobs).values({ name: NUDGE_JOB, key: `nudge:${made!.id}`, payload: { nudgeId: made!.id, origin }, runAt: now });
    return { status: 'ok', nudgeId: made!.id, repeated: false, firstName: target!.firstName };
  });
  if (outcome.status === 'ok' && !outcome.repeated) await step('nudge-stored');
  return outcome;
}

/** A nudge's e-mail (pure but for the words): to the person, from the academy, naming the IBO, with the way back and the way out. */
export function nudgeMail(n: { nudgeId: number; to: string; firstName: string; company: string; locale: Locale; origin: string; stopUrl: string }): MailMessage {
  const t = messages(n.locale).businessPeople.mail;
  const learning = `${n.origin}${localePath(n.locale, paths.myLearning)}`;
  const text = format(t.body, { name: n.firstName, company: n.company, url: learning, stop: n.stopUrl });
  return {
    to: n.to,
    subject: format(t.subject, { company: n.company }),
    text,
    messageId: `<nudge-${n.nudgeId}@academy>`,
  };
}

export interface NudgeJobDeps {
  db: Db;
  send: (message: MailMessage) => Promise<MailReceipt>;
  /** The stop link's token of a contact (see `ExportLinks.sign`). */
  stopToken: (contactId: number) => string;
  now?: () => Date;
}

/** Mails one nudge (payload `{ nudgeId, origin }`: the site's address the IBO sent it from, for the mail's links), unless sent already, or the person stopped nudges or is no longer the IBO's to see. */
export async function runNudgeJob(deps: NudgeJobDeps, payload: unknown, step: NudgeStep = () => undefined): Promise<void> {
  const { nudgeId, origin } = (payload ?? {}) as { nudgeId?: unknown; origin?: unknown };
  if (typeof nudgeId !== 'number' || !Number.isInteger(nudgeId) || nudgeId < 1 || typeof origin !== 'string') return;
  const [n] = await deps.db
    .select({ id: nudges.id, iboId: nudges.iboId, contactId: nudges.contactId, locale: nudges.locale, sentAt: nudges.sentAt, company: ibos.companyName })
    .from(nudges)
    .innerJoin(ibos, eq(ibos.id, nudges.iboId))
    .where(eq(nudges.id, nudgeId));
  if (!n || n.sentAt) return;
  const target = await nudgeTarget(deps.db, n.iboId, n.contactId);
  if (target && !target.stoppedAt) {
    const stopUrl = `${origin}${localePath(n.locale, paths.nudgeStop(n.contactId, deps.stopToken(n.contactId)))}`;
    await deps.send(nudgeMail({ nudgeId: n.id, to: target.email, firstName: target.firstName, company: n.company, locale: n.locale, origin: origin, stopUrl }));
    await step('mail-sent');
  }
  await deps.db.update(nudges).set({ sentAt: deps.now?.() ?? new Date() }).where(eq(nudges.id, n.id));
  await step('sent-marked');
}

/** Registers the nudge job with the scheduler. */
export function registerNudgeJobs(scheduler: Scheduler, deps: NudgeJobDeps, step?: NudgeStep): void {
  scheduler.handle(NUDGE_JOB, (payload) => runNudgeJob(deps, payload, step));
}

/** Stops every nudge to `contactId` (the link in a nudge's mail, its token checked by the caller); true when it was not stopped before. */
export async function stopNudges(db: Db, contactId: number, now = new Date()): Promise<boolean> {
  const done = await db
    .update(contacts)
    .set({ nudgesStoppedAt: now })
    .where(and(eq(contacts.id, contactId), sql`${contacts.nudgesStoppedAt} is null`))
    .returning({ id: contacts.id });
  return done.length > 0;
}
