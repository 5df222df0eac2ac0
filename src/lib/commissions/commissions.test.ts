import { describe, expect, it } from 'vitest';
import { approvedUpTo, COMMISSION_HOLD_DAYS, commissionCents, holdEnds, lineState, monthRange, payoutFormSchema, rateFormSchema, rateInput, rateText, readMonth, readRate, statementFileName, type LineEntries } from './commissions';

const NOW = new Date('2026-11-27T12:00:00Z');
const DAY = 86_400_000;

describe('a commission in cents', () => {
  it('is the net times the rate, rounded to the nearest cent, half up', () => {
    expect(commissionCents(10_000, 2000)).toBe(2000);
    expect(commissionCents(2850, 1000)).toBe(285);
    // 1999 × 12.5 % = 249.875 → 250; 1995 × 10 % = 199.5 → 200; 1994 × 10 % = 199.4 → 199.
    expect(commissionCents(1999, 1250)).toBe(250);
    expect(commissionCents(1995, 1000)).toBe(200);
    expect(commissionCents(1994, 1000)).toBe(199);
    expect(commissionCents(1, 4999)).toBe(0);
    expect(commissionCents(1, 5000)).toBe(1);
  });
  it('is nothing at 0 % or on nothing, all of it at 100 %, never negative', () => {
    expect(commissionCents(12_345, 0)).toBe(0);
    expect(commissionCents(0, 10_000)).toBe(0);
    expect(commissionCents(12_345, 10_000)).toBe(12_345);
    expect(commissionCents(-500, 2000)).toBe(0);
  });
  it('refuses what is not cents or not a rate', () => {
    expect(() => commissionCents(1.5, 2000)).toThrow(RangeError);
    expect(() => commissionCents(100, 10_001)).toThrow(RangeError);
    expect(() => commissionCents(100, -1)).toThrow(RangeError);
  });
  it('stays exact on large amounts (a refund of part of a line then earns on the rest)', () => {
    expect(commissionCents(99_999_999_99, 3333)).toBe(Math.round((99_999_999_99 * 3333) / 10_000));
    expect(commissionCents(3000 - 1900, 2000)).toBe(220);
  });
});

describe('a rate as typed', () => {
  it('reads whole and decimal percentages, with a comma or a percent sign, into hundredths of a percent', () => {
    expect(readRate('20')).toEqual({ ok: true, value: 2000 });
    expect(readRate(' 12.5 ')).toEqual({ ok: true, value: 1250 });
    expect(readRate('12,75 %')).toEqual({ ok: true, value: 1275 });
    expect(readRate('0')).toEqual({ ok: true, value: 0 });
    expect(readRate('100')).toEqual({ ok: true, value: 10_000 });
    expect(readRate('100.00')).toEqual({ ok: true, value: 10_000 });
    expect(readRate('-0')).toEqual({ ok: true, value: 0 });
  });
  it('refuses below 0 %, above 100 %, not a number, too many decimals, nothing', () => {
    expect(readRate('-1')).toEqual({ ok: false, problem: 'outOfRange' });
    expect(readRate('-0.01')).toEqual({ ok: false, problem: 'outOfRange' });
    expect(readRate('100.01')).toEqual({ ok: false, problem: 'outOfRange' });
    expect(readRate('1000')).toEqual({ ok: false, problem: 'outOfRange' });
    for (const bad of ['abc', '1e2', '12.', '.5', 'NaN', 'Infinity', '0x10', '1 000', '20\u0000', '9'.repeat(40)]) expect(readRate(bad), bad).toEqual({ ok: false, problem: 'notNumber' });
    expect(readRate('12.345')).toEqual({ ok: false, problem: 'tooPrecise' });
    expect(readRate('')).toEqual({ ok: false, problem: 'required' });
    expect(readRate(undefined)).toEqual({ ok: false, problem: 'required' });
    expect(readRate(['20'])).toEqual({ ok: false, problem: 'notNumber' });
  });
  it('is shown in each language and back in the form', () => {
    expect(rateText(1250, 'en')).toBe('12.5%');
    expect(rateText(1250, 'es').replace(/\s/g, ' ')).toBe('12,5 %');
    expect(rateInput(1250)).toBe('12.5');
    expect(rateInput(2000)).toBe('20');
  });
});

