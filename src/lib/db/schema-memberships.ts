/**
 * What finance staff did to a membership (extended it, cancelled it now or at the period's end, undid
 * that), with the reason they gave: the membership's history. The audit log records the same change by
 * reference (`membership:7`, the change's id), never the reason's words. Part of the one schema
 * (`schema.ts` re-exports it).
 */
import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { memberships, users } from './schema';

/**
 * One change staff made to a membership, written in the transaction that changed the row. `requestKey`
 * is the form's idempotency key: the same form posted twice (or again after a crash) finds the first
 * change instead of making a second.
 */
export const membershipChanges = pgTable(
  'membership_changes',
  {
    id: serial().primaryKey(),
    membershipId: integer()
      .notNull()
      .references(() => memberships.id, { onDelete: 'cascade' }),
    kind: text({ enum: ['extend', 'cancelNow', 'cancelAtEnd', 'resume'] }).notNull(),
    /** Days added (an extension), else null. */
    days: integer(),
    reason: text().notNull(),
    actorId: integer().references(() => users.id, { onDelete: 'set null' }),
    requestKey: text().notNull(),
    /** The period's end before and after the change. */
    endsBefore: timestamp({ withTimezone: true }).notNull(),
    endsAfter: timestamp({ withTimezone: true }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('membership_changes_membership_idx').on(t.membershipId, t.createdAt), uniqueIndex('membership_changes_request_uq').on(t.membershipId, t.requestKey)],
);
export type MembershipChangeRow = typeof membershipChanges.$inferSelect;
