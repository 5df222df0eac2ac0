import { describe, expect, it } from 'vitest';
import { canTransition, isFinal, ORDER_STATUSES, statusAfterCharge, transition, type OrderStatus } from './order';

const allowed: [OrderStatus, OrderStatus][] = [
  ['pending', 'paid'],
  ['pending', 'failed'],
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
