/**
 * Refunds from the back office: some lines of a paid order (or all), with a reason, through the
 * payment gateway, taking back the access each refunded line granted. Safe against `kill -9` at any
 * line, and against double submits and concurrent staff:
 *
 * 1. In one transaction, with the order locked: the refund's plan (`refundPlan`), then the refund
 *    written `requested` with its lines and the key the gateway will be given. At most one refund of an
 *    order is in flight (a partial unique index) and each line is in one refund (a unique index).
 * 2. The gateway is asked to refund the amount with that key (the same key again is the same refund).
 * 3. In one transaction: the refund `refunded`, its lines marked, their access removed (a course's
 *    purchase, a plan's membership; a book is owned by an unrefunded line), the order `refunded` once
 *    every line is, and the audit record — or, when the gateway refused, the refund `failed` and its
 *    lines released.
 *
 * A process that dies after 1 leaves a `requested` refund: the same form posted again, the reconciler
 * (`reconcileRefunds`, every minute) or Stripe's refund webhook finishes it with the stored key, so the
 * gateway and the database end agreeing: refunded once, access removed once, one audit record.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, inArray, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { memberships, orderItems, orderRefundLines, orderRefunds, orders, paymentAttempts, purchaseAccess, type OrderRefund } from '../db/schema';
import type { PaymentGateway, RefundResult } from '../commerce/gateway';
import { isUniqueViolation } from '../commerce/checkout.server';
import { recordAudit, userRef } from '../privacy/audit.server';
import type { Logger } from '../http/log.server';
import type { Scheduler } from '../jobs';
import { orderRef, refundPlan, type RefundRefusal } from './orders';

/** A refund still `requested` this long after it was written is in nobody's hands (longer than any gateway call takes). */
export const REFUND_RECONCILE_AFTER_MS = 90_000;

/** Where a refund is (the fault test kills the process at each). */
export type RefundStep = 'recorded' | 'gateway-answered' | 'finished';

/** How a refund ended. `pending`: asked of the gateway, not final yet (Stripe's webhook or the reconciler finishes it). */
export type RefundOutcome =
  | { status: 'refunded'; refund: OrderRefund; userId: number; repeated: boolean }
  | { status: 'pending'; refund: OrderRefund }
  | { status: 'refused'; reason: RefundRefusal };

export interface RefundInput {
  orderId: number;
  actorId: number;
  /** The order lines to refund, or all those left. */
  lines: readonly number[] | 'all';
  reason: string;
  /** The form's key: the same form posted again is this refund. */
  requestKey: string;
}

export interface RefundOptions {
  now?: () => Date;
  onStep?: (step: RefundStep) => void;
  log?: Pick<Logger, 'warn' | 'error'>;
}

/** Thrown inside the first transaction to roll it back with a refusal. */
class Refused extends Error {
  constructor(readonly reason: RefundRefusal) {
    super(reason);
  }
}

