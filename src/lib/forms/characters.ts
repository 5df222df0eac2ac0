/**
 * The characters that no field of the site accepts, as one rule for forms (`formText` in `forms.ts`)
 * and for addresses to go to (`safeNext`). Pure and dependency-free: safe in every browser bundle.
 */

/** A UTF-16 surrogate without its other half: not a character at all (it cannot even be stored as UTF-8). */
const LONE_SURROGATE = '[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]';
/** Single-line fields: every C0 control (NUL, tab, line breaks …), DEL, every C1 control, lone surrogates. */
const FORBIDDEN_IN_LINE = new RegExp(`[\\u0000-\\u001f\\u007f-\\u009f]|${LONE_SURROGATE}`);
/** Multi-line fields (a message): the same, except tab, line feed and carriage return. */
const FORBIDDEN_IN_TEXT = new RegExp(`[\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f]|${LONE_SURROGATE}`);

/**
 * Whether `text` holds a character that no field of the site accepts: control characters (NUL first of
 * all, which PostgreSQL cannot store in text), DEL, C1 controls and lone surrogates. Tab and line breaks
 * are allowed only in multi-line fields.
 */
export function hasForbiddenCharacters(text: string, multiline = false): boolean {
  return (multiline ? FORBIDDEN_IN_TEXT : FORBIDDEN_IN_LINE).test(text);
}
