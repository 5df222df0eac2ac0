/**
 * The support inbox: what staff wrote about a contact message (internal notes and replies mailed to its
 * sender), kept with the message and deleted with it. Part of the one schema (`schema.ts` re-exports it).
 */
import { sql } from 'drizzle-orm';
import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { contactMessages, users } from './schema';

/**
 * One entry of a message's thread after the original: a `note` (staff only) or a `reply` (mailed to the
 * sender once: `sentAt` is set when the mail went out). `requestKey` is the form's idempotency key, so a
 * double submit writes (and mails) one reply.
 */
export const supportEntries = pgTable(
  'support_entries',
  {
    id: serial().primaryKey(),
    messageId: integer()
      .notNull()
      .references(() => contactMessages.id, { onDelete: 'cascade' }),
    kind: text({ enum: ['note', 'reply'] }).notNull(),
    authorId: integer().references(() => users.id, { onDelete: 'set null' }),
    body: text().notNull(),
    /** A reply's language (the sender's). */
    locale: text(),
    requestKey: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp({ withTimezone: true }),
  },
  (t) => [index('support_entries_message_idx').on(t.messageId, t.createdAt), uniqueIndex('support_entries_request_uq').on(t.messageId, t.requestKey).where(sql`${t.requestKey} is not null`)],
);
export type SupportEntry = typeof supportEntries.$inferSelect;