/** Refunds some lines of an order, or all of them (see the module's comment). */
export async function refundOrder(db: Db, gateway: PaymentGateway, input: RefundInput, opts: RefundOptions = {}): Promise<RefundOutcome> {
  const now = opts.now ?? (() => new Date());
  let recorded: { refund: OrderRefund; repeated: boolean };
  try {
    recorded = await db.transaction(async (tx) => {
      const [order] = await tx.select().from(orders).where(eq(orders.id, input.orderId)).for('update');
      if (!order) throw new Refused('unknown');
      const [earlier] = await tx
        .select()
        .from(orderRefunds)
        .where(and(eq(orderRefunds.orderId, order.id), eq(orderRefunds.requestKey, input.requestKey)));
      if (earlier) return { refund: earlier, repeated: true };
      const [inFlight] = await tx
        .select({ id: orderRefunds.id })
        .from(orderRefunds)
        .where(and(eq(orderRefunds.orderId, order.id), eq(orderRefunds.status, 'requested')));
      if (inFlight) throw new Refused('inProgress');
      const items = await tx.select({ id: orderItems.id, priceCents: orderItems.priceCents }).from(orderItems).where(eq(orderItems.orderId, order.id)).orderBy(orderItems.id);
      const taken = await tx
        .select({ itemId: orderRefundLines.orderItemId, cents: orderRefundLines.amountCents })
        .from(orderRefundLines)
        .innerJoin(orderRefunds, eq(orderRefunds.id, orderRefundLines.refundId))
        .where(eq(orderRefunds.orderId, order.id));
      const plan = refundPlan(
        { status: order.status, totalCents: order.totalCents, discountCents: order.discountCents, items, refundedItemIds: new Set(taken.map((t) => t.itemId)), refundedCents: taken.reduce((a, t) => a + t.cents, 0) },
        input.lines,
      );
      if (!plan.ok) throw new Refused(plan.reason);
      const [paid] = await tx
        .select({ chargeId: paymentAttempts.chargeId, gateway: paymentAttempts.gateway })
        .from(paymentAttempts)
        .where(and(eq(paymentAttempts.orderId, order.id), eq(paymentAttempts.status, 'approved')))
        .orderBy(sql`${paymentAttempts.attemptNumber} desc`)
        .limit(1);
      if (!paid?.chargeId) throw new Refused('noCharge');
      // The gateway's key is stored before the gateway hears of it: whoever finishes this refund uses it.
      const [refund] = await tx
        .insert(orderRefunds)
        .values({
          orderId: order.id,
          requestKey: input.requestKey,
          idempotencyKey: `refund-${order.id}-${randomUUID()}`,
          gateway: paid.gateway,
          chargeId: paid.chargeId,
          amountCents: plan.amountCents,
          reason: input.reason,
          actorId: input.actorId,
          createdAt: now(),
        })
        .returning();
      await tx.insert(orderRefundLines).values(plan.lines.map((l) => ({ refundId: refund!.id, orderItemId: l.itemId, amountCents: l.amountCents })));
      return { refund: refund!, repeated: false };
    });
  } catch (err) {
    if (err instanceof Refused) return { status: 'refused', reason: err.reason };
    // Another request refunded this order (or these lines) in the same instant.
    if (isUniqueViolation(err)) {
      const [same] = await db.select().from(orderRefunds).where(and(eq(orderRefunds.orderId, input.orderId), eq(orderRefunds.requestKey, input.requestKey)));
      if (!same) return { status: 'refused', reason: 'inProgress' };
      recorded = { refund: same, repeated: true };
    } else throw err;
  }
  opts.onStep?.('recorded');
  const { refund, repeated } = recorded;
  if (refund.status === 'refunded') return { status: 'refunded', refund, userId: await ownerOf(db, refund.orderId), repeated: true };
  if (refund.status === 'failed') return { status: 'refused', reason: 'gatewayRefused' };
  const done = await pursueRefund(db, gateway, refund, now, opts);
  if (done.status === 'refunded') return { ...done, repeated: repeated || done.repeated };
  return done;
}

/** Asks the gateway for a `requested` refund, with its stored key, and records the answer. */
async function pursueRefund(db: Db, gateway: PaymentGateway, refund: OrderRefund, now: () => Date, opts: RefundOptions): Promise<RefundOutcome> {
  let answer: RefundResult;
  try {
    answer = await gateway.refund({ chargeId: refund.chargeId, amountCents: refund.amountCents, idempotencyKey: refund.idempotencyKey });
  } catch (err) {
    // Unreachable, or its answer lost: the refund stays requested and is asked again with the same key.
    opts.log?.warn({ refundId: refund.id, orderId: refund.orderId, err: err instanceof Error ? err.message : String(err) }, 'refund not answered');
    return { status: 'pending', refund };
  }
  opts.onStep?.('gateway-answered');
  if (answer.status === 'pending') {
    const [marked] = await db.update(orderRefunds).set({ gatewayRefundId: answer.refundId }).where(eq(orderRefunds.id, refund.id)).returning();
    return { status: 'pending', refund: marked ?? refund };
  }
  if (answer.status === 'refused') {
    await failRefund(db, refund.id, answer.reason, now());
    return { status: 'refused', reason: 'gatewayRefused' };
  }
  const finished = await finishRefund(db, refund.id, answer.refundId, now());
  opts.onStep?.('finished');
  return finished;
}

/**
 * Records a refund the gateway made: the refund `refunded`, its lines marked, their access removed,
 * the order `refunded` when no line is left, and the audit record, in one transaction. A refund already
 * finished is left as it is (`repeated`).
 */
