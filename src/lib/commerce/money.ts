/**
 * Money as integer cents. The catalogue keeps prices as PostgreSQL `numeric(10,2)`, which reaches
 * JavaScript as a string ("49.90"); it is turned into cents by reading its digits, never by
 * multiplying a float, so 0.1 + 0.2 is exactly 30 cents. Pure: safe in the browser.
 */
import type { Locale } from '~/i18n';
import { formatPrice } from '../catalog/catalog';

/** The largest amount a price may hold, in cents (the catalogue's `numeric(10,2)`: 99,999,999.99). */
export const MAX_PRICE_CENTS = 9_999_999_999;

const DECIMAL = /^(\d+)(?:\.(\d*))?$/;

/**
 * The cents of a catalogue price: a numeric string such as "49.90", "49.9", "49" or "0.10" (or a
 * number, read through its shortest decimal spelling). Throws a RangeError for anything that is not
 * a non-negative amount with at most two significant decimals (a third decimal would not be a whole
 * cent) or exceeds `MAX_PRICE_CENTS`: a price the catalogue cannot hold is a bug, not a rounding.
 */
export function priceToCents(price: string | number): number {
  const text = typeof price === 'number' ? (Number.isFinite(price) ? String(price) : '') : price.trim();
  const m = DECIMAL.exec(text);
  if (!m) throw new RangeError(`Not a price: ${JSON.stringify(price)}`);
  const whole = m[1] ?? '0';
  const fraction = (m[2] ?? '').padEnd(2, '0');
  if (/[^0]/.test(fraction.slice(2))) throw new RangeError(`A price has at most two decimals: ${JSON.stringify(price)}`);
  const cents = Number(whole) * 100 + Number(fraction.slice(0, 2));
  if (!Number.isSafeInteger(cents) || cents > MAX_PRICE_CENTS) throw new RangeError(`Price out of range: ${JSON.stringify(price)}`);
  return cents;
}

/** Whether a value is a valid amount of cents: a non-negative safe integer. */
export function isCents(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function assertCents(value: number): void {
  if (!isCents(value)) throw new RangeError(`Not an amount of cents: ${String(value)}`);
}

/** Cents written as a decimal amount with exactly two decimals ("49.90"), by integer arithmetic. */
export function centsToDecimal(cents: number): string {
  assertCents(cents);
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** Cents shown as US dollars with two decimals in the page's language (the catalogue's own format: "$1,234.50"). */
export function formatCents(cents: number, locale: Locale): string {
  assertCents(cents);
  // cents / 100 is the closest double to the amount, and Intl rounds it back to the same two decimals.
  return formatPrice(cents / 100, locale);
}

/** The sum of amounts in cents (each checked, and the total kept a safe integer). */
export function sumCents(amounts: Iterable<number>): number {
  let total = 0;
  for (const a of amounts) {
    assertCents(a);
    total += a;
  }
  assertCents(total);
  return total;
}

/** The total of priced lines. */
export function sumLines(lines: Iterable<{ cents: number }>): number {
  const amounts: number[] = [];
  for (const l of lines) amounts.push(l.cents);
  return sumCents(amounts);
}
