/** An IBO's sales page, pure: the page asked for (refused in words when it is not one), the statement months offered, month names. */
import { describe, expect, it } from 'vitest';
import { monthName, readSalesQuery, recentMonths } from './sales';

describe("an IBO's sales page", () => {
  it('reads page 1 by default and refuses anything that is not a whole number from 1', () => {
    expect(readSalesQuery(new URLSearchParams(''))).toEqual({ ok: true, page: 1 });
    expect(readSalesQuery(new URLSearchParams('page=7'))).toEqual({ ok: true, page: 7 });
    for (const page of ['0', '-1', '2.5', 'x', '1%00', '9'.repeat(100_000)]) expect(readSalesQuery(new URLSearchParams(`page=${page}`))).toEqual({ ok: false, error: 'badPage' });
  });

  it('offers the statements of this month and the eleven before, across a new year', () => {
    const months = recentMonths(new Date('2027-02-28T23:00:00Z'));
    expect(months).toHaveLength(12);
    expect(months.slice(0, 3)).toEqual(['2027-02', '2027-01', '2026-12']);
    expect(months.at(-1)).toBe('2026-03');
  });

  it('names a month in each language', () => {
    expect(monthName('2026-11', 'es')).toBe('noviembre de 2026');
    expect(monthName('2026-11', 'en')).toBe('November 2026');
  });
});
