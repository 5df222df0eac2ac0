import { describe, expect, it } from 'vitest';
import { couponState, discountLabel, instantInput, readCouponCode, readCouponForm, readInstant, readMaxUses, readPercent, latestCouponEnd } from './coupon-form';

const NOW = new Date('2026-11-27T12:00:00Z');
const base = { code: ' verano-10 ', kind: 'percent', percent: '10', amount: '', startsAt: '2026-12-01T00:00', endsAt: '2027-01-01T00:00', maxUses: '' };
const read = (over: Record<string, unknown>) => readCouponForm({ ...base, ...over }, NOW);
const problem = (over: Record<string, unknown>) => {
  const r = read(over);
  return r.ok ? null : r.problem;
};

describe('the coupon form', () => {
  it('reads a percent coupon: code trimmed and upper-cased, dates as UTC, no limit', () => {
    expect(read({})).toEqual({
      ok: true,
      value: { code: 'VERANO-10', kind: 'percent', percent: 10, amountCents: null, startsAt: new Date('2026-12-01T00:00:00Z'), endsAt: new Date('2027-01-01T00:00:00Z'), maxUses: null },
    });
  });

  it('reads a fixed amount typed as money into exact cents, and a use limit', () => {
    expect(read({ kind: 'fixed', percent: '', amount: '12.50', maxUses: '25', startsAt: '' })).toMatchObject({ ok: true, value: { kind: 'fixed', percent: null, amountCents: 1250, startsAt: null, maxUses: 25 } });
    expect(read({ kind: 'fixed', amount: '0.10' })).toMatchObject({ ok: true, value: { amountCents: 10 } });
  });

  it.each([
    ['-5', 'percentRange'],
    ['0', 'percentRange'],
    ['101', 'percentRange'],
    ['12.5', 'percentWhole'],
    ['diez', 'percentInvalid'],
    ['', 'required'],
  ])('refuses the percent %s (%s)', (percent, why) => {
    expect(problem({ percent })).toEqual({ field: 'percent', problem: why });
  });

  it.each([
    ['-1.00', 'priceNegative'],
    ['0', 'priceZero'],
    ['12.505', 'priceFraction'],
    ['12,5,0', 'priceInvalid'],
    ['', 'priceMissing'],
  ])('refuses the fixed amount %s (%s)', (amount, why) => {
    expect(problem({ kind: 'fixed', amount })).toEqual({ field: 'amount', problem: why });
  });

  it('refuses codes that are empty, too long, or hold other characters (NUL, spaces, accents, underscores)', () => {
    expect(readCouponCode('  ')).toEqual({ ok: false, problem: { field: 'code', problem: 'required' } });
    expect(readCouponCode('A'.repeat(33))).toEqual({ ok: false, problem: { field: 'code', problem: 'tooLong' } });
    expect(readCouponCode('X'.repeat(100_000))).toEqual({ ok: false, problem: { field: 'code', problem: 'tooLong' } });
    for (const bad of ['A\u0000B', 'DOS PALABRAS', 'AÑO', 'A_B', '<b>']) expect(readCouponCode(bad)).toEqual({ ok: false, problem: { field: 'code', problem: 'codeCharacters' } });
    expect(readCouponCode(42)).toEqual({ ok: true, value: '42' });
  });

  it('refuses a kind other than percent or fixed', () => {
    expect(problem({ kind: 'gratis' })).toEqual({ field: 'kind', problem: 'kindInvalid' });
    expect(problem({ kind: undefined })).toEqual({ field: 'kind', problem: 'kindInvalid' });
  });

  it('needs an end after the start, at most five years after it (or after now without a start)', () => {
    expect(problem({ endsAt: '' })).toEqual({ field: 'endsAt', problem: 'required' });
    expect(problem({ endsAt: '2026-12-01T00:00' })).toEqual({ field: 'endsAt', problem: 'endBeforeStart' });
    expect(problem({ endsAt: '2026-11-30' })).toEqual({ field: 'endsAt', problem: 'endBeforeStart' });
    expect(problem({ endsAt: '2031-12-01T00:00' })).toBeNull();
    expect(problem({ endsAt: '2031-12-01T00:01' })).toEqual({ field: 'endsAt', problem: 'spanTooLong' });
    expect(problem({ startsAt: '', endsAt: '2031-11-27T12:00' })).toBeNull();
    expect(problem({ startsAt: '', endsAt: new Date(latestCouponEnd(NOW).getTime() + 60_000).toISOString().slice(0, 16) })).toEqual({ field: 'endsAt', problem: 'spanTooLong' });
    expect(problem({ startsAt: '2026-02-30' })).toEqual({ field: 'startsAt', problem: 'dateInvalid' });
    expect(problem({ endsAt: 'mañana' })).toEqual({ field: 'endsAt', problem: 'dateInvalid' });
  });

  it('reads instants as UTC and writes them back the way the field shows them', () => {
    expect(readInstant('2026-12-01T09:30')).toEqual(new Date('2026-12-01T09:30:00Z'));
    expect(readInstant('2026-12-01 09:30:15')).toEqual(new Date('2026-12-01T09:30:15Z'));
    expect(readInstant('2026-12-01T24:00')).toBe('invalid');
    expect(readInstant('  ')).toBeNull();
    expect(instantInput(new Date('2026-12-01T09:30:00Z'))).toBe('2026-12-01T09:30');
    expect(instantInput(null)).toBe('');
  });

  it('takes an optional use limit of at least one', () => {
    expect(readMaxUses('')).toEqual({ ok: true, value: null });
    expect(readMaxUses('1')).toEqual({ ok: true, value: 1 });
    for (const bad of ['0', '-1', '2.5', 'diez', '99999999']) expect(readMaxUses(bad)).toEqual({ ok: false, problem: { field: 'maxUses', problem: 'usesInvalid' } });
  });

  it('reads percents with a trailing percent sign', () => {
    expect(readPercent('15 %')).toEqual({ ok: true, value: 15 });
    expect(readPercent('100')).toEqual({ ok: true, value: 100 });
  });
});

describe('a coupon’s discount as staff read it', () => {
  it('writes a percent the way each language does, and a fixed amount as money', () => {
    const money = (cents: number) => `$${(cents / 100).toFixed(2)}`;
    expect(discountLabel({ kind: 'percent', percent: 15, amountCents: null }, money, 'es')).toBe('15\u00a0%');
    expect(discountLabel({ kind: 'percent', percent: 15, amountCents: null }, money, 'en')).toBe('15%');
    expect(discountLabel({ kind: 'fixed', percent: null, amountCents: 1250 }, money, 'en')).toBe('$12.50');
  });
});

describe('a coupon’s state', () => {
  const c = (over: Partial<{ startsAt: Date | null; expiresAt: Date | null; maxUses: number | null; uses: number }>) => ({ startsAt: null, expiresAt: null, maxUses: null, uses: 0, ...over });
  it('is active, not yet, expired or used up', () => {
    expect(couponState(c({}), NOW)).toBe('active');
    expect(couponState(c({ startsAt: new Date(NOW.getTime() + 1) }), NOW)).toBe('not-yet');
    expect(couponState(c({ startsAt: NOW }), NOW)).toBe('active');
    expect(couponState(c({ expiresAt: NOW }), NOW)).toBe('expired');
    expect(couponState(c({ maxUses: 3, uses: 3 }), NOW)).toBe('used-up');
    expect(couponState(c({ maxUses: 3, uses: 3, expiresAt: NOW }), NOW)).toBe('expired');
  });
});
