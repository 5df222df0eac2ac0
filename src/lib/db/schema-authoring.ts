/**
 * Course authoring: a course's unpublished changes (its whole document as a draft, never live until
 * published) and the completions a publication keeps (a course completed before an edit stays
 * completed after it). Part of the one schema (`schema.ts` re-exports it).
 */
import { index, integer, jsonb, pgTable, primaryKey, timestamp } from 'drizzle-orm/pg-core';
import { contacts, courses, users } from './schema';

/** The draft of one course: its document (`lib/authoring` `CourseDoc`), who saved it last and when, and the live version it started from. */
export const courseDrafts = pgTable('course_drafts', {
  courseId: integer()
    .primaryKey()
    .references(() => courses.id, { onDelete: 'cascade' }),
  document: jsonb().$type<Record<string, unknown>>().notNull(),
  /** The course's `version` when the draft was started: a publication from an older one is refused. */
  baseVersion: integer().notNull(),
  updatedBy: integer().references(() => users.id, { onDelete: 'set null' }),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
export type CourseDraftRow = typeof courseDrafts.$inferSelect;

/**
 * A course a contact had completed when a publication changed its lessons: it stays completed whatever
 * the new lessons are (the live rule, every lesson done and the exam passed, decides for everyone else).
 */
export const courseCompletions = pgTable(
  'course_completions',
  {
    contactId: integer()
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    courseId: integer()
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    keptAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.contactId, t.courseId] }), index('course_completions_course_idx').on(t.courseId)],
);
