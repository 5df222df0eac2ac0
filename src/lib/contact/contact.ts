/**
 * The contact form's rules: fields, limits, the zod schema, error codes and their localized texts,
 * and the notification e-mail. Pure: no I/O, safe to bundle for the browser (the form's island
 * validates with this very schema, so the client mirrors the server exactly).
 *
 * Every schema message is an error *code* of the forms' one vocabulary (`required`, `tooLong` …),
 * never a sentence: the page and the island turn codes into sentences in the page's language with
 * `contactErrorText`.
 */
import { z } from '../zod';
import { format, type Messages } from '~/i18n';
import { firstErrors, firstInvalid, formErrorText, formText, issuesOfFields, nameText, type FieldIssue, type FormErrorCode, type FormMessages } from '~/lib/forms/forms';
import type { MailMessage } from '~/lib/mail/mail';

/** The contact section of the message catalogue. */
export type ContactMessages = Messages['contact'];

/** The type of message the form selects unless the visitor picks another (contact-us type id 8). */
export const DEFAULT_CONTACT_TYPE_ID = 8;

/** Maximum lengths (name 32, email 60; phone exactly 10). */
export const CONTACT_LIMITS = { name: 32, lastName: 32, email: 60, message: 2000 } as const;
export const PHONE_LENGTH = 10;

/** Countries the form offers, each with its international dialling code. */
export const COUNTRIES = [
  { code: 'US', dial: '+1' },
  { code: 'CA', dial: '+1' },
  { code: 'MX', dial: '+52' },
  { code: 'GT', dial: '+502' },
  { code: 'SV', dial: '+503' },
  { code: 'HN', dial: '+504' },
  { code: 'CR', dial: '+506' },
  { code: 'PA', dial: '+507' },
  { code: 'DO', dial: '+1' },
  { code: 'PR', dial: '+1' },
  { code: 'CO', dial: '+57' },
  { code: 'VE', dial: '+58' },
  { code: 'EC', dial: '+593' },
  { code: 'PE', dial: '+51' },
  { code: 'CL', dial: '+56' },
  { code: 'AR', dial: '+54' },
  { code: 'ES', dial: '+34' },
] as const satisfies readonly { code: keyof ContactMessages['countries']; dial: string }[];

export type CountryCode = (typeof COUNTRIES)[number]['code'];
const COUNTRY_CODES = COUNTRIES.map((c) => c.code) as [CountryCode, ...CountryCode[]];

/** The distinct dialling codes, in numeric order (+1, +34, +51 …). */
export const DIAL_CODES = [...new Set<string>(COUNTRIES.map((c) => c.dial))].sort((a, b) => Number(a) - Number(b)) as [
  string,
  ...string[],
];

export const DEFAULT_COUNTRY: CountryCode = 'US';
export const DEFAULT_DIAL_CODE = '+1';

/** The dialling code of a country (used to follow the country select in the browser). */
export function dialCodeOf(country: string): string | undefined {
  return COUNTRIES.find((c) => c.code === country)?.dial;
}

/** The form's fields, in the order they appear (the first invalid one gets the focus). */
export const CONTACT_FIELDS = [
  'name',
  'lastName',
  'email',
  'countryCode',
  'countryPhoneCode',
  'phone',
  'type',
  'message',
  'accepts',
] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];

/** The first error of each field that has one. */
export type ContactErrors = Partial<Record<ContactField, FormErrorCode>>;

/**
 * A required name: no control characters (a line break in a name would end up in an e-mail header) nor
 * format characters (a right-to-left override would reorder the text around it), trimmed, inner runs of
 * spaces folded to one space.
 */
const line = (max: number) =>
  nameText({ error: 'required' })
    .trim()
    .overwrite((v) => v.replace(/\s+/g, ' '))
    .min(1, 'required')
    .max(max, 'tooLong');

/** Anything the browser sends for a checked checkbox counts as checked; absence is unchecked. */
const checkbox = z.preprocess((v) => v === true || v === 'on' || v === 'true', z.boolean());

/**
 * The contact form. Unknown fields are dropped. `type` must also exist in `contact_us_types`; that
 * check needs the database and is added by `contactInputSchema` in `contact.server.ts`.
 */
