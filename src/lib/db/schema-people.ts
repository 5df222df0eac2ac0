/**
 * The back office's people area: courses staff granted by hand, each with who granted it and why (the
 * access itself is the course's `purchase_access` row, without an order). Part of the one schema
 * (`schema.ts` re-exports it).
 */
import { index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { courses, users } from './schema';

/** A course staff granted to a person, with the reason they gave (shown on the person's page, never in the audit's facts). */
export const courseGrants = pgTable(
  'course_grants',
  {
    id: serial().primaryKey(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    courseId: integer()
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    grantedBy: integer().references(() => users.id, { onDelete: 'set null' }),
    reason: text().notNull(),
    grantedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('course_grants_user_idx').on(t.userId, t.grantedAt)],
);
export type CourseGrant = typeof courseGrants.$inferSelect;
