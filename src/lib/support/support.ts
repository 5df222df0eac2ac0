/**
 * The support inbox's rules, pure: the statuses of a contact message, the inbox's filters and pages,
 * the forms' schemas (status, assignee, note, reply with its idempotency key) and the reply e-mail.
 */
import { DEFAULT_LOCALE, LOCALES, format, type Locale } from '~/i18n';
import type { Messages } from '~/i18n/types';
import { displayName, displayText } from '~/lib/forms/characters';
import { formText } from '~/lib/forms/forms';
import type { MailMessage } from '~/lib/mail/mail';
import { z } from '~/lib/zod';
import { formLang as lang, recordId as id, formKey as requestKey } from '~/lib/forms/forms';

/** Where support is with a message, in the order it goes through them. */
export const SUPPORT_STATUSES = ['new', 'in_progress', 'answered', 'closed'] as const;
export type SupportStatus = (typeof SUPPORT_STATUSES)[number];
/** The statuses of a message support still has to deal with (the dashboard counts them). */
export const OPEN_SUPPORT_STATUSES = ['new', 'in_progress'] as const satisfies readonly SupportStatus[];

/** The staff roles a message may be assigned to (those who can open the inbox). */
export const ASSIGNABLE_ROLES = ['support', 'administrator'] as const;

/** Messages per page of the inbox. */
export const INBOX_PAGE_SIZE = 20;

/** The longest note or reply, in characters. */
export const ENTRY_MAX_LENGTH = 5000;

/** The one-off job that mails a reply (`support_entries.id` in its payload). */
export const REPLY_JOB = 'support.reply';
/** The reply job's key: one job per reply, however many times it is enqueued. */
export const replyJobKey = (entryId: number) => `support-reply:${entryId}`;
/** The reply mail's Message-ID: the same on a mail sent again after a crash, so mail servers keep one. */
export const replyMessageId = (entryId: number) => `<support-reply-${entryId}@academy.invalid>`;

/** A message as an audit reference. */
export const messageRef = (messageId: number) => `contact:${messageId}`;

/* ───────────── the inbox's filters ───────────── */

const positiveInt = z.coerce.number().int().positive().max(2_147_483_647);

/** The inbox's filters from the page's query: anything malformed is ignored, never an error. */
export const inboxFilterSchema = z.object({
  type: positiveInt.optional().catch(undefined),
  status: z.enum(SUPPORT_STATUSES).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(100_000).catch(1).default(1),
});
export type InboxFilter = z.infer<typeof inboxFilterSchema>;

/** Reads the inbox's filters (empty values are no filter). */
export function readInboxFilter(params: URLSearchParams): InboxFilter {
  const raw = Object.fromEntries([...params.entries()].filter(([, v]) => v !== ''));
  return inboxFilterSchema.parse(raw);
}

/** The query of a filter at `page` (`''` when there is nothing to say). */
export function inboxQuery(filter: Pick<InboxFilter, 'type' | 'status'>, page = 1): string {
  const q = new URLSearchParams();
  if (filter.type !== undefined) q.set('type', String(filter.type));
  if (filter.status) q.set('status', filter.status);
  if (page > 1) q.set('page', String(page));
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** The number of pages `total` messages fill (at least one) and the page to show of them. */
export function pageOf(total: number, asked: number): { page: number; pages: number } {
  const pages = Math.max(1, Math.ceil(total / INBOX_PAGE_SIZE));
  return { page: Math.min(Math.max(1, asked), pages), pages };
}

/** Counts per status, every status present (zero when none). */
export function countsByStatus(rows: readonly { status: string; n: number }[]): Record<SupportStatus, number> {
  const counts = Object.fromEntries(SUPPORT_STATUSES.map((s) => [s, 0])) as Record<SupportStatus, number>;
  for (const r of rows) if ((SUPPORT_STATUSES as readonly string[]).includes(r.status)) counts[r.status as SupportStatus] += r.n;
  return counts;
}

/** The first line of a message, made safe and short, for the inbox's list. */
export function preview(text: string, max = 120): string {
  const line = displayText(text).replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/* ───────────── the forms ───────────── */

const body = formText({ error: 'required', multiline: true }).trim().min(1, 'required').max(ENTRY_MAX_LENGTH, 'tooLong');
/** The form's idempotency key: drawn when the page is drawn, so a second submit of the same form is the same reply. */

/** Change a message's status. */
export const statusFormSchema = z.object({ id, status: z.enum(SUPPORT_STATUSES, { error: 'invalidOption' }), lang });
/** Assign a message to a staff person (an empty value: to nobody). */
export const assignFormSchema = z.object({
  id,
  // Astro reads the select's empty value ("nobody") as null.
  assignee: z.preprocess((v) => (v === '' || v === undefined ? null : v), z.union([z.null(), id], { error: 'invalidOption' })),
  lang,
});
/** An internal note. */
export const noteFormSchema = z.object({ id, body, lang });
/** A reply mailed to the sender. */
export const replyFormSchema = z.object({ id, body, key: requestKey, lang });

/* ───────────── the reply ───────────── */

/** The language of a reply: the one the sender wrote in, when it is one of the site's. */
export function replyLocale(messageLanguage: string): Locale {
  return (LOCALES as readonly string[]).includes(messageLanguage) ? (messageLanguage as Locale) : DEFAULT_LOCALE;
}

/** What a reply mail says. */
export interface ReplyFacts {
  entryId: number;
  to: string;
  name: string;
  body: string;
  original: string;
  /** When the original was sent, already written out in the mail's language. */
  sentOn: string;
}

/** The reply mail in the language of `t`: the reply, then the sender's message quoted. Plain text. */
export function replyMail(facts: ReplyFacts, t: Messages['support']['mail']): MailMessage {
  const quoted = displayText(facts.original)
    .split(/\r?\n/)
    .map((line) => `> ${line}`)
    .join('\n');
  return {
    to: facts.to,
    subject: t.subject,
    text: format(t.text, { name: displayName(facts.name), body: facts.body, date: facts.sentOn, original: quoted }),
    messageId: replyMessageId(facts.entryId),
  };
}
