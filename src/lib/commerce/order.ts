/**
 * An order's life: it starts pending, becomes paid or failed once the charge is answered, and a paid
 * order may be refunded. Every other move is refused. Pure: the server applies the move inside the
 * same transaction that checks the current status.
 */
import type { ChargeStatus } from './gateway';

/** An order's statuses (the `orders.status` column). */
export const ORDER_STATUSES = ['pending', 'paid', 'failed', 'refunded'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** The moves allowed from each status. */
const NEXT: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  // pending → refunded: a charge found late (after a crash) for what the buyer had already bought through another order.
  pending: ['paid', 'failed', 'refunded'],
  paid: ['refunded'],
  failed: [],
  refunded: [],
};

/** Whether an order may move from `from` to `to`. */
export function canTransition(from: OrderStatus, to: OrderStatus): boolean {
  return NEXT[from].includes(to);
}

/** The move from `from` to `to`: the new status, or a refusal naming both. */
export function transition(from: OrderStatus, to: OrderStatus): { ok: true; status: OrderStatus } | { ok: false; reason: 'not-allowed'; from: OrderStatus; to: OrderStatus } {
  return canTransition(from, to) ? { ok: true, status: to } : { ok: false, reason: 'not-allowed', from, to };
}

/** Whether no further move is possible. */
export function isFinal(status: OrderStatus): boolean {
  return NEXT[status].length === 0;
}

/**
 * The status a pending order takes after a charge: approved → paid; declined or insufficient funds
 * → failed; a processing error leaves it pending, since it may be retried.
 */
export function statusAfterCharge(status: ChargeStatus): OrderStatus {
  if (status === 'approved') return 'paid';
  if (status === 'processing-error') return 'pending';
  return 'failed';
}

/**
 * What to do with a charge's answer, given the order's status now and whether what it sells is already
 * held through another order (a buyer whose first checkout was stuck by a crash bought again):
 * - `pay`: the order is paid and grants its access;
 * - `fail`: the card was refused, the order fails;
 * - `retryable`: nothing was charged (a processing error, or a key the reconciler closed unused): the
 *   order stays pending for the buyer's retry, or fails as abandoned when no one comes back;
 * - `refund`: money was taken for an order that must not be paid (already failed, or bought elsewhere);
 * - `keep`: the order is settled already and this answer changes nothing.
 */
export type Settlement = 'pay' | 'fail' | 'retryable' | 'refund' | 'keep';

export function settlementOf(order: OrderStatus, charge: ChargeStatus | 'void', heldElsewhere: boolean): Settlement {
  if (charge === 'approved') {
    if (order === 'pending') return heldElsewhere ? 'refund' : 'pay';
    return order === 'failed' ? 'refund' : 'keep';
  }
  if (order !== 'pending') return 'keep';
  return charge === 'processing-error' || charge === 'void' ? 'retryable' : 'fail';
}
