/**
 * IBO commissions (migration 0039): the rates an administrator sets per product kind, with their history;
 * the commission ledger, whose entries are written by the database itself (`commissions_refresh`, run by
 * `revenue_lines_refresh` in the same transaction as every payment, refund and order change); and the
 * payouts that settle entries. Part of the one schema (`schema.ts` re-exports it).
 */
import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { ibos, users } from './schema';

/** A commission rate of a product kind, in force for orders paid from `effectiveFrom` until the next one's. */
export const commissionRates = pgTable(
  'commission_rates',
  {
    id: serial().primaryKey(),
    productKind: text({ enum: ['course', 'book', 'plan'] }).notNull(),
    /** Hundredths of a percent: 2000 is 20 %, 10000 is 100 %. */
    rateBp: integer().notNull(),
    effectiveFrom: timestamp({ withTimezone: true }).notNull(),
    actorId: integer().references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('commission_rates_kind_from_idx').on(t.productKind, t.effectiveFrom),
    check('commission_rates_kind_ck', sql`${t.productKind} in ('course', 'book', 'plan')`),
    check('commission_rates_rate_ck', sql`${t.rateBp} between 0 and 10000`),
  ],
);
export type CommissionRate = typeof commissionRates.$inferSelect;

/** A payout to an IBO recorded by an administrator: it settles every entry that names it. */
export const commissionPayouts = pgTable(
  'commission_payouts',
  {
    id: serial().primaryKey(),
    iboId: integer()
      .notNull()
      .references(() => ibos.id),
    /** The entries' sum: what was paid (always more than zero). */
    amountCents: bigint({ mode: 'number' }).notNull(),
    /** How many entries it settled. */
    entries: integer().notNull(),
    /** The payout form's key: the same form posted twice is one payout. */
    requestKey: text().notNull().unique(),
    /** The transfer's reference, as the administrator typed it (may be empty). */
    reference: text().notNull().default(''),
    actorId: integer().references(() => users.id, { onDelete: 'set null' }),
    paidAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index('commission_payouts_ibo_paid_idx').on(t.iboId, t.paidAt), check('commission_payouts_amount_ck', sql`${t.amountCents} > 0`)],
);
export type CommissionPayout = typeof commissionPayouts.$inferSelect;

/**
 * One entry of the commission ledger: a line's commission earned (positive), cancelled before any of it
 * was paid out or reversed after (negative). A line's entries add up to what its IBO is due on it now.
 * Never changed but for `payoutId`, set once by the payout that settles it.
 */
export const commissions = pgTable(
  'commissions',
  {
    id: serial().primaryKey(),
    iboId: integer()
      .notNull()
      .references(() => ibos.id),
    /** The order line (`order_items.id`); no foreign key: the ledger is kept as it was. */
    lineId: integer().notNull(),
    orderId: integer().notNull(),
    productKind: text({ enum: ['course', 'book', 'plan'] }).notNull(),
    kind: text({ enum: ['earned', 'cancelled', 'reversed'] }).notNull(),
    /** The rate in force when the order was paid, in hundredths of a percent. */
    rateBp: integer().notNull(),
    amountCents: bigint({ mode: 'number' }).notNull(),
    /** When the order was paid: the hold runs from it. */
    linePaidAt: timestamp({ withTimezone: true }).notNull(),
    /** When it happened: the payment (earned), the refund (cancelled, reversed). Statements are by this. */
    at: timestamp({ withTimezone: true }).notNull(),
    payoutId: integer().references(() => commissionPayouts.id),
  },
  (t) => [
    index('commissions_ibo_at_idx').on(t.iboId, t.at),
    index('commissions_ibo_unpaid_idx').on(t.iboId, t.linePaidAt).where(sql`${t.payoutId} is null`),
    index('commissions_order_idx').on(t.orderId),
    index('commissions_payout_idx').on(t.payoutId),
    check('commissions_kind_ck', sql`${t.kind} in ('earned', 'cancelled', 'reversed')`),
    check('commissions_amount_ck', sql`${t.amountCents} <> 0`),
  ],
);
export type CommissionEntry = typeof commissions.$inferSelect;
