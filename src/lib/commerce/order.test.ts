import { describe, expect, it } from 'vitest';
import { canTransition, isFinal, ORDER_STATUSES, settlementOf, statusAfterCharge, transition, type OrderStatus } from './order';

const allowed: [OrderStatus, OrderStatus][] = [
  ['pending', 'paid'],
  ['pending', 'failed'],
  ['pending', 'refunded'],
  ['paid', 'refunded'],
];

describe('order status moves', () => {
  it.each(allowed)('allows %s → %s', (from, to) => {
    expect(canTransition(from, to)).toBe(true);
    expect(transition(from, to)).toEqual({ ok: true, status: to });
  });

  it('refuses every other move, staying put included', () => {
    for (const from of ORDER_STATUSES) {
      for (const to of ORDER_STATUSES) {
        if (allowed.some(([f, t]) => f === from && t === to)) continue;
        expect(canTransition(from, to), `${from} → ${to}`).toBe(false);
        expect(transition(from, to)).toEqual({ ok: false, reason: 'not-allowed', from, to });
      }
    }
  });

  it('names the final statuses', () => {
    expect(ORDER_STATUSES.filter(isFinal)).toEqual(['failed', 'refunded']);
  });

  it('follows a charge: approved pays, declined and insufficient funds fail, a processing error stays pending', () => {
    expect(statusAfterCharge('approved')).toBe('paid');
    expect(statusAfterCharge('declined')).toBe('failed');
    expect(statusAfterCharge('insufficient-funds')).toBe('failed');
    expect(statusAfterCharge('processing-error')).toBe('pending');
  });
});

describe('settling a charge found after a crash', () => {
  it('pays a pending order, or gives the money back when it was bought through another order meanwhile', () => {
    expect(settlementOf('pending', 'approved', false)).toBe('pay');
    expect(settlementOf('pending', 'approved', true)).toBe('refund');
  });

  it('gives back a late success of a failed order, and never pays a settled one twice', () => {
    expect(settlementOf('failed', 'approved', false)).toBe('refund');
    expect(settlementOf('paid', 'approved', false)).toBe('keep');
    expect(settlementOf('refunded', 'approved', true)).toBe('keep');
  });

  it('fails a pending order on a refused card; nothing charged leaves it for a retry', () => {
    expect(settlementOf('pending', 'declined', false)).toBe('fail');
    expect(settlementOf('pending', 'insufficient-funds', false)).toBe('fail');
    expect(settlementOf('pending', 'processing-error', false)).toBe('retryable');
    expect(settlementOf('pending', 'void', false)).toBe('retryable');
  });

  it('changes nothing of a settled order when the answer is not money taken', () => {
    for (const status of ['paid', 'failed', 'refunded'] as const) {
      for (const charge of ['declined', 'insufficient-funds', 'processing-error', 'void'] as const) expect(settlementOf(status, charge, false)).toBe('keep');
    }
  });
});