export async function finishRefund(db: Db, refundId: number, gatewayRefundId: string, at: Date): Promise<Extract<RefundOutcome, { status: 'refunded' }>> {
  return db.transaction(async (tx) => {
    const [head] = await tx.select({ orderId: orderRefunds.orderId }).from(orderRefunds).where(eq(orderRefunds.id, refundId));
    if (!head) throw new Error(`No refund ${refundId}`);
    const [order] = await tx.select().from(orders).where(eq(orders.id, head.orderId)).for('update');
    const [refund] = await tx.select().from(orderRefunds).where(eq(orderRefunds.id, refundId)).for('update');
    if (refund!.status === 'refunded') return { status: 'refunded', refund: refund!, userId: order!.userId, repeated: true } as const;
    const [done] = await tx.update(orderRefunds).set({ status: 'refunded', gatewayRefundId, finishedAt: at, failure: null }).where(eq(orderRefunds.id, refundId)).returning();
    const lines = await tx
      .select({ item: orderItems, cents: orderRefundLines.amountCents })
      .from(orderRefundLines)
      .innerJoin(orderItems, eq(orderItems.id, orderRefundLines.orderItemId))
      .where(eq(orderRefundLines.refundId, refundId));
    await tx
      .update(orderItems)
      .set({ refundedAt: at })
      .where(inArray(orderItems.id, lines.map((l) => l.item.id)));
    const removed = await takeBackAccess(tx, order!.id, order!.userId, lines.map((l) => l.item), at);
    const [left] = await tx.select({ n: sql<number>`count(*)::int` }).from(orderItems).where(and(eq(orderItems.orderId, order!.id), isNull(orderItems.refundedAt)));
    if ((left?.n ?? 0) === 0) await tx.update(orders).set({ status: 'refunded' }).where(eq(orders.id, order!.id));
    await recordAudit(tx, {
      action: 'orders.refund',
      actor: refund!.actorId === null ? 'system' : userRef(refund!.actorId),
      subject: orderRef(order!.id),
      before: { status: order!.status },
      after: {
        refund: done!.id,
        amountCents: done!.amountCents,
        lines: lines.map((l) => ({ item: l.item.id, kind: l.item.productKind, product: l.item.productId, cents: l.cents })),
        reason: done!.reason,
        gatewayRefundId,
        removed,
        status: (left?.n ?? 0) === 0 ? 'refunded' : order!.status,
      },
      at,
    });
    return { status: 'refunded', refund: done!, userId: order!.userId, repeated: false } as const;
  });
}

/** Takes back what refunded lines granted: a course's purchase of this order, a plan's membership from this order (ended now). Books: owned only through an unrefunded line. */
async function takeBackAccess(tx: Tx, orderId: number, userId: number, items: readonly { productKind: string; productId: number }[], at: Date): Promise<{ courses: number[]; plans: number[] }> {
  const courseIds = items.filter((i) => i.productKind === 'course').map((i) => i.productId);
  const planIds = items.filter((i) => i.productKind === 'plan').map((i) => i.productId);
  const courses =
    courseIds.length === 0
      ? []
      : await tx
          .delete(purchaseAccess)
          .where(and(eq(purchaseAccess.userId, userId), eq(purchaseAccess.orderId, orderId), inArray(purchaseAccess.courseId, courseIds)))
          .returning({ id: purchaseAccess.courseId });
  const plans =
    planIds.length === 0
      ? []
      : await tx
          .update(memberships)
          .set({ endsAt: at, cancelledAt: at, graceUntil: null, nextTryAt: null })
          .where(and(eq(memberships.userId, userId), eq(memberships.orderId, orderId), inArray(memberships.planId, planIds), or(sql`${memberships.endsAt} > ${at}`, sql`${memberships.graceUntil} > ${at}`)))
          .returning({ id: memberships.planId });
  return { courses: courses.map((c) => c.id), plans: plans.map((p) => p.id) };
}

