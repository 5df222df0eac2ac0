/** Locales, message look-up and interpolation. Pure: no I/O. */
import { en } from './en';
import { es } from './es';
import type { Messages } from './types';
import { format } from './format';
import { DEFAULT_LOCALE, LOCALES, isLocale, toLocale, type Locale } from './locales';

export { DEFAULT_LOCALE, LOCALES, isLocale, toLocale, format, type Locale };

const catalogues: Record<Locale, Messages> = { es, en };

/** The message catalogue of a locale. */
export function messages(locale: Locale): Messages {
  return catalogues[locale];
}


/** Every key path of a catalogue (`nav.books`, …), for completeness checks. */
export function keyPaths(tree: object, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([k, v]) =>
    typeof v === 'object' && v !== null ? keyPaths(v as object, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
}
