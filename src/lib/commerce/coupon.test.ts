import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyCoupon, normalizeCouponCode, percentOf, type Coupon } from './coupon';

const NOW = new Date('2026-11-25T12:00:00Z');
const percent = (p: number, extra: Partial<Coupon> = {}): Coupon => ({ code: 'P', kind: 'percent', percent: p, expiresAt: null, maxUses: null, minimumTotalCents: 0, ...extra }) as Coupon;
const fixed = (cents: number, extra: Partial<Coupon> = {}): Coupon => ({ code: 'F', kind: 'fixed', amountCents: cents, expiresAt: null, maxUses: null, minimumTotalCents: 0, ...extra }) as Coupon;

describe('applying a coupon', () => {
  it('takes a percent off, rounded half up to the cent', () => {
    expect(applyCoupon(10000, percent(10), NOW, 0)).toEqual({ ok: true, discountCents: 1000, totalCents: 9000 });
    expect(applyCoupon(999, percent(15), NOW, 0)).toEqual({ ok: true, discountCents: 150, totalCents: 849 }); // 149.85 → 150
    expect(applyCoupon(1001, percent(5), NOW, 0)).toEqual({ ok: true, discountCents: 50, totalCents: 951 }); // 50.05 → 50
    expect(applyCoupon(10, percent(25), NOW, 0)).toEqual({ ok: true, discountCents: 3, totalCents: 7 }); // 2.5 → 3 (half up)
    expect(applyCoupon(4990, percent(100), NOW, 0)).toEqual({ ok: true, discountCents: 4990, totalCents: 0 });
  });

  it('takes a fixed amount off, never below zero', () => {
    expect(applyCoupon(4990, fixed(1000), NOW, 0)).toEqual({ ok: true, discountCents: 1000, totalCents: 3990 });
    expect(applyCoupon(500, fixed(1000), NOW, 0)).toEqual({ ok: true, discountCents: 500, totalCents: 0 });
  });

  it('refuses an unknown or malformed coupon', () => {
    expect(applyCoupon(1000, null, NOW, 0)).toEqual({ ok: false, reason: 'unknown' });
    expect(applyCoupon(1000, undefined, NOW, 0)).toEqual({ ok: false, reason: 'unknown' });
    expect(applyCoupon(1000, percent(0), NOW, 0)).toEqual({ ok: false, reason: 'unknown' });
    expect(applyCoupon(1000, percent(101), NOW, 0)).toEqual({ ok: false, reason: 'unknown' });
    expect(applyCoupon(1000, percent(12.5), NOW, 0)).toEqual({ ok: false, reason: 'unknown' });
    expect(applyCoupon(1000, fixed(-5), NOW, 0)).toEqual({ ok: false, reason: 'unknown' });
    expect(applyCoupon(1000, fixed(9.99), NOW, 0)).toEqual({ ok: false, reason: 'unknown' });
  });

  it('refuses an expired coupon from the instant of its expiry', () => {
    const at = new Date('2026-11-25T12:00:00Z');
    expect(applyCoupon(1000, percent(10, { expiresAt: at }), new Date(at.getTime() - 1), 0).ok).toBe(true);
    expect(applyCoupon(1000, percent(10, { expiresAt: at }), at, 0)).toEqual({ ok: false, reason: 'expired' });
  });

  it('refuses a coupon before its start, and takes it from the instant it starts', () => {
    const at = new Date('2026-11-25T12:00:00Z');
    expect(applyCoupon(1000, percent(10, { startsAt: at }), new Date(at.getTime() - 1), 0)).toEqual({ ok: false, reason: 'not-yet' });
    expect(applyCoupon(1000, percent(10, { startsAt: at }), at, 0).ok).toBe(true);
    expect(applyCoupon(1000, percent(10, { startsAt: null }), at, 0).ok).toBe(true);
  });

  it('refuses a spent coupon once its uses are reached', () => {
    expect(applyCoupon(1000, fixed(100, { maxUses: 3 }), NOW, 2).ok).toBe(true);
    expect(applyCoupon(1000, fixed(100, { maxUses: 3 }), NOW, 3)).toEqual({ ok: false, reason: 'spent' });
    expect(applyCoupon(1000, fixed(100, { maxUses: 0 }), NOW, 0)).toEqual({ ok: false, reason: 'spent' });
  });

  it('refuses when there is nothing to pay or the order is under the minimum', () => {
    expect(applyCoupon(0, percent(10), NOW, 0)).toEqual({ ok: false, reason: 'not-applicable' });
    expect(applyCoupon(2999, fixed(500, { minimumTotalCents: 3000 }), NOW, 0)).toEqual({ ok: false, reason: 'not-applicable' });
    expect(applyCoupon(3000, fixed(500, { minimumTotalCents: 3000 }), NOW, 0).ok).toBe(true);
  });

  it('says expired before spent before not-applicable', () => {
    const c = fixed(100, { expiresAt: new Date('2020-01-01T00:00:00Z'), maxUses: 1, minimumTotalCents: 5000 });
    expect(applyCoupon(10, c, NOW, 5)).toEqual({ ok: false, reason: 'expired' });
    expect(applyCoupon(10, { ...c, expiresAt: null }, NOW, 5)).toEqual({ ok: false, reason: 'spent' });
  });

  it('refuses a total that is not cents', () => {
    expect(() => applyCoupon(10.5, percent(10), NOW, 0)).toThrow(RangeError);
    expect(() => applyCoupon(-1, percent(10), NOW, 0)).toThrow(RangeError);
  });

  it('keeps discount + remainder = total, both whole cents in range (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000_000 }), fc.integer({ min: 1, max: 100 }), fc.integer({ min: 1, max: 10_000_000_000 }), (total, p, amount) => {
        for (const c of [percent(p), fixed(amount)]) {
          const r = applyCoupon(total, c, NOW, 0);
          if (!r.ok) return false;
          if (!Number.isInteger(r.discountCents) || r.discountCents < 0 || r.totalCents < 0 || r.discountCents + r.totalCents !== total) return false;
        }
        // Rounded half up: within half a cent of the exact percent.
        return Math.abs(percentOf(total, p) - (total * p) / 100) <= 0.5;
      }),
      { numRuns: 2000 },
    );
  });
});

describe('coupon codes', () => {
  it('normalizes what people type', () => {
    expect(normalizeCouponCode('  summer-10 ')).toBe('SUMMER-10');
    expect(normalizeCouponCode('')).toBeNull();
    expect(normalizeCouponCode('two words')).toBeNull();
    expect(normalizeCouponCode('A'.repeat(33))).toBeNull();
    expect(normalizeCouponCode("x' OR 1=1")).toBeNull();
  });
});
