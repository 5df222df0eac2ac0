/**
 * Refunds of orders made from the back office, and the embedded sandbox gateway's own record of the
 * refunds it made. Part of the one schema (`schema.ts` re-exports it).
 *
 * A refund is written `requested` with the key the gateway is given before the gateway is called, so a
 * process killed in between leaves a row that a retry (the same form) or the reconciler finishes with
 * that same key: the gateway makes one refund whatever the repeats. At most one refund of an order is
 * in flight (a partial unique index), and a line is refunded once (its unique index).
 */
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { orderItems, orders, users } from './schema';

/** One refund of an order (whole or some lines), asked for by a staff person with a reason. */
export const orderRefunds = pgTable(
  'order_refunds',
  {
    id: serial().primaryKey(),
    orderId: integer()
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    /** The refund form's key: the same form posted twice is one refund. */
    requestKey: text().notNull(),
    /** The key the gateway is given (stored before the call). */
    idempotencyKey: text().notNull().unique(),
    gateway: text().notNull(),
    /** The charge refunded (the order's approved payment attempt). */
    chargeId: text().notNull(),
    amountCents: integer().notNull(),
    reason: text().notNull(),
    actorId: integer().references(() => users.id, { onDelete: 'set null' }),
    status: text({ enum: ['requested', 'refunded', 'failed'] })
      .notNull()
      .default('requested'),
    /** The gateway's refund id (Stripe's `re_…`), once it answered. */
    gatewayRefundId: text(),
    /** Why the gateway refused it (a `failed` refund). */
    failure: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex('order_refunds_request_uq').on(t.orderId, t.requestKey),
    // One refund of an order in flight at a time, whatever the number of processes.
    uniqueIndex('order_refunds_in_flight_uq').on(t.orderId).where(sql`${t.status} = 'requested'`),
    index('order_refunds_gateway_idx').on(t.gatewayRefundId),
    check('order_refunds_amount_ck', sql`${t.amountCents} > 0`),
  ],
);
export type OrderRefund = typeof orderRefunds.$inferSelect;

/** The lines a refund covers and the share of each; a line is in at most one refund (a failed refund's lines are released). */
export const orderRefundLines = pgTable(
  'order_refund_lines',
  {
    refundId: integer()
      .notNull()
      .references(() => orderRefunds.id, { onDelete: 'cascade' }),
    orderItemId: integer()
      .notNull()
      .references(() => orderItems.id, { onDelete: 'cascade' }),
    amountCents: integer().notNull(),
  },
  (t) => [uniqueIndex('order_refund_lines_item_uq').on(t.orderItemId), index('order_refund_lines_refund_idx').on(t.refundId)],
);
export type OrderRefundLine = typeof orderRefundLines.$inferSelect;

/** The sandbox gateway's refunds, by the key it was given: the same key again is the same refund. */
export const sandboxRefunds = pgTable('sandbox_refunds', {
  idempotencyKey: text().primaryKey(),
  chargeId: text().notNull(),
  refundId: text().notNull().unique(),
  amountCents: integer().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
