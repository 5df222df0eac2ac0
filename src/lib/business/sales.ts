/**
 * An IBO's sales page, pure: its query (a page, from 1; another IBO named in the address is refused by
 * the page as everywhere in the business area), the months whose statements it offers (the current
 * month and the eleven before, UTC) and a month's name in the reader's language.
 */
import type { Locale } from '~/i18n/locales';
import { bucketLabel } from '../reports/reports';
import { readPage } from './business';

/** Months of statements the page links. */
export const STATEMENT_MONTHS = 12;

export type SalesQueryResult = { ok: true; page: number } | { ok: false; error: 'badPage' };

/** The page asked for (`page`; absent or empty: 1). Refused: anything but a whole number from 1. */
export function readSalesQuery(params: URLSearchParams): SalesQueryResult {
  const page = readPage(params);
  return page === null ? { ok: false, error: 'badPage' } : { ok: true, page };
}

/** The `count` months up to `now`'s (UTC), newest first, as `YYYY-MM`. */
export function recentMonths(now: Date, count = STATEMENT_MONTHS): string[] {
  return Array.from({ length: count }, (_, i) => {
    const at = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1));
    return at.toISOString().slice(0, 7);
  });
}

/** A month (`YYYY-MM`) as the reader says it ("noviembre de 2026", "November 2026"): the reports' month label. */
export function monthName(month: string, locale: Locale): string {
  return bucketLabel(`${month}-01`, 'month', locale);
}
