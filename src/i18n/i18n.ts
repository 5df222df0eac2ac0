/** Locales, message look-up and interpolation. Pure: no I/O. */
import { en } from './en';
import { es } from './es';
import type { Messages } from './types';

/** The academy's languages; Spanish is the default and is served without a prefix. */
export const LOCALES = ['es', 'en'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'es';

const catalogues: Record<Locale, Messages> = { es, en };

/** True when `value` names one of the academy's languages. */
export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** The locale to use for a possibly unknown value (anything but `en` is Spanish). */
export function toLocale(value: unknown): Locale {
  return isLocale(value) ? value : DEFAULT_LOCALE;
}

/** The message catalogue of a locale. */
export function messages(locale: Locale): Messages {
  return catalogues[locale];
}

/** Replaces `{name}` placeholders with values; unknown placeholders stay as they are. */
export function format(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => (k in values ? String(values[k]) : m));
}

/** Every key path of a catalogue (`nav.books`, …), for completeness checks. */
export function keyPaths(tree: object, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([k, v]) =>
    typeof v === 'object' && v !== null ? keyPaths(v as object, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
}