describe("a line's commission state", () => {
  const paidAt = new Date(NOW.getTime() - 10 * DAY);
  const line = (over: Partial<LineEntries> = {}): LineEntries => ({ paidAt, earnedCents: 600, dueCents: 600, unpaidCents: 600, reversed: false, settled: false, ...over });

  it(`is pending for ${COMMISSION_HOLD_DAYS} days after the payment, then approved`, () => {
    expect(lineState(line(), NOW)).toBe('pending');
    expect(lineState(line(), new Date(holdEnds(paidAt).getTime() - 1))).toBe('pending');
    expect(lineState(line(), holdEnds(paidAt))).toBe('approved');
    expect(approvedUpTo(holdEnds(paidAt)).getTime()).toBe(paidAt.getTime());
  });
  it('is paid once a payout settled it', () => {
    expect(lineState(line({ unpaidCents: 0, settled: true }), NOW)).toBe('paid');
  });
  it('is cancelled when a refund took all of it before a payout, reduced but still owed after a partial one', () => {
    expect(lineState(line({ dueCents: 0, unpaidCents: 0 }), NOW)).toBe('cancelled');
    expect(lineState(line({ dueCents: 0, unpaidCents: 0, settled: true }), NOW)).toBe('cancelled');
    expect(lineState(line({ dueCents: 220, unpaidCents: 220 }), NOW)).toBe('pending');
    expect(lineState(line({ dueCents: 220, unpaidCents: 220 }), holdEnds(paidAt))).toBe('approved');
  });
  it('is reversed when a refund came after it was paid out', () => {
    expect(lineState(line({ dueCents: 0, unpaidCents: -600, reversed: true }), NOW)).toBe('reversed');
    expect(lineState(line({ dueCents: 0, unpaidCents: 0, reversed: true, settled: true }), NOW)).toBe('reversed');
  });
});

describe("a statement's month", () => {
  it('is a month from 2000 up to the current one', () => {
    expect(readMonth('2026-11', NOW)).toBe('2026-11');
    expect(readMonth('2026-01', NOW)).toBe('2026-01');
    expect(readMonth('2000-01', NOW)).toBe('2000-01');
  });
  it('refuses month 13, words, the future, NUL, other shapes', () => {
    for (const bad of ['2026-13', '2026-00', 'abc', '2026-12', '9999-01', '1999-12', '2026-5', '2026-05\u0000', '2026-05.pdf', '', ' 2026-05', '２０２６-05']) expect(readMonth(bad, NOW), bad).toBeNull();
    expect(readMonth(202605, NOW)).toBeNull();
  });
  it('spans its UTC days', () => {
    expect(monthRange('2026-02')).toEqual({ from: new Date('2026-02-01T00:00:00Z'), to: new Date('2026-03-01T00:00:00Z') });
    expect(monthRange('2026-12')).toEqual({ from: new Date('2026-12-01T00:00:00Z'), to: new Date('2027-01-01T00:00:00Z') });
  });
  it("is named in ASCII whatever the IBO's code holds", () => {
    expect(statementFileName('comisiones', 'HORIZONTE01', '2026-05', 'pdf')).toBe('comisiones-HORIZONTE01-2026-05.pdf');
    expect(statementFileName('commissions', 'A"B/../ñ', '2026-05', 'csv')).toBe('commissions-AB-2026-05.csv');
  });
});

describe('the forms', () => {
  it('take a known kind only', () => {
    expect(rateFormSchema.safeParse({ kind: 'course', rate: '20', lang: 'en' }).success).toBe(true);
    expect(rateFormSchema.safeParse({ kind: 'membership', rate: '20', lang: 'en' }).success).toBe(false);
  });
  it("take a payout's IBO id, a key and a reference without forbidden characters", () => {
    const ok = payoutFormSchema.safeParse({ ibo: '3', key: 'abcdefghijklmnop', lang: 'es' });
    expect(ok.success && ok.data).toMatchObject({ ibo: 3 });
    expect(payoutFormSchema.safeParse({ ibo: '0', key: 'abcdefghijklmnop' }).success).toBe(false);
    expect(payoutFormSchema.safeParse({ ibo: '3', key: 'short' }).success).toBe(false);
    expect(payoutFormSchema.safeParse({ ibo: '3', key: 'abcdefghijklmnop', reference: 'TRF\u0000' }).success).toBe(false);
    expect(payoutFormSchema.safeParse({ ibo: '3', key: 'abcdefghijklmnop', reference: 'x'.repeat(121) }).success).toBe(false);
  });
});
