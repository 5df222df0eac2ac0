/**
 * What every form of the site shares: turning validation issues (from zod in the browser, or from an
 * Astro action's `fields` map on the server's answer) into the first error code of each field, and
 * picking the field that should get the focus; and the one rule on characters that no field accepts.
 * Pure: safe in the browser.
 */
import { z } from '../zod';
import { hasForbiddenCharacters, hasForbiddenNameCharacters } from './characters';

export { hasForbiddenCharacters, hasForbiddenNameCharacters };

/** A validation issue as zod reports it (only what forms read). */
export interface FieldIssue {
  path: readonly PropertyKey[];
  message: string;
}

/** The first error code of each field that has one. */
export type FieldErrors<F extends string, C extends string> = Partial<Record<F, C>>;

/** How a form reads issues: which field a path names, and which messages are its error codes. */
export interface ErrorVocabulary<F extends string, C extends string> {
  /** The field an issue's first path element belongs to (several inputs may share one field). */
  fieldOf(key: PropertyKey | undefined): F | undefined;
  codes: readonly C[];
  /** The code used for a message that is not one of `codes`. */
  fallback: C;
}

/** The first error code of each field, from issues in the order they were found. */
export function firstErrors<F extends string, C extends string>(issues: readonly FieldIssue[], vocabulary: ErrorVocabulary<F, C>): FieldErrors<F, C> {
  const errors: FieldErrors<F, C> = {};
  for (const issue of issues) {
    const field = vocabulary.fieldOf(issue.path[0]);
    if (field === undefined || errors[field] !== undefined) continue;
    errors[field] = (vocabulary.codes as readonly string[]).includes(issue.message) ? (issue.message as C) : vocabulary.fallback;
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
