import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { centsToDecimal, formatCents, MAX_PRICE_CENTS, priceToCents, sumCents, sumLines } from './money';

describe('catalogue prices to cents', () => {
  it.each([
    ['49.90', 4990],
    ['49.9', 4990],
    ['49', 4900],
    ['49.', 4900],
    ['0.10', 10],
    ['0.01', 1],
    ['0.00', 0],
    ['19.99', 1999],
    [' 5.50 ', 550],
    ['1.00', 100],
    ['12.300', 1230],
    ['99999999.99', MAX_PRICE_CENTS],
    [19.99, 1999],
    [0.1, 10],
    [1.15, 115],
  ] as const)('reads %j as %d cents', (price, cents) => expect(priceToCents(price)).toBe(cents));

  it('is exact where floating point is not (0.1 + 0.2, 1.15 × 100)', () => {
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(priceToCents('0.10') + priceToCents('0.20')).toBe(30);
    expect(1.15 * 100).not.toBe(115);
    expect(priceToCents('1.15')).toBe(115);
  });

  it.each(['', 'abc', '-1.00', '1,50', '1.005', '1e3', '.5', '100000000.00', NaN, Infinity, -3, 1e21])('refuses %j', (price) => {
    expect(() => priceToCents(price)).toThrow(RangeError);
  });

  it('round-trips every amount through its decimal spelling (property)', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: MAX_PRICE_CENTS }), (cents) => priceToCents(centsToDecimal(cents)) === cents), { numRuns: 2000 });
  });
});

describe('writing cents', () => {
  it('writes two decimals by integer arithmetic', () => {
    expect(centsToDecimal(0)).toBe('0.00');
    expect(centsToDecimal(5)).toBe('0.05');
    expect(centsToDecimal(4990)).toBe('49.90');
    expect(centsToDecimal(123456789)).toBe('1234567.89');
    expect(() => centsToDecimal(1.5)).toThrow(RangeError);
    expect(() => centsToDecimal(-1)).toThrow(RangeError);
  });

  it('formats USD with two decimals in both languages', () => {
    expect(formatCents(2029, 'en')).toBe('$20.29');
    expect(formatCents(4990, 'es')).toBe('$49.90');
    expect(formatCents(0, 'en')).toBe('$0.00');
    expect(formatCents(123456705, 'en')).toBe('$1,234,567.05');
  });

  it('formats the same two decimals as the integer spelling for any amount (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_PRICE_CENTS }), (cents) => formatCents(cents, 'en').replace(/[$,]/g, '') === centsToDecimal(cents)),
      { numRuns: 2000 },
    );
  });
});

describe('sums', () => {
  it('adds lines exactly', () => {
    expect(sumLines([{ cents: 10 }, { cents: 20 }, { cents: 1999 }])).toBe(2029);
    expect(sumLines([])).toBe(0);
    expect(sumCents(new Set([1, 2]))).toBe(3);
  });

  it('refuses fractional, negative or unsafe amounts', () => {
    expect(() => sumCents([1, 0.5])).toThrow(RangeError);
    expect(() => sumCents([5, -1])).toThrow(RangeError);
    expect(() => sumCents([Number.MAX_SAFE_INTEGER, 1])).toThrow(RangeError);
  });
});
