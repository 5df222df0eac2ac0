/**
 * The rules of the coupons finance staff manage, pure: what the coupon form accepts (a code of letters,
 * digits and dashes; a whole percent from 1 to 100 or an amount typed as money; a validity window of at
 * most five years; an optional limit of uses), a coupon's state at an instant (active, not yet, expired,
 * used up) and the facts its audit events keep. `coupons.server.ts` does the I/O; the actions turn a
 * problem into its sentence.
 */
import { readPrice, type PriceProblem } from './products';
import { centsToDecimal } from './money';
import { COUPON_CODE_MAX } from './coupon';

/** The longest a coupon may last, in calendar years. */
export const MAX_COUPON_YEARS = 5;

/** The latest end a coupon starting at `from` may have: the same instant five calendar years on (UTC). */
export function latestCouponEnd(from: Date): Date {
  const end = new Date(from.getTime());
  end.setUTCFullYear(end.getUTCFullYear() + MAX_COUPON_YEARS);
  return end;
}
/** The highest use limit a form takes (a typing mistake above). */
export const MAX_COUPON_USES = 1_000_000;

/** What a coupon's form gives. */
export interface CouponDraft {
  code: string;
  kind: 'percent' | 'fixed';
  /** Set for a percent coupon, else null. */
  percent: number | null;
  /** Set for a fixed-amount coupon, else null. */
  amountCents: number | null;
  /** Null: valid at once. */
  startsAt: Date | null;
  endsAt: Date;
  /** Null: no limit. */
  maxUses: number | null;
}

/** Why a coupon form was refused, and on which field. */
export type CouponProblem =
  | { field: 'id'; problem: 'invalidId' }
  | { field: 'code'; problem: 'required' | 'tooLong' | 'codeCharacters' }
  | { field: 'kind'; problem: 'kindInvalid' }
  | { field: 'percent'; problem: 'required' | 'percentInvalid' | 'percentWhole' | 'percentRange' }
  | { field: 'amount'; problem: PriceProblem }
  | { field: 'startsAt' | 'endsAt'; problem: 'required' | 'dateInvalid' }
  | { field: 'endsAt'; problem: 'endBeforeStart' | 'spanTooLong' }
  | { field: 'maxUses'; problem: 'usesInvalid' };

export type CouponRead<T> = { ok: true; value: T } | { ok: false; problem: CouponProblem };

const str = (raw: unknown): string | null => (typeof raw === 'string' ? raw : typeof raw === 'number' ? String(raw) : null);

/** A typed code: trimmed, upper case, letters (A–Z), digits and dashes, at most `COUPON_CODE_MAX`. */
export function readCouponCode(raw: unknown): CouponRead<string> {
  const text = (str(raw) ?? '').trim().toUpperCase();
  if (text === '') return { ok: false, problem: { field: 'code', problem: 'required' } };
  if (text.length > COUPON_CODE_MAX) return { ok: false, problem: { field: 'code', problem: 'tooLong' } };
  if (!/^[A-Z0-9-]+$/.test(text)) return { ok: false, problem: { field: 'code', problem: 'codeCharacters' } };
  return { ok: true, value: text };
}

/** A whole percent from 1 to 100 ("10", "10 %"). */
export function readPercent(raw: unknown): CouponRead<number> {
  const text = (str(raw) ?? '').trim().replace(/\s*%$/, '');
  if (text === '') return { ok: false, problem: { field: 'percent', problem: 'required' } };
  if (!/^-?\d{1,6}([.,]\d{1,6})?$/.test(text)) return { ok: false, problem: { field: 'percent', problem: 'percentInvalid' } };
  const value = Number(text.replace(',', '.'));
  if (!Number.isInteger(value)) return { ok: false, problem: { field: 'percent', problem: 'percentWhole' } };
  if (value < 1 || value > 100) return { ok: false, problem: { field: 'percent', problem: 'percentRange' } };
  return { ok: true, value };
}

/**
 * An instant typed in a date or date-and-time field, read as UTC: "2026-12-01" (its midnight) or
 * "2026-12-01T09:30" (seconds allowed). Blank is null. Checked against the calendar (no 31 April).
 */
export function readInstant(raw: unknown): Date | null | 'invalid' {
  const text = (str(raw) ?? '').trim();
  if (text === '') return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(text);
  if (!m) return 'invalid';
  const [y, mo, d, h = '0', mi = '0', s = '0'] = m.slice(1).map((v) => v ?? '0') as string[];
  const at = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)));
  const same = at.getUTCFullYear() === Number(y) && at.getUTCMonth() === Number(mo) - 1 && at.getUTCDate() === Number(d) && at.getUTCHours() === Number(h) && at.getUTCMinutes() === Number(mi);
  return same && Number(y) >= 2000 && Number(y) <= 2999 ? at : 'invalid';
}