export const contactFormSchema = z.object({
  name: line(CONTACT_LIMITS.name),
  lastName: line(CONTACT_LIMITS.lastName),
  email: formText({ error: 'required' })
    .trim()
    .min(1, 'required')
    .max(CONTACT_LIMITS.email, 'tooLong')
    .regex(z.regexes.email, 'invalidEmail'),
  countryCode: z.enum(COUNTRY_CODES, { error: 'invalidOption' }),
  countryPhoneCode: z.enum(DIAL_CODES, { error: 'invalidOption' }),
  phone: formText({ error: 'required' })
    .trim()
    .min(1, 'required')
    .regex(/^[0-9]*$/, 'phoneDigits')
    .length(PHONE_LENGTH, 'phoneLength'),
  // A select sends a string; the bound keeps a forged id inside PostgreSQL's integer range.
  type: z.coerce.number({ error: 'invalidOption' }).int('invalidOption').min(1, 'invalidOption').max(2_147_483_647, 'invalidOption'),
  message: formText({ error: 'required', multiline: true })
    .overwrite((v) => v.replace(/\r\n?/g, '\n').trim())
    .min(1, 'required')
    .max(CONTACT_LIMITS.message, 'tooLong'),
  accepts: checkbox.refine((v) => v, 'mustAcceptPrivacy'),
  // The page's language, sent as a hidden field; anything else is read as the default language.
  language: z.enum(['es', 'en']).catch('es'),
});

/** A valid contact form. */
export type ContactForm = z.output<typeof contactFormSchema>;

/** The text values of the form as the browser holds them (what the form shows and sends). */
export interface ContactFormValues {
  name: string;
  lastName: string;
  email: string;
  countryCode: string;
  countryPhoneCode: string;
  phone: string;
  type: string;
  message: string;
  accepts: boolean;
}

/** An empty form with its defaults (type 8, United States, +1). */
export function emptyContactValues(): ContactFormValues {
  return {
    name: '',
    lastName: '',
    email: '',
    countryCode: DEFAULT_COUNTRY,
    countryPhoneCode: DEFAULT_DIAL_CODE,
    phone: '',
    type: String(DEFAULT_CONTACT_TYPE_ID),
    message: '',
    accepts: false,
  };
}

/** Longest text kept when a submitted value is shown again (overlong values are still flagged). */
const ECHO_LIMIT = CONTACT_LIMITS.message * 2;

/** The submitted values to show again after a failed submission; anything missing gets its default. */
export function contactValuesFrom(data: { get(name: string): unknown } | null | undefined): ContactFormValues {
  const values = emptyContactValues();
  if (!data) return values;
  const text = (name: Exclude<ContactField, 'accepts'>) => {
    const v = data.get(name);
    if (typeof v === 'string') values[name] = v.slice(0, ECHO_LIMIT);
  };
  for (const f of CONTACT_FIELDS) if (f !== 'accepts') text(f);
  const accepts = data.get('accepts');
  values.accepts = accepts === 'on' || accepts === 'true' || accepts === true;
  return values;
}

function isField(value: unknown): value is ContactField {
  return typeof value === 'string' && (CONTACT_FIELDS as readonly string[]).includes(value);
}

/** The first error code of each field from zod issues (or from an action's `fields` map). */
export function contactErrorsFromIssues(issues: readonly FieldIssue[]): ContactErrors {
  return firstErrors(issues, (key) => (isField(key) ? key : undefined));
}

/** The same, from the `{ field: [code, …] }` map an Astro input error carries. */
export function contactErrorsFromFields(fields: Record<string, readonly string[] | undefined>): ContactErrors {
  return contactErrorsFromIssues(issuesOfFields(fields));
}

/** Validates the form's values; the result carries either the clean form or the errors of each field. */
export function validateContactForm(input: unknown): { success: true; data: ContactForm } | { success: false; errors: ContactErrors } {
  const parsed = contactFormSchema.safeParse(input);
  return parsed.success ? { success: true, data: parsed.data } : { success: false, errors: contactErrorsFromIssues(parsed.error.issues) };
}

