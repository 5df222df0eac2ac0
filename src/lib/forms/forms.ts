/**
 * What every form of the site shares: one vocabulary of field-error codes with one table of sentences
 * (`forms.errors` in the catalogue); turning validation issues (from zod in the browser, or from an
 * Astro action's `fields` map on the server's answer) into the first error code of each field, and
 * picking the field that should get the focus; and the one rule on characters that no field accepts.
 * Pure: safe in the browser.
 */
import { z } from '../zod';
import { DEFAULT_LOCALE, LOCALES } from '~/i18n/locales';
import { format } from '~/i18n/format';
import type { Messages } from '~/i18n/types';
import { hasForbiddenCharacters, hasForbiddenNameCharacters } from './characters';

export { hasForbiddenCharacters, hasForbiddenNameCharacters };

/* ───────────── the error vocabulary ───────────── */

/**
 * Every error a form field can report: schema messages are these codes, never sentences, so the
 * server's answer and the browser's own check read the same, and each page says them in its language.
 */
export const FORM_ERROR_CODES = [
  'required',
  'invalidCharacters',
  'tooLong',
  'tooShort',
  'invalidEmail',
  'invalidOption',
  'invalidDate',
  'mustAcceptPrivacy',
  'mustAcceptTerms',
  'emailMismatch',
  'passwordMismatch',
  'emailTaken',
  'phoneDigits',
  'phoneLength',
  'cardDigits',
  'cardBrand',
  'cardLength',
  'cardLuhn',
  'expired',
  'cvvDigits',
  'cvvLength',
  'identificationCharacters',
  'invalidKey',
] as const;
export type FormErrorCode = (typeof FORM_ERROR_CODES)[number];

/** The forms section of the catalogue: the error sentences by code, and the words for an unreachable server. */
export type FormMessages = Messages['forms'];

/** What an error sentence may name: the field's label and its limits. */
export interface FieldErrorContext {
  field?: string | undefined;
  max?: number | undefined;
  min?: number | undefined;
  length?: number | undefined;
}

/** The sentence for an error code in the catalogue's language ('Name field is required' …). */
export function formErrorText(t: FormMessages['errors'], code: FormErrorCode, context: FieldErrorContext = {}): string {
  const { field = '', max = '', min = '', length = '' } = context;
  return format(t[code], { field, max, min, length });
}

/* ───────────── issues to codes ───────────── */

/** A validation issue as zod reports it (only what forms read). */
export interface FieldIssue {
  path: readonly PropertyKey[];
  message: string;
}

/** The first error code of each field that has one. */
export type FieldErrors<F extends string, C extends string> = Partial<Record<F, C>>;

/**
 * The first error code of each field, from issues in the order they were found. `fieldOf` names the
 * field an issue's first path element belongs to (several inputs may share one field); a message that
 * is not a code of the vocabulary reads as `invalidOption`.
 */
export function firstErrors<F extends string>(issues: readonly FieldIssue[], fieldOf: (key: PropertyKey | undefined) => F | undefined): FieldErrors<F, FormErrorCode> {
  const errors: FieldErrors<F, FormErrorCode> = {};
  for (const issue of issues) {
    const field = fieldOf(issue.path[0]);
    if (field === undefined || errors[field] !== undefined) continue;
    errors[field] = (FORM_ERROR_CODES as readonly string[]).includes(issue.message) ? (issue.message as FormErrorCode) : 'invalidOption';
  }
  return errors;
}

/** The issues an Astro input error's `{ field: [message, …] }` map stands for. */
export function issuesOfFields(fields: Record<string, readonly string[] | undefined>): FieldIssue[] {
  return Object.entries(fields).flatMap(([field, messages]) => (messages ?? []).map((message) => ({ path: [field], message })));
}

/** The first field, in page order, that has an error. */
export function firstInvalid<F extends string>(order: readonly F[], errors: Partial<Record<F, unknown>>): F | undefined {
  return order.find((f) => errors[f] !== undefined);
}

/* ───────────── characters no form accepts ───────────── */

/** The error code of a field holding a character that no form accepts ('{field} contains characters that are not allowed'). */
export const INVALID_CHARACTERS = 'invalidCharacters';

/**
 * The one rule every form shares: a text field whose first check refuses forbidden characters (code
 * `invalidCharacters`), so they are reported before anything else and never reach the database.
 * Chain the field's own rules after it. `error` is the code of a missing or non-text value.
 */
export function formText(options: { error?: string; multiline?: boolean } = {}) {
  const base = options.error === undefined ? z.string() : z.string({ error: options.error });
  return base.refine((v) => !hasForbiddenCharacters(v, options.multiline), INVALID_CHARACTERS);
}

/**
 * `formText` for a person's name (and last name): it also refuses Unicode format characters (a
 * right-to-left override, zero-width spaces, bidirectional marks), which would reorder or hide the text
 * around the name wherever it is shown. Same code, `invalidCharacters`.
 */
export function nameText(options: { error?: string } = {}) {
  const base = options.error === undefined ? z.string() : z.string({ error: options.error });
  return base.refine((v) => !hasForbiddenNameCharacters(v), INVALID_CHARACTERS);
}

/* ───────────── fields many forms share ───────────── */

/** The page's language a form posts (`lang`): one of the site's, else the default. */
export const formLang = z.enum(LOCALES).catch(DEFAULT_LOCALE);

/** A record's id a form names (an order, a message, an IBO, a person): a whole number from 1 that fits a database integer. */
export const recordId = z.coerce.number({ error: 'invalidOption' }).int('invalidOption').positive('invalidOption').max(2_147_483_647, 'invalidOption');

/** A form's one-time key, drawn by the page: the same key twice is the same request (a double submit does it once). */
export const formKey = z.string({ error: 'invalidOption' }).regex(/^[A-Za-z0-9_-]{16,64}$/, 'invalidOption');
