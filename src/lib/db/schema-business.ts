/**
 * The IBO's business area: the nudges an IBO sent its people (one e-mail from the academy each, sent by
 * a job enqueued in the same transaction), and the changes to each IBO's business that its kept pages
 * are checked against. Part of the one schema (`schema.ts` re-exports it).
 */
import { bigint, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { contacts, ibos } from './schema';

/**
 * A nudge: an e-mail from the academy to one of an IBO's people, in the person's language, encouraging
 * them to go on learning. Counted per person (one a week from the same IBO) and per IBO (a day's
 * allowance); `request_key` makes a form sent twice one nudge.
 */
export const nudges = pgTable(
  'nudges',
  {
    id: serial().primaryKey(),
    iboId: integer()
      .notNull()
      .references(() => ibos.id, { onDelete: 'cascade' }),
    contactId: integer()
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    /** The language of the e-mail: the person's own, else the page the IBO sent it from. */
    locale: text({ enum: ['es', 'en'] }).notNull(),
    /** The form's one-time key: a double submit finds the nudge already made. */
    requestKey: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** When its e-mail went out (null: still queued). */
    sentAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex('nudges_ibo_request_uq').on(t.iboId, t.requestKey),
    // The IBO's allowance of the day, and a person's last nudge from it.
    index('nudges_ibo_created_idx').on(t.iboId, t.createdAt),
    index('nudges_contact_created_idx').on(t.contactId, t.createdAt),
  ],
);
export type Nudge = typeof nudges.$inferSelect;

/**
 * What changed of each IBO's business, counted: the database adds a row `(ibo, 1)` in the same
 * transaction as every write an IBO's pages show (its people, their progress and consent, its orders,
 * commissions, payouts, visits, nudges, its own record and its team's; `0`: every IBO's, a commission
 * rate). Writers only insert, so they never wait for one another; a recurring job merges each IBO's
 * rows into one holding their sum (`ibo_changes_merge()`). An IBO's sum only grows with each committed
 * change, so a page kept with the sums it began from is current while they are the same (migration 0040).
 */
export const iboChanges = pgTable(
  'ibo_changes',
  {
    /** The IBO (not a reference: `0` stands for every IBO, and an IBO's rows outlive nothing). */
    iboId: integer().notNull(),
    n: bigint({ mode: 'number' }).notNull().default(1),
  },
  (t) => [index('ibo_changes_ibo_idx').on(t.iboId)],
);
