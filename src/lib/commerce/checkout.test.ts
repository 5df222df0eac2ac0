import { describe, expect, it } from 'vitest';
import { VISITOR } from '../access/access';
import type { CatalogSnapshot } from '../catalog/catalog';
import { checkoutLines, couponCodeOf, orderAmounts, orderNumber, parseOrderId, refusalStatus, CHECKOUT_REFUSALS } from './checkout';
import { es } from '~/i18n/es';
import { en } from '~/i18n/en';

const course = (id: number, price: number, extra: object = {}) =>
  ({ id, code: `C${id}`, nameEs: `Curso ${id}`, nameEn: `Course ${id}`, thumbnail: '', price, isTest: false, visibleOnlyToBuyers: false, allowAll: false, prerequisiteCourseId: null, categoryId: 3, ...extra }) as never;
const snapshot = {
  byId: new Map([
    [6, course(6, 19.99)],
    [1, course(1, 0)],
    [10, course(10, 99, { visibleOnlyToBuyers: true })],
    [12, course(12, 5, { isTest: true })],
  ]),
  books: [{ id: 1, code: 'B1', titleEs: 'Libro', titleEn: 'Book', cover: '', price: 0.1 }],
  plans: [{ id: 2, code: 'P2', nameEs: 'Plan', nameEn: 'Plan', price: 0.2 }],
} as unknown as CatalogSnapshot;
const learner = { ...VISITOR, kind: 'learner' as const, userId: 1, purchased: new Set<number>() };
const cookie = (...items: [string, number][]) => JSON.stringify(items.map(([kind, id]) => ({ kind, id })));

describe('the cart read for a checkout', () => {
  it('prices every line from the catalogue in exact cents, with the product code and both titles', () => {
    const r = checkoutLines(cookie(['course', 6], ['book', 1], ['plan', 2]), snapshot, learner);
    expect(r).toEqual({
      ok: true,
      lines: [
        { kind: 'course', id: 6, productCode: 'C6', titleEs: 'Curso 6', titleEn: 'Course 6', cents: 1999 },
        { kind: 'book', id: 1, productCode: 'B1', titleEs: 'Libro', titleEn: 'Book', cents: 10 },
        { kind: 'plan', id: 2, productCode: 'P2', titleEs: 'Plan', titleEn: 'Plan', cents: 20 },
      ],
    });
  });
  it.each([
    [undefined, 'empty-cart'],
    ['[]', 'empty-cart'],
    ['not json', 'malformed-cart'],
    ['[{"kind":"course","id":6,"price":0.01},{"kind":"car","id":1}]', 'malformed-cart'],
    [cookie(['course', 6], ['course', 6]), 'malformed-cart'],
    [cookie(['course', 999]), 'unknown-product'],
    [cookie(['course', 10]), 'unknown-product'],
    [cookie(['course', 12]), 'unknown-product'],
    [cookie(['plan', 3]), 'unknown-product'],
    [cookie(['course', 1]), 'not-for-sale'],
  ])('refuses the cookie %s: %s', (raw, reason) => expect(checkoutLines(raw, snapshot, learner)).toEqual({ ok: false, reason }));
  it('refuses a course the person bought, and ignores any price the cookie carries', () => {
    expect(checkoutLines(cookie(['course', 6]), snapshot, { ...learner, purchased: new Set([6]) })).toEqual({ ok: false, reason: 'not-for-sale' });
    const forged = checkoutLines('[{"kind":"course","id":6,"price":0.01,"cents":1}]', snapshot, learner);
    expect(forged.ok && forged.lines[0]!.cents).toBe(1999);
  });
});

describe('amounts, numbers and refusals', () => {
  const now = new Date('2026-11-25T12:00:00Z');
  it('applies a coupon to the subtotal, or says why not', () => {
    expect(orderAmounts([{ cents: 1999 }], null, now)).toEqual({ ok: true, amounts: { subtotalCents: 1999, discountCents: 0, totalCents: 1999 } });
    const c = { code: 'X', kind: 'percent' as const, percent: 10, expiresAt: null, maxUses: 1, minimumTotalCents: 0 };
    expect(orderAmounts([{ cents: 1999 }], { coupon: c, uses: 0 }, now)).toEqual({ ok: true, amounts: { subtotalCents: 1999, discountCents: 200, totalCents: 1799 } });
    expect(orderAmounts([{ cents: 1999 }], { coupon: c, uses: 1 }, now)).toEqual({ ok: false, reason: 'spent' });
  });
  it('reads typed coupon codes and order ids strictly', () => {
    expect(couponCodeOf(' bienvenida10 ')).toBe('BIENVENIDA10');
    expect(couponCodeOf('')).toBeNull();
    expect(couponCodeOf(undefined)).toBeNull();
    expect(couponCodeOf('no spaces allowed')).toBeUndefined();
    expect(orderNumber(42)).toBe('A-000042');
    expect(parseOrderId('42')).toBe(42);
    for (const junk of ['0', '042', '-1', '1.5', '1e3', 'abc', '2147483648', undefined]) expect(parseOrderId(junk)).toBeNull();
  });
  it('answers every refusal with a 4xx and a sentence in both languages', () => {
    for (const r of CHECKOUT_REFUSALS) {
      expect([400, 409]).toContain(refusalStatus(r));
      expect(es.commerce.refusals[r].length).toBeGreaterThan(5);
      expect(en.commerce.refusals[r].length).toBeGreaterThan(5);
    }
    expect(refusalStatus('forged-key')).toBe(400);
    expect(refusalStatus('reused-key')).toBe(409);
    expect(refusalStatus('coupon-spent')).toBe(409);
  });
});
