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
  pending: ['paid', 'failed'],
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
