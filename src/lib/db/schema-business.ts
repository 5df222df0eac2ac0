/**
 * The IBO's business area: the nudges an IBO sent its people (one e-mail from the academy each, sent by
 * a job enqueued in the same transaction). Part of the one schema (`schema.ts` re-exports it).
 */
import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
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
