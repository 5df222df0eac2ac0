/**
 * The payment reconciler: what a crash leaves behind is settled, so no order stays pending.
 *
 * A process that dies after recording a payment attempt `started` and before settling it leaves the
 * order pending with nobody waiting for the gateway's answer. Every minute (once across processes, by
 * the scheduler) the reconciler:
 * 1. asks the gateway about each attempt left `started` for longer than `RECONCILE_AFTER_MS` (longer
 *    than any charge takes), by the attempt's idempotency key, and settles it with the answer: paid with
 *    its access; failed; refunded when what it sells was bought meanwhile through another order; and
 *    when no charge was made under the key (the gateway closes it, so a charge still on its way is never
 *    made), the attempt is `void` and the order waits for the buyer's retry;
 * 2. fails, as `abandoned`, each checkout order still pending `ABANDONED_AFTER_MS` after it was placed
 *    with nothing in flight (a processing error nobody retried), giving its coupon back — or, when its
 *    last attempt took the money but the refund it needed was cut short, finishes that refund.
 * Renewal orders are left to the renewal job, which reconciles its own attempt before making another.
 * Each order is settled on its own: one that fails is logged and retried at the next run.
 */
import { and, desc, eq, lt, notLike, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { orders, paymentAttempts, users, type PaymentAttempt } from '../db/schema';
import type { Logger } from '../http/log.server';
import type { Scheduler } from '../jobs';
import type { PaymentGateway } from './gateway';
import { failOrder, settleAttempt, type Settled } from './settle.server';

/** An attempt still `started` after this long is in nobody's hands: no charge takes so long (Stripe's SDK gives up after 2 × 20 s). */
export const RECONCILE_AFTER_MS = 90_000;
/** A pending order with nothing in flight this long after it was placed is abandoned. */
export const ABANDONED_AFTER_MS = 15 * 60_000;
/** How often the reconciler runs. */
export const RECONCILE_INTERVAL_MS = 60_000;
/** Orders looked at per run at most (the next run takes the rest). */
const BATCH = 200;
/** The idempotency keys of renewal orders start with this (`memberships.server.ts`). */
export const RENEWAL_KEY_PREFIX = 'renewal-';

/** What became of one attempt in doubt. */
export type AttemptReconciled = { kind: 'unknown' } | ({ kind: 'settled' } & Settled);

/** Asks the gateway about one attempt left `started`, by its key, and settles it with the answer. */
export async function reconcileAttempt(db: Db, gateway: PaymentGateway, attempt: Pick<PaymentAttempt, 'orderId' | 'attemptNumber' | 'idempotencyKey' | 'createdAt'>, now: Date): Promise<AttemptReconciled> {
  const answer = await gateway.lookup({ idempotencyKey: attempt.idempotencyKey, startedAt: attempt.createdAt, now });
  if (answer.status === 'unknown') return { kind: 'unknown' };
  const settled = await settleAttempt(db, gateway, { orderId: attempt.orderId, attempt: attempt.attemptNumber, answer: answer.status === 'none' ? { status: 'void' } : answer, now });
  return { kind: 'settled', ...settled };
}

/** What one run did (counts), and whose access changed. */
export interface ReconcileReport {
  asked: number;
  paid: number;
  failed: number;
  refunded: number;
  voided: number;
  unknown: number;
  abandoned: number;
  errors: number;
  /** People whose access changed (paid orders): every process must forget what it kept of them. */
  changedUsers: number[];
}

/** One run of the reconciler at `now` (see the module's comment). */
export async function reconcilePayments(db: Db, gateway: PaymentGateway, now: Date, log?: Logger): Promise<ReconcileReport> {
  const report: ReconcileReport = { asked: 0, paid: 0, failed: 0, refunded: 0, voided: 0, unknown: 0, abandoned: 0, errors: 0, changedUsers: [] };
  const checkout = notLike(orders.idempotencyKey, `${RENEWAL_KEY_PREFIX}%`);

  const stuck = await db
    .select({ attempt: paymentAttempts, userId: orders.userId })
    .from(paymentAttempts)
    .innerJoin(orders, eq(orders.id, paymentAttempts.orderId))
    .where(and(eq(paymentAttempts.status, 'started'), lt(paymentAttempts.createdAt, new Date(now.getTime() - RECONCILE_AFTER_MS)), checkout))
    .orderBy(paymentAttempts.createdAt)
    .limit(BATCH);
  for (const { attempt, userId } of stuck) {
    report.asked++;
    try {
      const r = await reconcileAttempt(db, gateway, attempt, now);
      if (r.kind === 'unknown') report.unknown++;
      else count(report, r, userId);
      log?.warn({ orderId: attempt.orderId, attempt: attempt.attemptNumber, outcome: r.kind === 'unknown' ? 'unknown' : r.decision, order: r.kind === 'unknown' ? 'pending' : r.order.status }, 'payment attempt reconciled');
    } catch (err) {
      report.errors++;
      log?.error({ orderId: attempt.orderId, attempt: attempt.attemptNumber, err: err instanceof Error ? err.message : String(err) }, 'payment attempt not reconciled');
    }
  }

  // Pending with nothing in flight, placed long ago: abandoned (or a refund to finish).
  const idle = await db
    .select({ id: orders.id, userId: orders.userId })
    .from(orders)
    .where(
      and(
        eq(orders.status, 'pending'),
        lt(orders.createdAt, new Date(now.getTime() - ABANDONED_AFTER_MS)),
        checkout,
        sql`not exists (select 1 from ${paymentAttempts} where ${paymentAttempts.orderId} = ${orders.id} and ${paymentAttempts.status} = 'started')`,
      ),
    )
    .limit(BATCH);
  for (const { id, userId } of idle) {
    try {
      const [last] = await db.select().from(paymentAttempts).where(eq(paymentAttempts.orderId, id)).orderBy(desc(paymentAttempts.attemptNumber)).limit(1);
      if (last?.status === 'approved' && last.chargeId) {
        // The money was taken and a refund was due when the process stopped: finish it.
        count(report, await settleAttempt(db, gateway, { orderId: id, attempt: last.attemptNumber, answer: { status: 'approved', chargeId: last.chargeId, amountCents: last.amountCents }, now }), userId);
        continue;
      }
      const abandoned = await db.transaction(async (tx) => {
        await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
        const [order] = await tx.select().from(orders).where(eq(orders.id, id)).for('update');
        const [inFlight] = await tx.select({ id: paymentAttempts.id }).from(paymentAttempts).where(and(eq(paymentAttempts.orderId, id), eq(paymentAttempts.status, 'started'))).limit(1);
        if (order?.status !== 'pending' || inFlight) return false;
        await failOrder(tx, id, 'abandoned');
        return true;
      });
      if (abandoned) {
        report.abandoned++;
        log?.warn({ orderId: id }, 'pending order abandoned');
      }
    } catch (err) {
      report.errors++;
      log?.error({ orderId: id, err: err instanceof Error ? err.message : String(err) }, 'pending order not settled');
    }
  }
  return report;
}

function count(report: ReconcileReport, settled: Settled, userId: number): void {
  if (settled.decision === 'pay') {
    report.paid++;
    report.changedUsers.push(userId);
  } else if (settled.decision === 'fail') report.failed++;
  else if (settled.decision === 'refund') report.refunded++;
  else if (settled.decision === 'retryable') report.voided++;
}

/** Registers the reconciler: every minute, once per slot across processes. */
export function registerPaymentReconciler(scheduler: Scheduler, db: Db, gateway: PaymentGateway, onChanged: (userId: number) => void | Promise<void>, log?: Logger, intervalMs = RECONCILE_INTERVAL_MS): void {
  scheduler.every('payment-reconciler', intervalMs, async ({ now }) => {
    const report = await reconcilePayments(db, gateway, now, log);
    for (const userId of new Set(report.changedUsers)) await onChanged(userId);
  });
}