/** The field that should receive the focus: the first one, in page order, that has an error. */
export function firstInvalidField(errors: ContactErrors): ContactField | undefined {
  return firstInvalid(CONTACT_FIELDS, errors);
}

/** The texts the form itself shows (what the browser needs; the e-mail's texts stay on the server), with the forms' shared error sentences. */
export type ContactFormText = Omit<ContactMessages, 'mail' | 'countries' | 'languages'> & { forms: FormMessages };

/** Picks the form's texts out of the catalogue. */
export function contactFormText(m: Pick<Messages, 'contact' | 'forms'>): ContactFormText {
  const { mail: _mail, countries: _countries, languages: _languages, ...text } = m.contact;
  return { ...text, forms: m.forms };
}

/** The sentence for an error code, in the catalogue's language ('Name field is required' …). */
export function contactErrorText(t: Pick<ContactFormText, 'forms' | 'fields'>, field: ContactField, code: FormErrorCode): string {
  return formErrorText(t.forms.errors, code, {
    field: t.fields[field],
    max: field in CONTACT_LIMITS ? CONTACT_LIMITS[field as keyof typeof CONTACT_LIMITS] : undefined,
    length: PHONE_LENGTH,
  });
}

/** What the notification e-mail says about one stored message. */
export interface ContactNotice {
  id: number;
  form: ContactForm;
  /** The message type's description in the notification's language. */
  typeName: string;
}

/**
 * The notification e-mail for the company, in the language of `t`. Plain text only, so
 * nothing a visitor types is ever interpreted as markup; answering it replies to the visitor.
 */
export function contactNotification(notice: ContactNotice, to: string, t: ContactMessages): MailMessage {
  const { form } = notice;
  const fullName = `${form.name} ${form.lastName}`;
  const country = t.countries[form.countryCode] ?? form.countryCode;
  const rows: [string, string][] = [
    [t.mail.reference, `#${notice.id}`],
    [t.mail.type, notice.typeName],
    [t.mail.name, fullName],
    [t.mail.email, form.email],
    [t.mail.phone, `${form.countryPhoneCode} ${form.phone}`],
    [t.mail.country, `${country} (${form.countryCode})`],
    [t.mail.language, t.languages[form.language]],
    [t.mail.accepts, t.mail.yes],
  ];
  const text = [t.mail.intro, '', ...rows.map(([k, v]) => `${k}: ${v}`), '', `${t.mail.message}:`, form.message, ''].join('\n');
  return {
    to,
    replyTo: { name: fullName, address: form.email },
    subject: format(t.mail.subject, { type: notice.typeName, name: fullName }),
    text,
  };
}

/** Where the form stands: untouched or being corrected, sent, failed to send, or refused as too many. */
export type ContactStatus = 'idle' | 'sent' | 'failed' | 'tooMany';

/** What the form shows: its values, the error of each field, and the outcome of the last send. */
export interface ContactFormState {
  values: ContactFormValues;
  errors: ContactErrors;
  status: ContactStatus;
}

/** The parts of an Astro action result the form reads (`fields` is present on input errors). */
export interface ContactActionResult {
  data?: unknown;
  error?: { status?: number; fields?: Record<string, readonly string[] | undefined> } | undefined;
}

/** The HTTP status of a refusal for too many messages from one address. */
export const TOO_MANY_STATUS = 429;

/**
 * The form's state after an action result: a success empties the form and says 'Message sent'; an
 * input error keeps what was typed and flags each field; too many messages keeps what was typed and
 * says to wait; any other error keeps what was typed and says 'Error sending message'. `submitted`
 * are the values that were posted.
 */
export function contactStateFromResult(result: ContactActionResult | undefined, submitted: ContactFormValues): ContactFormState {
  if (!result) return { values: emptyContactValues(), errors: {}, status: 'idle' };
  if (!result.error) return { values: emptyContactValues(), errors: {}, status: 'sent' };
  const errors = result.error.fields ? contactErrorsFromFields(result.error.fields) : {};
  if (Object.keys(errors).length > 0) return { values: submitted, errors, status: 'idle' };
  return { values: submitted, errors: {}, status: result.error.status === TOO_MANY_STATUS ? 'tooMany' : 'failed' };
}
