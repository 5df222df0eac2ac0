import { describe, expect, it } from 'vitest';
import { lineShares, orderQuery, orderRange, readOrderFilter, readSearch, refundFormSchema, refundPlan, MAX_RANGE_DAYS } from './orders';

describe('the list of orders', () => {
  it('reads its filters, ignoring malformed values', () => {
    const f = readOrderFilter(new URLSearchParams('q=buyer@&status=paid&from=2026-01-01&to=2026-13-01&kind=movie&coupon=bienvenida10&page=x'));
    expect(f).toEqual({ q: 'buyer@', status: 'paid', from: '2026-01-01', to: undefined, kind: undefined, coupon: 'BIENVENIDA10', ibo: undefined, page: 1 });
    expect(orderQuery(f, 2)).toBe('?q=buyer%40&status=paid&from=2026-01-01&coupon=BIENVENIDA10&page=2');
  });
  it('refuses a reversed date range and one longer than the bound', () => {
    expect(orderRange({ from: '2026-03-02', to: '2026-03-01' })).toEqual({ ok: false, reason: 'reversed' });
    expect(orderRange({ from: '2016-01-01', to: '2026-01-01' })).toEqual({ ok: false, reason: 'tooLong' });
    expect(orderRange({ from: '2026-01-01', to: '2026-12-31' })).toMatchObject({ ok: true });
    const to = new Date(Date.parse('2026-01-01T00:00:00Z') + MAX_RANGE_DAYS * 86_400_000).toISOString().slice(0, 10);
    expect(orderRange({ from: '2026-01-01', to })).toEqual({ ok: false, reason: 'tooLong' });
    expect(orderRange({ from: '2026-03-01', to: '2026-03-01' })).toEqual({ ok: true, since: new Date('2026-03-01T00:00:00Z'), until: new Date('2026-03-02T00:00:00Z') });
    expect(orderRange({})).toEqual({ ok: true, since: null, until: null });
  });
  it('searches an order by its number or id, else by e-mail', () => {
    expect(readSearch('A-000042')).toEqual({ orderId: 42, email: null });
    expect(readSearch('42')).toEqual({ orderId: 42, email: null });
    expect(readSearch('Buyer@Academia')).toEqual({ orderId: null, email: 'buyer@academia' });
    expect(readSearch('  ')).toEqual({ orderId: null, email: null });
  });
});

describe('refunds', () => {
  const order = (over: Partial<Parameters<typeof refundPlan>[0]> = {}) => ({
    status: 'paid' as const,
    totalCents: 2700,
    discountCents: 300,
    items: [
      { id: 1, priceCents: 2000 },
      { id: 2, priceCents: 1000 },
    ],
    refundedItemIds: new Set<number>(),
    refundedCents: 0,
    ...over,
  });
  it('spreads the discount over the lines so their shares add up to the total', () => {
    const shares = lineShares(order().items, 300);
    expect([...shares.values()]).toEqual([1800, 900]);
    const odd = lineShares([{ id: 1, priceCents: 1001 }, { id: 2, priceCents: 1001 }, { id: 3, priceCents: 1001 }], 100);
    expect([...odd.values()].reduce((a, b) => a + b, 0)).toBe(3003 - 100);
  });
  it('plans a line, then what is left', () => {
    expect(refundPlan(order(), [2])).toEqual({ ok: true, lines: [{ itemId: 2, amountCents: 900 }], amountCents: 900 });
    expect(refundPlan(order({ refundedItemIds: new Set([2]), refundedCents: 900 }), 'all')).toEqual({ ok: true, lines: [{ itemId: 1, amountCents: 1800 }], amountCents: 1800 });
  });
  it('refuses a line refunded already, anything of a refunded, pending or failed order, an unknown line, and more than is left', () => {
    expect(refundPlan(order({ refundedItemIds: new Set([2]), refundedCents: 900 }), [2])).toEqual({ ok: false, reason: 'alreadyRefunded' });
    expect(refundPlan(order({ status: 'refunded' }), 'all')).toEqual({ ok: false, reason: 'alreadyRefunded' });
    expect(refundPlan(order({ status: 'pending' }), 'all')).toEqual({ ok: false, reason: 'notPaid' });
    expect(refundPlan(order({ status: 'failed' }), [1])).toEqual({ ok: false, reason: 'notPaid' });
    expect(refundPlan(order(), [3])).toEqual({ ok: false, reason: 'unknownLine' });
    expect(refundPlan(order({ refundedCents: 2000 }), [1])).toEqual({ ok: false, reason: 'tooMuch' });
    expect(refundPlan(order({ refundedItemIds: new Set([1, 2]), refundedCents: 2700 }), 'all')).toEqual({ ok: false, reason: 'alreadyRefunded' });
  });
  it('takes a form with a reason and its key; no line ticked is refused', () => {
    const base = { id: '7', reason: 'Pidió la devolución', key: 'abcdefghijklmnop1234', lang: 'en' };
    expect(refundFormSchema.safeParse({ ...base, lines: '3' }).data).toMatchObject({ id: 7, lines: [3], scope: 'lines' });
    expect(refundFormSchema.safeParse({ ...base, scope: 'all' }).data).toMatchObject({ scope: 'all', lines: [] });
    expect(refundFormSchema.safeParse({ ...base }).success).toBe(false);
    expect(refundFormSchema.safeParse({ ...base, lines: '3', reason: ' ' }).success).toBe(false);
  });
});
