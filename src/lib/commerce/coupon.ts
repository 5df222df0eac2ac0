/**
 * Coupons: a percent or a fixed amount off an order's total, with an optional expiry, a maximum
 * number of uses and a minimum total. Pure: whether a coupon applies and how much it takes off; the
 * uses are counted (atomically) by the server. Amounts are integer cents.
 */

/** A coupon's discount: a whole percent (1–100) or a fixed amount in cents. */
export type CouponDiscount = { kind: 'percent'; percent: number } | { kind: 'fixed'; amountCents: number };

/** A coupon as the server stores it. */
export type Coupon = CouponDiscount & {
  code: string;
  /** The instant it starts working (inclusive); null (or absent) for at once. */
  startsAt?: Date | null;
  /** The instant it stops working (exclusive); null for never. */
  expiresAt: Date | null;
  /** How many orders may use it; null for unlimited. */
  maxUses: number | null;
  /** The smallest total it applies to, in cents (0 for any order with something to pay). */
  minimumTotalCents: number;
};

/** Why a coupon is refused. */
export const COUPON_REFUSALS = ['unknown', 'not-yet', 'expired', 'spent', 'not-applicable'] as const;
export type CouponRefusal = (typeof COUPON_REFUSALS)[number];

/** A coupon's effect on a total: the discount and what remains to pay, or why it is refused. */
export type CouponResult = { ok: true; discountCents: number; totalCents: number } | { ok: false; reason: CouponRefusal };

/** Longest coupon code. */
export const COUPON_CODE_MAX = 32;

/**
 * A typed code as stored: trimmed and upper-case ("  summer10 " → "SUMMER10"); null when it cannot
 * be a code (empty, too long, or other than letters, digits, hyphens and underscores).
 */
export function normalizeCouponCode(raw: string): string | null {
  const code = raw.trim().toUpperCase();
  return /^[A-Z0-9_-]+$/.test(code) && code.length <= COUPON_CODE_MAX ? code : null;
}

/**
 * The discount of a percent coupon, rounded half up to the cent (15% of $9.99 = 149.85¢ → 150¢),
 * computed in integers so no float decides a rounding.
 */
export function percentOf(totalCents: number, percent: number): number {
  return Math.floor((totalCents * percent + 50) / 100);
}

/**
 * What `coupon` takes off `totalCents` at `now`, after `usesSoFar` orders have used it. Refused:
 * `unknown` (no such coupon, or a malformed one), `not-yet` (before `startsAt`), `expired` (at or past `expiresAt`), `spent` (no
 * uses left), `not-applicable` (nothing to pay, or under the coupon's minimum). The discount never
 * exceeds the total, so the total never drops below zero.
 */
export function applyCoupon(totalCents: number, coupon: Coupon | null | undefined, now: Date, usesSoFar: number): CouponResult {
  if (!Number.isSafeInteger(totalCents) || totalCents < 0) throw new RangeError(`Not an amount of cents: ${String(totalCents)}`);
  if (!coupon || !isWellFormed(coupon)) return { ok: false, reason: 'unknown' };
  if (coupon.startsAt && now.getTime() < coupon.startsAt.getTime()) return { ok: false, reason: 'not-yet' };
  if (coupon.expiresAt !== null && now.getTime() >= coupon.expiresAt.getTime()) return { ok: false, reason: 'expired' };
  if (coupon.maxUses !== null && usesSoFar >= coupon.maxUses) return { ok: false, reason: 'spent' };
  if (totalCents === 0 || totalCents < coupon.minimumTotalCents) return { ok: false, reason: 'not-applicable' };
  const wanted = coupon.kind === 'percent' ? percentOf(totalCents, coupon.percent) : coupon.amountCents;
  const discountCents = Math.min(wanted, totalCents);
  return { ok: true, discountCents, totalCents: totalCents - discountCents };
}

/** A stored coupon whose numbers make sense (a corrupt row is treated as no coupon). */
function isWellFormed(c: Coupon): boolean {
  const count = (n: number) => Number.isSafeInteger(n) && n >= 0;
  const amount = c.kind === 'percent' ? Number.isInteger(c.percent) && c.percent >= 1 && c.percent <= 100 : count(c.amountCents) && c.amountCents > 0;
  return amount && count(c.minimumTotalCents) && (c.maxUses === null || count(c.maxUses)) && (c.expiresAt === null || !Number.isNaN(c.expiresAt.getTime())) && (!c.startsAt || !Number.isNaN(c.startsAt.getTime()));
}
