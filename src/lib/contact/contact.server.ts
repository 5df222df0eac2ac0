/**
 * Contact messages: the types the form offers, the database check on the chosen type, and
 * store-then-notify. Every function takes the database (and the mail sender) as parameters.
 *
 * Store first, then send — and a failed send does not undo the store. Why:
 *  - The stored row is the message; the e-mail is only a notification about it. Losing what a
 *    visitor wrote because an SMTP server was briefly down would be the worst outcome, and staff
 *    can still read every message in `contact_messages`.
 *  - Sending inside the transaction would hold it (and, on embedded PGlite, the whole database) open
 *    for as long as a slow SMTP server takes; rolling back after a failed send could also lose a
 *    message that the server did in fact accept before the connection dropped.
 *  - The store itself is one insert in one transaction, so there is never half a row. The visitor is
 *    told 'Error sending message' (and may send again); to keep that retry from storing the same
 *    message twice, an identical message from the same address within `DUPLICATE_WINDOW_MINUTES` is
 *    not stored again: its notification is simply sent again.
 */
import { and, asc, desc, eq, gt, sql } from 'drizzle-orm';
import { DEFAULT_LOCALE, messages, type Locale } from '~/i18n';
import type { Db } from '~/lib/db';
import { contactMessages, contactUsTypes } from '~/lib/db/schema';
import type { SendMail } from '~/lib/mail/mail';
import {
  DEFAULT_CONTACT_TYPE_ID,
  contactErrorsFromIssues,
  contactFormSchema,
  contactNotification,
  type ContactErrors,
  type ContactForm,
} from './contact';

/** A message type as the form's select shows it. */
export interface ContactTypeOption {
  id: number;
  name: string;
}

/** The message types in `locale`, the default type (8) first, then by id. */
export async function listContactTypes(db: Db, locale: Locale): Promise<ContactTypeOption[]> {
  const rows = await db
    .select()
    .from(contactUsTypes)
    .orderBy(desc(sql`${contactUsTypes.id} = ${DEFAULT_CONTACT_TYPE_ID}`), asc(contactUsTypes.id));
  return rows.map((r) => ({ id: r.id, name: locale === 'en' ? r.descriptionEn : r.descriptionEs }));
}

/** True when a message type with this id exists. */
export async function contactTypeExists(db: Db, id: number): Promise<boolean> {
  const [row] = await db.select({ id: contactUsTypes.id }).from(contactUsTypes).where(eq(contactUsTypes.id, id)).limit(1);
  return row !== undefined;
}

/**
 * The form's schema plus the rule that needs the database: the chosen type must exist. Takes a
 * function for the database so an Astro Action can declare it before any database is open.
 */
export function contactInputSchema(database: () => Promise<Db>) {
  return contactFormSchema.superRefine(async (form, ctx) => {
    // Object checks also run when a field already failed: only look a well-formed id up.
    if (!Number.isInteger(form.type) || form.type < 1 || form.type > 2_147_483_647) return;
    if (!(await contactTypeExists(await database(), form.type))) {
      ctx.addIssue({ code: 'custom', path: ['type'], message: 'invalidOption', input: form.type });
    }
  });
}

/** An identical message from the same address this recent is a resubmission, not a new message. */
export const DUPLICATE_WINDOW_MINUTES = 10;

/** What happened to a submitted message. */
export type ContactOutcome =
  | { status: 'sent'; id: number }
  | { status: 'invalid'; errors: ContactErrors }
  /** Stored (`id`), but the notification could not be sent. */
  | { status: 'mail-failed'; id: number; reason: string };

/** Where the notification goes and how it is sent. */
export interface ContactDelivery {
  /** The address that receives notifications (`CONTACT_TO`: the configuration's `contactRecipient`). */
  to: string;
  send: SendMail;
  /** The language of the notification (the staff's); the site's default unless told. */
  locale?: Locale;
}

/** Stores a valid message (or finds its identical twin from a moment ago) and returns its id. */
async function store(db: Db, form: ContactForm): Promise<number> {
  return db.transaction(async (tx) => {
    const values = {
      typeId: form.type,
      name: form.name,
      lastName: form.lastName,
      email: form.email,
      countryPhoneCode: form.countryPhoneCode,
      phone: form.phone,
      description: form.message,
      countryCode: form.countryCode,
      language: form.language,
      accepts: form.accepts,
    };
    const [twin] = await tx
      .select({ id: contactMessages.id })
      .from(contactMessages)
      .where(
        and(
          eq(contactMessages.email, values.email),
          eq(contactMessages.typeId, values.typeId),
          eq(contactMessages.name, values.name),
          eq(contactMessages.lastName, values.lastName),
          eq(contactMessages.phone, values.phone),
          eq(contactMessages.countryPhoneCode, values.countryPhoneCode),
          eq(contactMessages.description, values.description),
          gt(contactMessages.createdAt, sql`now() - make_interval(mins => ${DUPLICATE_WINDOW_MINUTES})`),
        ),
      )
      .orderBy(desc(contactMessages.id))
      .limit(1);
    if (twin) return twin.id;
    const [row] = await tx.insert(contactMessages).values(values).returning({ id: contactMessages.id });
    return row!.id;
  });
}

/**
 * Validates a submitted contact form, stores it, and notifies the company. Invalid input stores
 * nothing and answers the error of each field. See the top of this file for why a failed
 * notification keeps the stored message.
 */
export async function submitContactMessage(db: Db, input: unknown, delivery: ContactDelivery): Promise<ContactOutcome> {
  const parsed = await contactInputSchema(async () => db).safeParseAsync(input);
  if (!parsed.success) return { status: 'invalid', errors: contactErrorsFromIssues(parsed.error.issues) };
  const form = parsed.data;

  const id = await store(db, form);

  const locale = delivery.locale ?? DEFAULT_LOCALE;
  try {
    const types = await listContactTypes(db, locale);
    const typeName = types.find((t) => t.id === form.type)?.name ?? String(form.type);
    await delivery.send(contactNotification({ id, form, typeName }, delivery.to, messages(locale).contact));
  } catch (err) {
    return { status: 'mail-failed', id, reason: err instanceof Error ? err.message : String(err) };
  }
  return { status: 'sent', id };
}