/** An instant as the date-and-time field shows it ("2026-12-01T09:30", UTC). */
export const instantInput = (at: Date | null): string => (at ? at.toISOString().slice(0, 16) : '');

/** An optional use limit: blank for none, else a whole number from 1 to `MAX_COUPON_USES`. */
export function readMaxUses(raw: unknown): CouponRead<number | null> {
  const text = (str(raw) ?? '').trim();
  if (text === '') return { ok: true, value: null };
  if (!/^\d{1,7}$/.test(text) || Number(text) < 1 || Number(text) > MAX_COUPON_USES) return { ok: false, problem: { field: 'maxUses', problem: 'usesInvalid' } };
  return { ok: true, value: Number(text) };
}

/**
 * Reads the coupon form: code, kind (`percent` with `percent`, or `fixed` with `amount` typed as money),
 * `startsAt` (optional), `endsAt` (required, after the start, at most five years after the start, or
 * after `now` when there is no start) and `maxUses` (optional).
 */
export function readCouponForm(raw: Record<string, unknown>, now: Date): CouponRead<CouponDraft> {
  const code = readCouponCode(raw.code);
  if (!code.ok) return code;
  const kind = raw.kind;
  if (kind !== 'percent' && kind !== 'fixed') return { ok: false, problem: { field: 'kind', problem: 'kindInvalid' } };
  let percent: number | null = null;
  let amountCents: number | null = null;
  if (kind === 'percent') {
    const p = readPercent(raw.percent);
    if (!p.ok) return p;
    percent = p.value;
  } else {
    const a = readPrice(raw.amount);
    if (!a.ok) return { ok: false, problem: { field: 'amount', problem: a.problem } };
    amountCents = a.cents;
  }
  const startsAt = readInstant(raw.startsAt);
  if (startsAt === 'invalid') return { ok: false, problem: { field: 'startsAt', problem: 'dateInvalid' } };
  const endsAt = readInstant(raw.endsAt);
  if (endsAt === 'invalid') return { ok: false, problem: { field: 'endsAt', problem: 'dateInvalid' } };
  if (endsAt === null) return { ok: false, problem: { field: 'endsAt', problem: 'required' } };
  if (startsAt && endsAt.getTime() <= startsAt.getTime()) return { ok: false, problem: { field: 'endsAt', problem: 'endBeforeStart' } };
  if (endsAt.getTime() > latestCouponEnd(startsAt ?? now).getTime()) return { ok: false, problem: { field: 'endsAt', problem: 'spanTooLong' } };
  const maxUses = readMaxUses(raw.maxUses);
  if (!maxUses.ok) return maxUses;
  return { ok: true, value: { code: code.value, kind, percent, amountCents, startsAt, endsAt, maxUses: maxUses.value } };
}

/** A coupon's state at an instant, as the back office lists it. */
export type CouponState = 'active' | 'not-yet' | 'expired' | 'used-up';

/** The state of a stored coupon at `now`: expired wins over used up, used up over not yet. */
export function couponState(c: { startsAt: Date | null; expiresAt: Date | null; maxUses: number | null; uses: number }, now: Date): CouponState {
  if (c.expiresAt && c.expiresAt.getTime() <= now.getTime()) return 'expired';
  if (c.maxUses !== null && c.uses >= c.maxUses) return 'used-up';
  if (c.startsAt && c.startsAt.getTime() > now.getTime()) return 'not-yet';
  return 'active';
}

/** A coupon's discount as staff read it: "10 %" in Spanish, "10%" in English, or "$12.50" (money formatted by the caller). */
export function discountLabel(c: { kind: 'percent' | 'fixed'; percent: number | null; amountCents: number | null }, money: (cents: number) => string, locale: 'es' | 'en'): string {
  return c.kind === 'percent' ? `${c.percent ?? 0}${locale === 'es' ? '\u00a0%' : '%'}` : money(c.amountCents ?? 0);
}

/** The facts of a coupon its audit events keep (amounts in cents, instants in ISO). */
export function couponFacts(c: { code: string; kind: string; percent: number | null; amountCents: number | null; startsAt: Date | null; expiresAt: Date | null; maxUses: number | null; uses: number }): Record<string, unknown> {
  return { code: c.code, kind: c.kind, percent: c.percent, amountCents: c.amountCents, startsAt: c.startsAt?.toISOString() ?? null, expiresAt: c.expiresAt?.toISOString() ?? null, maxUses: c.maxUses, uses: c.uses };
}

/** The amount field's value for a stored fixed coupon ("12.50"). */
export const amountInput = (cents: number | null): string => (cents === null ? '' : centsToDecimal(cents));

/** An instant as the coupons page shows it, in UTC like the form ("27 nov 2026, 14:05 UTC"). */
export function couponInstant(at: Date, locale: 'es' | 'en'): string {
  return `${new Intl.DateTimeFormat(locale === 'en' ? 'en-US' : 'es', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC', hourCycle: 'h23' }).format(at)} UTC`;
}