/** Records a refund the gateway refused: `failed`, its lines released (they may be refunded again), and the audit record. */
export async function failRefund(db: Db, refundId: number, why: string, at: Date): Promise<void> {
  await db.transaction(async (tx) => {
    const [refund] = await tx.select().from(orderRefunds).where(eq(orderRefunds.id, refundId)).for('update');
    if (!refund || refund.status !== 'requested') return;
    await tx.update(orderRefunds).set({ status: 'failed', failure: why, finishedAt: at }).where(eq(orderRefunds.id, refundId));
    await tx.delete(orderRefundLines).where(eq(orderRefundLines.refundId, refundId));
    await recordAudit(tx, { action: 'orders.refundFailed', actor: refund.actorId === null ? 'system' : userRef(refund.actorId), subject: orderRef(refund.orderId), after: { refund: refundId, amountCents: refund.amountCents, failure: why }, at });
  });
}

async function ownerOf(db: Db, orderId: number): Promise<number> {
  const [o] = await db.select({ userId: orders.userId }).from(orders).where(eq(orders.id, orderId));
  return o?.userId ?? 0;
}

/** What one run of the refund reconciler did, and whose access changed. */
export interface RefundReconcileReport {
  asked: number;
  refunded: number;
  failed: number;
  pending: number;
  errors: number;
  changedUsers: number[];
}

/** Finishes every refund left `requested` longer than `REFUND_RECONCILE_AFTER_MS`, asking the gateway again with its stored key. */
export async function reconcileRefunds(db: Db, gateway: PaymentGateway, at: Date, opts: RefundOptions = {}): Promise<RefundReconcileReport> {
  const report: RefundReconcileReport = { asked: 0, refunded: 0, failed: 0, pending: 0, errors: 0, changedUsers: [] };
  const stuck = await db
    .select()
    .from(orderRefunds)
    .where(and(eq(orderRefunds.status, 'requested'), lt(orderRefunds.createdAt, new Date(at.getTime() - REFUND_RECONCILE_AFTER_MS))))
    .orderBy(orderRefunds.createdAt)
    .limit(200);
  for (const refund of stuck) {
    report.asked++;
    try {
      const r = await pursueRefund(db, gateway, refund, () => at, opts);
      if (r.status === 'refunded') {
        report.refunded++;
        report.changedUsers.push(r.userId);
      } else if (r.status === 'pending') report.pending++;
      else report.failed++;
    } catch (err) {
      report.errors++;
      opts.log?.error({ refundId: refund.id, err: err instanceof Error ? err.message : String(err) }, 'refund not reconciled');
    }
  }
  return report;
}

/**
 * A refund's state from the gateway's webhook (Stripe's refund events), found by the gateway's refund
 * id or by the key in its metadata: `succeeded` finishes it, `failed` fails it (a refund already
 * finished is left as it is); repeats change nothing. Returns whose access changed, if anyone's.
 */
export async function refundReported(db: Db, event: { refundId: string; refundKey: string | null; status: 'succeeded' | 'pending' | 'failed' }, at: Date): Promise<{ done: 'unknown' | 'unchanged' | 'refunded' | 'failed'; userId: number | null }> {
  const [refund] = await db
    .select()
    .from(orderRefunds)
    .where(event.refundKey ? or(eq(orderRefunds.gatewayRefundId, event.refundId), eq(orderRefunds.idempotencyKey, event.refundKey)) : eq(orderRefunds.gatewayRefundId, event.refundId))
    .limit(1);
  if (!refund) return { done: 'unknown', userId: null };
  if (refund.status !== 'requested') return { done: 'unchanged', userId: null };
  if (event.status === 'pending') {
    await db.update(orderRefunds).set({ gatewayRefundId: event.refundId }).where(and(eq(orderRefunds.id, refund.id), ne(orderRefunds.status, 'refunded')));
    return { done: 'unchanged', userId: null };
  }
  if (event.status === 'failed') {
    await failRefund(db, refund.id, 'gateway-failed', at);
    return { done: 'failed', userId: null };
  }
  const r = await finishRefund(db, refund.id, event.refundId, at);
  return { done: r.repeated ? 'unchanged' : 'refunded', userId: r.userId };
}

/** Registers the refund reconciler: every minute, once per slot across processes. */
export function registerRefundReconciler(scheduler: Scheduler, db: Db, gateway: PaymentGateway, onChanged: (userId: number) => void | Promise<void>, log?: Logger, intervalMs = 60_000): void {
  scheduler.every('refund-reconciler', intervalMs, async ({ now }) => {
    const report = await reconcileRefunds(db, gateway, now, log ? { log } : {});
    for (const userId of new Set(report.changedUsers)) await onChanged(userId);
  });
}

