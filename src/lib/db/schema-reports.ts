/**
 * Reports: the affiliate-link visits counted per IBO and UTC day (the first step of the acquisition
 * funnel). Only a count: no visitor address, cookie or agent is kept. Part of the one schema
 * (`schema.ts` re-exports it).
 */
import { sql } from 'drizzle-orm';
import { bigint, boolean, check, date, index, integer, pgTable, primaryKey, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import { contacts, courses, examAttempts, ibos, orderItems } from './schema';

/** How many times an active IBO's affiliate link was followed on one UTC day (one upsert per visit). */
export const affiliateVisits = pgTable(
  'affiliate_visits',
  {
    iboId: integer()
      .notNull()
      .references(() => ibos.id, { onDelete: 'cascade' }),
    day: date({ mode: 'string' }).notNull(),
    visits: integer().notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.iboId, t.day] }),
    // The acquisition report reads a date range of every IBO: by day first.
    index('affiliate_visits_day_idx').on(t.day),
    check('affiliate_visits_positive_ck', sql`${t.visits} >= 0`),
  ],
);

/**
 * One row per contact and course they began (their first lesson progress there): how far they got,
 * kept by the database's own triggers on `tracking`, `exam_attempts` and `certificates` (migration
 * 0034), so that every write path (the progress writer, grading and regrading, issuing and revoking,
 * a lesson removed, a person erased) keeps it exact in its own transaction. The reports' enrolments
 * and progress funnel read it instead of two million progress rows; `enrolments_rebuild()` refills it
 * from those rows (the migration, the data-set generator).
 */
export const enrolments = pgTable(
  'enrolments',
  {
    contactId: integer()
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    courseId: integer()
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    /** The `created_at` of the contact's earliest progress row on the course. */
    startedAt: timestamp({ withTimezone: true }).notNull(),
    /** Their progress rows on the course with a completion. */
    lessonsDone: integer().notNull().default(0),
    /** Their first passed attempt at the course's exam, if any. */
    passedAt: timestamp({ withTimezone: true }),
    /** When their certificate of the course was issued, unless it is revoked. */
    certifiedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.contactId, t.courseId] }),
    index('enrolments_started_idx').on(t.startedAt),
    index('enrolments_course_started_idx').on(t.courseId, t.startedAt),
    check('enrolments_lessons_done_ck', sql`${t.lessonsDone} >= 0`),
  ],
);
export type Enrolment = typeof enrolments.$inferSelect;

/**
 * One row per question of a graded exam attempt, kept by a trigger on `exam_attempts` whenever an
 * attempt's score is written (grading, the overdue sweep, a regrade): whether it was answered right
 * (exactly the right options of the version drawn) and the wrong options given. Item analysis reads
 * these instead of unpacking every attempt's answers.
 */
export const examItemResults = pgTable(
  'exam_item_results',
  {
    attemptId: integer()
      .notNull()
      .references(() => examAttempts.id, { onDelete: 'cascade' }),
    questionId: integer().notNull(),
    courseId: integer().notNull(),
    contactId: integer().notNull(),
    submittedAt: timestamp({ withTimezone: true }).notNull(),
    /** The attempt's score (the item's discrimination is its correlation with it). */
    score: smallint().notNull(),
    isRight: boolean().notNull(),
    /** The options given that are not right. */
    wrongOptions: integer().array().notNull(),
  },
  (t) => [primaryKey({ columns: [t.attemptId, t.questionId] }), index('exam_item_results_course_submitted_idx').on(t.courseId, t.submittedAt)],
);

/**
 * When each person was first active (lesson progress, an exam attempt started or graded) in each UTC day
 * and UTC month, kept by triggers on `tracking` and `exam_attempts` (migration 0035). The dashboard's
 * active learners of a period that began on a day's or a month's start and ends at an instant are the
 * rows of that day or month whose first activity is before the instant: a count of rows, not a distinct
 * count over every progress write of two months.
 */
export const learnerActivity = pgTable(
  'learner_activity',
  {
    /** `day` or `month`. */
    span: text().notNull(),
    /** The UTC day, or the first day of the UTC month. */
    starts: date({ mode: 'string' }).notNull(),
    contactId: integer()
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    firstAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.span, t.starts, t.contactId] }),
    // A person's rows, for their erasure's cascade; and their last active day (`span`, `starts` read
    // backwards from the index alone), for the IBO's people.
    index('learner_activity_contact_idx').on(t.contactId, t.span, t.starts),
    check('learner_activity_span_ck', sql`${t.span} in ('day', 'month')`),
  ],
);

/**
 * Revenue, one row per line of an order paid (or paid and then refunded): what the line earned after the
 * coupon (the order's discount spread over its lines by price, the last line taking the cents left, so
 * the lines add up to the total exactly) and what of it was refunded. Kept by triggers on `orders`,
 * `order_items`, `order_refunds` and `order_refund_lines` (migration 0036) through one function,
 * `revenue_lines_refresh`, which is the one definition of revenue; the revenue report reads these rows.
 */
export const revenueLines = pgTable(
  'revenue_lines',
  {
    lineId: integer()
      .primaryKey()
      .references(() => orderItems.id, { onDelete: 'cascade' }),
    orderId: integer().notNull(),
    paidAt: timestamp({ withTimezone: true }).notNull(),
    productKind: text().notNull(),
    productId: integer().notNull(),
    titleEs: text().notNull(),
    titleEn: text().notNull(),
    couponCode: text(),
    referringIboId: integer(),
    gross: bigint({ mode: 'number' }).notNull(),
    refunded: bigint({ mode: 'number' }).notNull(),
    /** The order's last line (its orders are counted once by counting these). */
    lastOfOrder: boolean().notNull(),
    /** The order's last line of this product kind. */
    lastOfKind: boolean().notNull(),
  },
  (t) => [index('revenue_lines_paid_idx').on(t.paidAt), index('revenue_lines_ibo_paid_idx').on(t.referringIboId, t.paidAt), index('revenue_lines_order_idx').on(t.orderId)],
);
