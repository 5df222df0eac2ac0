/**
 * Settling a payment attempt: what the gateway answered is recorded and the order moves with it, in one
 * transaction (paid: its access granted; failed: its coupon's use given back). The checkout, the
 * reconciler and Stripe's webhook all settle through here, so an answer heard twice, or by two
 * processes at once, moves the order once; money taken for an order that must not be paid is given back.
 *
 * Locks are taken in one order everywhere money moves: the person's `users` row, then the order, then
 * the attempt. A person's orders are therefore settled one at a time, so a stuck order found paid by
 * the reconciler and a new order of the same course cannot both grant it.
 */
import { and, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { couponRedemptions, coupons, orderItems, orders, paymentAttempts, purchaseAccess, users, type Order } from '../db/schema';
import type { ChargeResult, PaymentGateway } from './gateway';
import type { PaymentPayload } from './payload';
import { settlementOf, type Settlement } from './order';
import { grantMembership } from './memberships.server';

export type { Tx };

/** A line of an order as the grant reads it. */
export interface GrantLine {
  kind: string;
  id: number;
  cents: number;
}

/** Marks an order failed and gives its coupon's use back. */
export async function failOrder(tx: Tx, orderId: number, reason: string): Promise<Order> {
  const [failed] = await tx.update(orders).set({ status: 'failed', failureReason: reason }).where(eq(orders.id, orderId)).returning();
  const released = await tx.delete(couponRedemptions).where(eq(couponRedemptions.orderId, orderId)).returning({ couponId: couponRedemptions.couponId });
  for (const r of released) await tx.update(coupons).set({ uses: sql`greatest(${coupons.uses} - 1, 0)` }).where(eq(coupons.id, r.couponId));
  return failed!;
}

/** What a paid order unlocks: each course's purchase access record, and each plan's membership for its period. */
export async function grant(tx: Tx, order: Order, lines: readonly GrantLine[], now: Date, payment: { gateway: string; token: string }): Promise<void> {
  const courseIds = lines.filter((l) => l.kind === 'course').map((l) => l.id);
  if (courseIds.length > 0) {
    await tx
      .insert(purchaseAccess)
      .values(courseIds.map((courseId) => ({ userId: order.userId, courseId, orderId: order.id, grantedAt: now })))
      .onConflictDoNothing();
  }
  for (const line of lines.filter((l) => l.kind === 'plan')) await grantMembership(tx, order, line, now, payment);
}

/**
 * Whether a course or book of `lines` is already held by `userId` through an order other than
 * `exceptOrderId` (null: any), or a course granted otherwise. Plans are extended, never held twice.
 */
export async function alreadyHeld(tx: Tx, userId: number, lines: readonly GrantLine[], exceptOrderId: number | null): Promise<boolean> {
  const courseIds = lines.filter((l) => l.kind === 'course').map((l) => l.id);
  if (courseIds.length > 0) {
    const held = await tx
      .select({ id: purchaseAccess.courseId })
      .from(purchaseAccess)
      .where(and(eq(purchaseAccess.userId, userId), inArray(purchaseAccess.courseId, courseIds), exceptOrderId === null ? undefined : sql`${purchaseAccess.orderId} is distinct from ${exceptOrderId}`))
      .limit(1);
    if (held.length > 0) return true;
  }
  // A digital book is bought once: a paid order of it means the person holds it already.
  const bookIds = lines.filter((l) => l.kind === 'book').map((l) => l.id);
  if (bookIds.length > 0) {
    const held = await tx
      .select({ id: orderItems.productId })
      .from(orders)
      .innerJoin(orderItems, eq(orderItems.orderId, orders.id))
      .where(and(eq(orders.userId, userId), eq(orders.status, 'paid'), exceptOrderId === null ? undefined : ne(orders.id, exceptOrderId), eq(orderItems.productKind, 'book'), inArray(orderItems.productId, bookIds), isNull(orderItems.refundedAt)))
      .limit(1);
    if (held.length > 0) return true;
  }
  return false;
}

/** An attempt's answer: the gateway's, or `void` (the reconciler found no charge under its key and closed it). */
export type AttemptAnswer = ChargeResult | { status: 'void' };

export interface SettleInput {
  orderId: number;
  attempt: number;
  answer: AttemptAnswer;
  now: Date;
}

/** How a settle ended: the order as it is now, and what was decided. */
export interface Settled {
  order: Order;
  decision: Settlement;
}

/**
 * Records attempt `attempt` of order `orderId` as `answer` and moves the order (see `settlementOf`).
 * An attempt already settled keeps its answer unless this one is money taken (a late success). When money
 * was taken for an order that must not be paid, it is refunded through `gateway` (one refund per charge,
 * whatever the repeats) and a pending order becomes `refunded` once the gateway confirms.
 */
export async function settleAttempt(db: Db, gateway: PaymentGateway, input: SettleInput): Promise<Settled> {
  const { orderId, attempt, answer, now } = input;
  const [owner] = await db.select({ userId: orders.userId }).from(orders).where(eq(orders.id, orderId));
  if (!owner) throw new Error(`No order ${orderId}`);
  const decided = await db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, owner.userId)).for('update');
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
    const [row] = await tx
      .select()
      .from(paymentAttempts)
      .where(and(eq(paymentAttempts.orderId, orderId), eq(paymentAttempts.attemptNumber, attempt)))
      .for('update');
    if (!order || !row) throw new Error(`No attempt ${attempt} of order ${orderId}`);
    // Money taken always counts; a refusal reported late still fails an order waiting with nothing in
    // flight; any other answer only settles an attempt still waiting for one.
    if (row.status !== 'started' && answer.status !== 'approved') {
      const refusal = answer.status === 'declined' || answer.status === 'insufficient-funds';
      const [inFlight] = refusal && order.status === 'pending' ? await tx.select({ id: paymentAttempts.id }).from(paymentAttempts).where(and(eq(paymentAttempts.orderId, orderId), eq(paymentAttempts.status, 'started'))).limit(1) : [{ id: 0 }];
      if (inFlight) return { order, decision: 'keep' as Settlement, chargeId: null };
    }
    const chargeId = 'chargeId' in answer && answer.chargeId ? answer.chargeId : row.chargeId;
    await tx.update(paymentAttempts).set({ status: answer.status, chargeId, finishedAt: now }).where(eq(paymentAttempts.id, row.id));
    const items = await tx.select().from(orderItems).where(eq(orderItems.orderId, orderId)).orderBy(orderItems.id);
    const lines = items.map((i) => ({ kind: i.productKind, id: i.productId, cents: i.priceCents }));
    const elsewhere = answer.status === 'approved' && order.status === 'pending' ? await alreadyHeld(tx, order.userId, lines, order.id) : false;
    const decision = settlementOf(order.status, answer.status, elsewhere);
    if (decision === 'pay') {
      const [paid] = await tx.update(orders).set({ status: 'paid', paidAt: now, failureReason: null }).where(eq(orders.id, orderId)).returning();
      const token = (row.payload as PaymentPayload | null)?.payment.token ?? '';
      await grant(tx, paid!, lines, now, { gateway: row.gateway, token });
      return { order: paid!, decision, chargeId };
    }
    if (decision === 'fail') return { order: await failOrder(tx, orderId, answer.status), decision, chargeId };
    if (decision === 'retryable') {
      const [kept] = await tx.update(orders).set({ failureReason: 'processing-error' }).where(eq(orders.id, orderId)).returning();
      return { order: kept!, decision, chargeId };
    }
    if (decision === 'refund' && order.status === 'pending') {
      // Stays pending until the gateway confirms the refund: a crash in between is found by the reconciler.
      const [marked] = await tx.update(orders).set({ failureReason: 'paid-elsewhere' }).where(eq(orders.id, orderId)).returning();
      return { order: marked!, decision, chargeId };
    }
    return { order, decision, chargeId };
  });
  if (decided.decision !== 'refund' || !decided.chargeId) return { order: decided.order, decision: decided.decision };
  const refund = await gateway.refund({ chargeId: decided.chargeId, idempotencyKey: `refund-${decided.chargeId}` });
  if (refund.status === 'refused' && refund.reason !== 'already-refunded') throw new Error(`The refund of ${decided.chargeId} was refused: ${refund.reason}`);
  if (decided.order.status !== 'pending') return { order: decided.order, decision: 'refund' };
  const [refunded] = await db
    .update(orders)
    .set({ status: 'refunded' })
    .where(and(eq(orders.id, orderId), eq(orders.status, 'pending')))
    .returning();
  return { order: refunded ?? decided.order, decision: 'refund' };
}
