import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { priceToCents } from './money';
import { buildPaymentPayload, PAYMENT_CONSTANTS, type PayloadInput, type PayloadLine } from './payload';

const lines: PayloadLine[] = [
  { kind: 'course', productCode: 'C-006', cents: priceToCents('49.90') },
  { kind: 'plan', productCode: 'PLAN-PRO', cents: priceToCents('19.99') },
  { kind: 'book', productCode: 'B-001', cents: priceToCents('0.10') },
];

describe('the purchase payload', () => {
  it('carries the business constants, a detail per product and the payment', () => {
    expect(buildPaymentPayload({ lines, language: 'es', token: 'tok_1' })).toEqual({
      applicationId: 10,
      entityId: 3,
      productId: 78,
      supplierId: 11,
      details: [
        { productCode: 'C-006', productType: 'course', price: '49.90' },
        { productCode: 'PLAN-PRO', productType: 'membership', price: '19.99' },
        { productCode: 'B-001', productType: 'book', price: '0.10' },
      ],
      payment: {
        amount: '69.99',
        currencyCode: 'USD',
        countryCode: 'USA',
        language: 'es',
        paymentType: 'card',
        wayToPayId: 36,
        paymentProductId: 36,
        token: 'tok_1',
        discount: '0.00',
        couponCode: null,
      },
    });
  });

  it('defines the constants once', () => {
    expect(PAYMENT_CONSTANTS).toEqual({ applicationId: 10, entityId: 3, productId: 78, paymentProductId: 36, supplierId: 11, currencyCode: 'USD', countryCode: 'USA' });
  });

  it('charges the sum less a coupon’s discount, in the page language', () => {
    const p = buildPaymentPayload({ lines, language: 'en', token: 't', discountCents: 700, couponCode: 'SAVE7' });
    expect(p.payment).toMatchObject({ amount: '62.99', discount: '7.00', couponCode: 'SAVE7', language: 'en' });
  });

  const impossible: [Partial<PayloadInput>, string][] = [
    [{ lines: [] }, 'no lines'],
    [{ lines: [{ kind: 'course', productCode: 'C', cents: 0 }] }, 'a free line'],
    [{ lines: [{ kind: 'course', productCode: 'C', cents: 49.9 }] }, 'a price in dollars, not cents'],
    [{ lines: [{ kind: 'course', productCode: ' ', cents: 100 }] }, 'no product code'],
    [{ discountCents: -1 }, 'a negative discount'],
    [{ discountCents: 7000 }, 'a discount over the total'],
    [{ discountCents: 6999 }, 'nothing left to charge'],
    [{ token: '' }, 'no token'],
    [{ lines: [{ kind: 'course', productCode: 'A', cents: 9_999_999_999 }, { kind: 'book', productCode: 'B', cents: 1 }] }, 'a total above what a price can hold'],
  ];
  it.each(impossible)('refuses %j (%s)', (change) => {
    expect(() => buildPaymentPayload({ lines, language: 'es', token: 't', ...change })).toThrow(RangeError);
  });

  it('keeps amount = Σ prices − discount exactly, for any order (property)', () => {
    const cents = (s: string) => Number(s.replace('.', '')); // "49.90" → 4990, without a float
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 100_000_000 }), { minLength: 1, maxLength: 50 }), fc.nat(), (prices, d) => {
        const total = prices.reduce((a, b) => a + b, 0);
        const discount = d % total;
        const p = buildPaymentPayload({ lines: prices.map((c, i) => ({ kind: 'course', productCode: `C${i}`, cents: c })), language: 'es', token: 't', discountCents: discount });
        return (
          p.details.every((x) => /^\d+\.\d{2}$/.test(x.price)) &&
          p.details.reduce((a, x) => a + cents(x.price), 0) - cents(p.payment.discount) === cents(p.payment.amount) &&
          cents(p.payment.amount) === total - discount
        );
      }),
      { numRuns: 500 },
    );
  });
});
