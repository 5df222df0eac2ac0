/**
 * Instants as the reader reads them. The server knows no reader's time zone: it writes the instant in
 * UTC, saying so where a time of day shows, inside `<time datetime>` (`LocalTime.astro`); in the browser
 * the same function rewrites it in the reader's own time zone. Pure; no zod, so browser code may use it.
 */
import type { Locale } from '~/i18n/locales';

/** A date alone ("27 de noviembre de 2026"), or a date and a time of day. */
export type InstantStyle = 'date' | 'datetime';

const INTL: Record<Locale, string> = { es: 'es-ES', en: 'en-US' };

/**
 * `at` in `locale`, in `timeZone` (the reader's, in the browser), or in UTC when none is given: then a
 * time of day is followed by "UTC", so nobody takes it for their own.
 */
export function formatInstant(at: Date, locale: Locale, style: InstantStyle, timeZone?: string): string {
  const zone = timeZone ?? 'UTC';
  const text = new Intl.DateTimeFormat(INTL[locale], { dateStyle: 'long', ...(style === 'datetime' ? { timeStyle: 'short' } : {}), timeZone: zone }).format(at);
  return style === 'datetime' && timeZone === undefined ? `${text} UTC` : text;
}

/** True for the styles `formatInstant` knows (read back from a page's `data-local-time`). */
export function isInstantStyle(value: string | undefined): value is InstantStyle {
  return value === 'date' || value === 'datetime';
}
