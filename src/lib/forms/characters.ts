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

/**
 * Unicode format characters (category Cf): bidirectional marks, embeddings, overrides and isolates
 * (U+200E, U+200F, U+202A–U+202E, U+2066–U+2069), zero-width characters (U+200B–U+200D, U+2060), the
 * byte-order mark (U+FEFF) and the like. Invisible, and able to reorder or hide the text around them:
 * a name holding U+202E shows its own letters, and whatever follows it, backwards.
 */
const FORMAT = /\p{Cf}/u;
const FORMAT_ALL = /\p{Cf}/gu;
const CONTROL_ALL = new RegExp(`[\\u0000-\\u001f\\u007f-\\u009f]|${LONE_SURROGATE}`, 'g');

/** Whether a person's name holds a character no name may: a forbidden one, or a format character (`\p{Cf}`). */
export function hasForbiddenNameCharacters(text: string): boolean {
  return hasForbiddenCharacters(text) || FORMAT.test(text);
}

/**
 * A stored name made safe to show: without format characters, controls or lone surrogates (names
 * saved before they were refused may hold them). Show it inside `<bdi>` as well, so a right-to-left
 * name keeps to itself.
 */
export function displayName(text: string): string {
  return text.replace(FORMAT_ALL, '').replace(CONTROL_ALL, '');
}

/** A stored name for running text (an ARIA label, a sentence): `displayName` between first-strong isolate marks, the plain-text `<bdi>`. */
export function isolated(text: string): string {
  return `\u2068${displayName(text)}\u2069`;
}

/** Every character a multi-line text may not show: the forbidden ones of a message (tab and line breaks kept). */
const TEXT_CONTROL_ALL = new RegExp(`[\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f]|${LONE_SURROGATE}`, 'g');

/**
 * A stored multi-line text (a message) made safe to show as text: controls (NUL …) and lone surrogates
 * become U+FFFD, so what was there is still seen; tab and line breaks stay. Escaping HTML is the page's.
 */
export function displayText(text: string): string {
  return text.replace(TEXT_CONTROL_ALL, '\ufffd');
}
