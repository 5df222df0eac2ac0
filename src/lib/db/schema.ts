/**
 * The academy's database schema: one Drizzle schema for embedded PGlite and PostgreSQL alike.
 * Column names are snake_case in SQL (the client and drizzle-kit both use `casing: 'snake_case'`).
 * Catalogue content is bilingual (`*_es` / `*_en` columns). Access rules set per course
 * (free for guests, hidden test courses, prerequisite, visible only to buyers, application id) are columns.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp({ withTimezone: true }).notNull().defaultNow();

/* ───────────── catalogue ───────────── */

/** Course categories (2 introductory, 3 basic, 4 intermediate, 5 trainings). */
export const categories = pgTable('categories', {
  id: integer().primaryKey(),
  nameEs: text().notNull(),
  nameEn: text().notNull(),
  position: smallint().notNull().default(0),
});
export type Category = typeof categories.$inferSelect;

/** Business lines a course belongs to (travel, entrepreneurship …). */
export const businesses = pgTable('businesses', {
  id: integer().primaryKey(),
  nameEs: text().notNull(),
  nameEn: text().notNull(),
  position: smallint().notNull().default(0),
});
export type Business = typeof businesses.$inferSelect;

/** A course: the catalogue's unit, with its access-rule columns. */
export const courses = pgTable(
  'courses',
  {
    id: integer().primaryKey(),
    code: text().notNull().unique(),
    nameEs: text().notNull(),
    nameEn: text().notNull(),
    descriptionEs: text().notNull().default(''),
    descriptionEn: text().notNull().default(''),
    thumbnail: text().notNull(),
    categoryId: integer()
      .notNull()
      .references(() => categories.id),
    businessId: integer()
      .notNull()
      .references(() => businesses.id),
    /** `allowAll`: guests (with prospect data) may open it. */
    allowAll: boolean().notNull().default(false),
    /** `test`: internal test courses never appear. */
    isTest: boolean().notNull().default(false),
    /** `value`: above 0 means paid, in USD. */
    price: numeric({ precision: 10, scale: 2 }).notNull().default('0.00'),
    /** A course that must be completed first (e.g. Real Vision 31 before 32). */
    prerequisiteCourseId: integer().references((): any => courses.id),
    /** Shown only to people who bought it (e.g. courses 10 and 16). */
    visibleOnlyToBuyers: boolean().notNull().default(false),
    /** The application the course belongs to (the academy is 10). */
    applicationId: integer().notNull().default(10),
    /** Taken off the catalogue by an editor (a new course starts hidden until it is published and shown). */
    hidden: boolean().notNull().default(false),
    /** Counts the publications of the course: a draft remembers the version it was based on. */
    version: integer().notNull().default(1),
    createdAt: createdAt(),
    updatedAt: createdAt(),
  },
  (t) => [
    index('courses_category_idx').on(t.categoryId),
    index('courses_business_idx').on(t.businessId),
    check('courses_price_non_negative', sql`${t.price} >= 0`),
    check('courses_not_own_prerequisite', sql`${t.prerequisiteCourseId} <> ${t.id}`),
  ],
);
export type Course = typeof courses.$inferSelect;

/** A module of a course (a "topic"). */
export const topics = pgTable(
  'topics',
  {
    id: serial().primaryKey(),
    courseId: integer()
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    code: text().notNull().unique(),
    nameEs: text().notNull(),
    nameEn: text().notNull(),
    position: smallint().notNull(),
  },
  (t) => [uniqueIndex('topics_course_position_uq').on(t.courseId, t.position)],
);
export type Topic = typeof topics.$inferSelect;

/** A lesson of a module (a "subtopic"). */
export const subtopics = pgTable(
  'subtopics',
  {
    id: serial().primaryKey(),
    topicId: integer()
      .notNull()
      .references(() => topics.id, { onDelete: 'cascade' }),
    code: text().notNull().unique(),
    nameEs: text().notNull(),
    nameEn: text().notNull(),
    summaryEs: text().notNull().default(''),
    summaryEn: text().notNull().default(''),
    position: smallint().notNull(),
  },
  (t) => [uniqueIndex('subtopics_topic_position_uq').on(t.topicId, t.position)],
);
export type Subtopic = typeof subtopics.$inferSelect;

/** A stored media file (resource `Adjuntos`): lesson videos, captions, documents. Never under public/. */
export const mediaFiles = pgTable('media_files', {
  id: serial().primaryKey(),
  /** The file's key in the storage (`runtime.storage`); the demo media are copied there from `MEDIA_DIR` under the same path. */
  storageKey: text().notNull().unique(),
  mimeType: text().notNull(),
  sizeBytes: integer().notNull(),
  durationSeconds: numeric({ precision: 10, scale: 2 }),
  createdAt: createdAt(),
});
export type MediaFile = typeof mediaFiles.$inferSelect;

/** Resource kinds (`IdTipoRecurso`). */
export const RESOURCE_TYPE = { video: 1, pdf: 2, link: 3 } as const;

/** A resource of a lesson: a video (with captions), a document or a link. */
export const resources = pgTable(
  'resources',
  {
    id: serial().primaryKey(),
    subtopicId: integer()
      .notNull()
      .references(() => subtopics.id, { onDelete: 'cascade' }),
    typeId: smallint().notNull(),
    mediaFileId: integer().references(() => mediaFiles.id),
    url: text(),
    titleEs: text().notNull(),
    titleEn: text().notNull(),
    position: smallint().notNull(),
  },
  (t) => [
    uniqueIndex('resources_subtopic_position_uq').on(t.subtopicId, t.position),
    check('resources_has_target', sql`${t.mediaFileId} is not null or ${t.url} is not null`),
  ],
);
export type Resource = typeof resources.$inferSelect;

/** A caption track of a video resource, one per language. */
export const captions = pgTable(
  'captions',
  {
    resourceId: integer()
      .notNull()
      .references(() => resources.id, { onDelete: 'cascade' }),
    lang: text().notNull(),
    mediaFileId: integer()
      .notNull()
      .references(() => mediaFiles.id),
  },
  (t) => [primaryKey({ columns: [t.resourceId, t.lang] })],
);

/* ───────────── people ───────────── */

/** User types: 1 learner, 2 refused at login, 3 administrator, 9 prospect created by an IBO. */
export const USER_TYPE = { learner: 1, refused: 2, admin: 3, prospect: 9 } as const;

/** A person with an account. */
export const users = pgTable(
  'users',
  {
    id: serial().primaryKey(),
    email: text().notNull(),
    passwordHash: text(),
    firstName: text().notNull(),
    lastName: text().notNull(),
    imageUrl: text(),
    userType: smallint().notNull().default(USER_TYPE.learner),
    gender: text(),
    birthDate: date(),
    /** The language the person chose for the mails we send them and the site after login; null: not chosen (the page's). */
    locale: text({ enum: ['es', 'en'] }),
    /** The user who created this one (an IBO's user for prospects; `mainUserId`). */
    mainUserId: integer().references((): any => users.id),
    createdBy: integer(),
    /** The IBO a referral link attributed this sign-up to (last touch before registering). */
    referredByIboId: integer().references((): any => ibos.id),
    /**
     * Whether the person lets the IBOs they are related to (the one whose link they signed up through, the
     * one that registered them as a prospect) see them and their progress: null = never chosen, the default
     * by relation (on for the IBO that registered them, off otherwise); true/false = their own choice.
     * The rule: `src/lib/business/consent.ts`.
     */
    iboSharing: boolean(),
    /** When the person opened the link that confirmed their address (null: not confirmed yet). */
    emailVerifiedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
    /** When staff blocked the account (null: not blocked): it cannot log in and its sessions read as none. */
    blockedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex('users_email_uq').on(sql`lower(${t.email})`),
    // The dashboard's new learners of a period count from `users_created_idx` alone (it holds the type).
    index('users_created_idx').on(t.createdAt, t.userType),
    // The back office's people search: trigram matching on the folded full name and address (`search_fold`, migration 0002).
    index('users_search_name_idx').using('gin', sql`search_fold(${t.firstName} || ' ' || ${t.lastName}) gin_trgm_ops`),
    index('users_search_email_idx').using('gin', sql`lower(${t.email}) gin_trgm_ops`),
    // The acquisition report: the people an IBO brought, by the instant they registered. It also serves
    // every look-up by IBO (`referred_by_ibo_id = $1` implies the predicate), the IBO's foreign-key check
    // included: a second index on the column alone only cost every insert.
    index('users_referred_created_idx').on(t.referredByIboId, t.createdAt).where(sql`${t.referredByIboId} is not null`),
  ],
);
export type User = typeof users.$inferSelect;

/** An independent business owner (distributor), identified by a code. */
export const ibos = pgTable(
  'ibos',
  {
    id: serial().primaryKey(),
    /** The IBO's own account (its prospects' `mainUserId`). */
    userId: integer()
      .notNull()
      .references(() => users.id),
    /** Stored in upper case; looked up case-insensitively. */
    code: text().notNull().unique(),
    companyName: text().notNull(),
    /** The business line the company works in (travel, entrepreneurship …), when staff set one. */
    businessId: integer().references(() => businesses.id),
    /** The person to reach at the company, as staff typed it (may be empty for older IBOs). */
    contactName: text().notNull().default(''),
    contactEmail: text().notNull().default(''),
    contactPhone: text().notNull().default(''),
    /** The IBO that sponsored this one (its upline); never a loop. */
    sponsorIboId: integer().references((): any => ibos.id),
    imageUrl: text(),
    status: text({ enum: ['active', 'suspended'] })
      .notNull()
      .default('active'),
    createdAt: createdAt(),
  },
  (t) => [index('ibos_sponsor_idx').on(t.sponsorIboId), index('ibos_company_idx').on(t.companyName)],
);
export type Ibo = typeof ibos.$inferSelect;

/** A prospect or contact: the person whose progress is tracked (`IdContacto`). */
export const contacts = pgTable(
  'contacts',
  {
    id: serial().primaryKey(),
    /** The person's own account, when they have one. */
    userId: integer().references(() => users.id),
    firstName: text().notNull(),
    lastName: text().notNull(),
    email: text().notNull(),
    /** The IBO whose session registered this prospect (`userRelationId`). */
    iboId: integer().references(() => ibos.id),
    createdBy: integer(),
    /** When the person asked, from a nudge's link, to get no more nudges from IBOs (null: they may be nudged). */
    nudgesStoppedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('contacts_email_uq').on(sql`lower(${t.email})`),
    uniqueIndex('contacts_user_uq').on(t.userId),
    // The acquisition report: an IBO's prospects, by the instant they were registered.
    index('contacts_ibo_created_idx').on(t.iboId, t.createdAt).where(sql`${t.iboId} is not null`),
  ],
);
export type Contact = typeof contacts.$inferSelect;

/** A server session. Only the SHA-256 of the random cookie token is stored. */
export const sessions = pgTable(
  'sessions',
  {
    tokenHash: text().primaryKey(),
    kind: text({ enum: ['user', 'ibo', 'guest'] }).notNull(),
    userId: integer().references(() => users.id, { onDelete: 'cascade' }),
    iboId: integer().references(() => ibos.id, { onDelete: 'cascade' }),
    contactId: integer().references(() => contacts.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    lastSeenAt: createdAt(),
    /** The browser's User-Agent when the session started (shown as a short device label), at most 300 characters. */
    userAgent: text(),
    /** The client's address when the session started (shown masked). */
    address: text(),
    /** When this session proved the account's second factor: only then does it carry the account's staff roles. */
    secondFactorAt: timestamp({ withTimezone: true }),
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.expiresAt)],
);
export type Session = typeof sessions.$inferSelect;

/** Affiliate-link visits of one browser (random id in the `ref` cookie): first and last IBO. */
export const referrals = pgTable('referrals', {
  visitorId: text().primaryKey(),
  firstIboId: integer()
    .notNull()
    .references(() => ibos.id),
  firstAt: createdAt(),
  lastIboId: integer()
    .notNull()
    .references(() => ibos.id),
  lastAt: createdAt(),
  /** The account this browser later signed up or logged in as. */
  userId: integer().references(() => users.id, { onDelete: 'set null' }),
});
export type Referral = typeof referrals.$inferSelect;

/** A single-use password reset link; only the SHA-256 of its token is stored. */
export const passwordResets = pgTable(
  'password_resets',
  {
    tokenHash: text().primaryKey(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index('password_resets_user_idx').on(t.userId)],
);

/**
 * A single-use e-mail link: `verify` confirms the account's address, `change` moves the account to
 * `email` (the new address the link was sent to). Only the SHA-256 of its token is stored.
 */
export const emailTokens = pgTable(
  'email_tokens',
  {
    tokenHash: text().primaryKey(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text({ enum: ['verify', 'change'] }).notNull(),
    email: text().notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index('email_tokens_user_idx').on(t.userId)],
);

/* ───────────── learning ───────────── */

/** PostgreSQL `bit varying`, read and written as its text form ('0101…'), as both drivers return it. */
const bitVarying = customType<{ data: string; driverData: string }>({
  dataType: () => 'bit varying',
});

/** Progress of one contact on one lesson, written from its progress events. */
export const tracking = pgTable(
  'tracking',
  {
    id: serial().primaryKey(),
    contactId: integer()
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    courseId: integer()
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    subtopicId: integer()
      .notNull()
      .references(() => subtopics.id, { onDelete: 'cascade' }),
    /** Last reported position in seconds (`Avance`). */
    lastPosition: numeric({ precision: 10, scale: 2 }).notNull().default('0'),
    furthestPosition: numeric({ precision: 10, scale: 2 }).notNull().default('0'),
    /** Seconds actually played (not seeked over). */
    playedSeconds: numeric({ precision: 10, scale: 2 }).notNull().default('0'),
    /** Which seconds were played: one bit per started second (learning `Coverage`), merged with `|`. */
    watched: bitVarying(),
    completedAt: timestamp({ withTimezone: true }),
    /** When the last progress event was reported (the tracker's clock). */
    updatedAt: createdAt(),
    /** When the first progress of this lesson was stored: a contact's first on a course is their enrolment (reports). */
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('tracking_contact_subtopic_uq').on(t.contactId, t.subtopicId),
    // A contact's progress on a course; with `created_at` last, the reports find whether a row is the
    // contact's first on the course (an enrolment) in the index alone.
    index('tracking_contact_course_created_idx').on(t.contactId, t.courseId, t.createdAt),
    // The reports' progress funnel: the contacts active on one course in a period.
    index('tracking_course_updated_idx').on(t.courseId, t.updatedAt),
    // The dashboard's active learners of a period: who, read from the index alone.
    index('tracking_updated_idx').on(t.updatedAt, t.contactId),
  ],
);
export type Tracking = typeof tracking.$inferSelect;

/**
 * One person's credit clock (learning `spendCredit`): every second credited to the person, in any
 * lesson or course, is paid for at the player's fastest speed up to this instant, which may run ahead
 * of the present by the allowance only. A person watches one video at a time, so a burst over many
 * lessons at once (or many tabs, requests or app processes) shares one budget. The progress writer
 * locks the row, checks and advances it in the transaction that stores the seconds.
 */
export const trackingCredit = pgTable('tracking_credit', {
  contactId: integer()
    .primaryKey()
    .references(() => contacts.id, { onDelete: 'cascade' }),
  creditClock: timestamp({ withTimezone: true }).notNull(),
});
export type TrackingCredit = typeof trackingCredit.$inferSelect;

/** A course's exam settings (its "evaluation"). */
export const evaluations = pgTable('evaluations', {
  id: serial().primaryKey(),
  courseId: integer()
    .notNull()
    .unique()
    .references(() => courses.id, { onDelete: 'cascade' }),
  minutes: smallint().notNull(),
  questionCount: smallint().notNull(),
  passingScore: smallint().notNull(),
  maxAttempts: smallint().notNull(),
});
export type Evaluation = typeof evaluations.$inferSelect;

/**
 * A question of an evaluation's bank. A row an attempt drew is never changed again: an edit writes a
 * new version (`replacesId` names the row it replaces) and retires the old one (`retiredAt`), so an
 * attempt keeps the version it drew. The pool drawn for new attempts is the rows not retired.
 */
export const questions = pgTable(
  'questions',
  {
    id: serial().primaryKey(),
    evaluationId: integer()
      .notNull()
      .references(() => evaluations.id, { onDelete: 'cascade' }),
    /** `single` (one right option), `multiple` (one or more) or `true-false` (exams `QUESTION_KINDS`). */
    kind: text().$type<'single' | 'multiple' | 'true-false'>().notNull().default('single'),
    promptEs: text().notNull(),
    promptEn: text().notNull(),
    /** Shown after grading on the learner's result page (empty: none). */
    explanationEs: text().notNull().default(''),
    explanationEn: text().notNull().default(''),
    position: smallint().notNull(),
    /** The version this row replaces (an edit of a question attempts had drawn). */
    replacesId: integer().references((): AnyPgColumn => questions.id, { onDelete: 'set null' }),
    /** When the row left the pool (replaced by a new version, or retired by an editor). */
    retiredAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    // Positions are unique among the questions in the pool; retired versions keep theirs.
    uniqueIndex('questions_evaluation_position_uq').on(t.evaluationId, t.position).where(sql`${t.retiredAt} is null`),
    index('questions_replaces_idx').on(t.replacesId),
    check('questions_kind_ck', sql`${t.kind} in ('single', 'multiple', 'true-false')`),
  ],
);
export type Question = typeof questions.$inferSelect;

/** An answer option of a question. */
export const questionOptions = pgTable(
  'question_options',
  {
    id: serial().primaryKey(),
    questionId: integer()
      .notNull()
      .references(() => questions.id, { onDelete: 'cascade' }),
    textEs: text().notNull(),
    textEn: text().notNull(),
    isCorrect: boolean().notNull(),
    position: smallint().notNull(),
  },
  (t) => [uniqueIndex('question_options_question_position_uq').on(t.questionId, t.position)],
);
export type QuestionOption = typeof questionOptions.$inferSelect;

/** One attempt at an exam: the drawn questions, the deadline, and the graded answers. */
export const examAttempts = pgTable(
  'exam_attempts',
  {
    id: serial().primaryKey(),
    evaluationId: integer()
      .notNull()
      .references(() => evaluations.id, { onDelete: 'cascade' }),
    contactId: integer()
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    attemptNumber: smallint().notNull(),
    questionIds: jsonb().$type<number[]>().notNull(),
    /** Each drawn question's option order, as shown (by question id). */
    optionOrder: jsonb().$type<Record<string, number[]>>().notNull().default({}),
    /** The options given for each question (by question id), saved as each answer is given. */
    answers: jsonb().$type<Record<string, number[]>>(),
    startedAt: createdAt(),
    deadlineAt: timestamp({ withTimezone: true }).notNull(),
    /** When it was graded: submitted by the learner, or graded by the server after the deadline. */
    submittedAt: timestamp({ withTimezone: true }),
    score: smallint(),
    passed: boolean(),
    /**
     * The question versions whose key a regrade scored the attempt with, by drawn question id (options
     * matched by position); `null`, or a question not named: the version drawn.
     */
    gradedKeys: jsonb().$type<Record<string, number>>(),
  },
  (t) => [
    uniqueIndex('exam_attempts_number_uq').on(t.evaluationId, t.contactId, t.attemptNumber),
    // At most one attempt in progress per person and exam, and the overdue ones found fast.
    uniqueIndex('exam_attempts_open_uq').on(t.evaluationId, t.contactId).where(sql`${t.submittedAt} is null`),
    index('exam_attempts_deadline_idx').on(t.deadlineAt).where(sql`${t.submittedAt} is null`),
    // The dashboard's active learners of a period: who, read from the index alone.
    index('exam_attempts_started_idx').on(t.startedAt, t.contactId),
    index('exam_attempts_submitted_idx').on(t.submittedAt, t.contactId).where(sql`${t.submittedAt} is not null`),
    // The exam report: one exam's graded attempts in a period.
    index('exam_attempts_evaluation_submitted_idx').on(t.evaluationId, t.submittedAt).where(sql`${t.submittedAt} is not null`),
  ],
);
export type ExamAttempt = typeof examAttempts.$inferSelect;

/* ───────────── certificates ───────────── */

/**
 * A certificate of completion: one per person and course (issuing again returns this one), with its
 * public verification code and the holder's name as it was when issued. `credential` is the signed
 * Open Badges VC-JWT, kept as first signed so a download and the verification page check the same bytes.
 */
export const certificates = pgTable(
  'certificates',
  {
    id: serial().primaryKey(),
    contactId: integer()
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    courseId: integer()
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    /** `ACAD-XXXX-XXXX-XXXX-XXXX` (certificates `newVerificationCode`). */
    code: text().notNull(),
    holderName: text().notNull(),
    issuedAt: timestamp({ withTimezone: true }).notNull(),
    revokedAt: timestamp({ withTimezone: true }),
    /** Why staff revoked it: told to the holder, kept in the audit trail, never shown on the public verification page. */
    revokedReason: text(),
    /** The signed credential (compact VC-JWT); null until first signed (certificates the seed wrote). */
    credential: text(),
  },
  (t) => [uniqueIndex('certificates_code_uq').on(t.code), uniqueIndex('certificates_contact_course_uq').on(t.contactId, t.courseId), index('certificates_course_idx').on(t.courseId), index('certificates_issued_idx').on(t.issuedAt)],
);
export type Certificate = typeof certificates.$inferSelect;

/* ───────────── commerce ───────────── */

/** A book sold through the cart. */
export const books = pgTable('books', {
  id: integer().primaryKey(),
  code: text().notNull().unique(),
  titleEs: text().notNull(),
  titleEn: text().notNull(),
  author: text().notNull(),
  descriptionEs: text().notNull(),
  descriptionEn: text().notNull(),
  price: numeric({ precision: 10, scale: 2 }).notNull(),
  /** The cover's address: a demo image under `public/` (`/images/books/1.webp`) or an uploaded one (`/media/book-cover/…`). */
  cover: text().notNull(),
  /** Hidden by staff: off the books page and out of carts; buyers keep their downloads. */
  hidden: boolean().notNull().default(false),
  /** The storage key of the PDF staff uploaded; null: the PDF is drawn for each buyer from the description. */
  pdfKey: text(),
  updatedAt: timestamp({ withTimezone: true }),
});
export type Book = typeof books.$inferSelect;

/** A membership plan and the categories it unlocks. */
export const plans = pgTable('plans', {
  id: integer().primaryKey(),
  code: text().notNull().unique(),
  nameEs: text().notNull(),
  nameEn: text().notNull(),
  descriptionEs: text().notNull(),
  descriptionEn: text().notNull(),
  price: numeric({ precision: 10, scale: 2 }).notNull(),
  period: text({ enum: ['month', 'year'] }).notNull(),
  featuresEs: jsonb().$type<string[]>().notNull(),
  featuresEn: jsonb().$type<string[]>().notNull(),
  unlocksCategoryIds: jsonb().$type<number[]>().notNull(),
  updatedAt: timestamp({ withTimezone: true }),
});
export type Plan = typeof plans.$inferSelect;

/** The card brands an order may record (commerce `CARD_BRANDS`). */
const cardBrand = () => text({ enum: ['visa', 'mastercard', 'amex', 'discover', 'diners', 'jcb', 'unknown'] });

/**
 * An order placed through the checkout. One per checkout: its idempotency key (issued by the server
 * for one checkout form, bound to the person) is unique per person, so however many times the form
 * is posted, at once or later, there is one order and one charge. Amounts are integer cents. Of the
 * card only brand, last 4 and expiry are kept: never its number or CVV.
 */
export const orders = pgTable(
  'orders',
  {
    id: serial().primaryKey(),
    userId: integer()
      .notNull()
      .references(() => users.id),
    status: text({ enum: ['pending', 'paid', 'failed', 'refunded'] })
      .notNull()
      .default('pending'),
    /** The items' sum, before the coupon. */
    subtotalCents: integer().notNull(),
    discountCents: integer().notNull().default(0),
    /** What is charged: subtotal less discount. */
    totalCents: integer().notNull(),
    currencyCode: text().notNull().default('USD'),
    countryCode: text().notNull().default('USA'),
    /** The coupon's code as applied (null without one). */
    couponCode: text(),
    /** The IBO whose affiliate link the buyer followed last (the referral record's last touch), for commissions. */
    referringIboId: integer().references(() => ibos.id),
    /** The language the buyer checked out in: the receipt and its e-mail use it. */
    language: text({ enum: ['es', 'en'] })
      .notNull()
      .default('es'),
    idempotencyKey: text().notNull(),
    /** Why the payment failed (declined, insufficient-funds), or the last retryable error (processing-error). */
    failureReason: text(),
    cardBrand: cardBrand(),
    cardLast4: text(),
    cardExpiryMonth: smallint(),
    cardExpiryYear: smallint(),
    createdAt: createdAt(),
    paidAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex('orders_user_idempotency_uq').on(t.userId, t.idempotencyKey),
    index('orders_user_created_idx').on(t.userId, t.createdAt),
    // The year of orders export: keyset pages in creation order.
    index('orders_created_idx').on(t.createdAt, t.id),
    // The dashboard's revenue of a period.
    index('orders_paid_idx').on(t.paidAt).where(sql`${t.status} = 'paid'`),
    // The revenue report: orders paid in a period, the refunded ones too (their refunds are shown).
    index('orders_revenue_idx').on(t.paidAt).where(sql`${t.status} in ('paid', 'refunded')`),
    // The acquisition report: the buyers an IBO brought in a period.
    index('orders_referring_paid_idx').on(t.referringIboId, t.paidAt).where(sql`${t.referringIboId} is not null`),
    // A coupon's uses, newest first.
    index('orders_coupon_idx').on(t.couponCode, t.createdAt).where(sql`${t.couponCode} is not null`),
    check('orders_amounts_ck', sql`${t.subtotalCents} >= 0 and ${t.discountCents} >= 0 and ${t.discountCents} <= ${t.subtotalCents} and ${t.totalCents} = ${t.subtotalCents} - ${t.discountCents}`),
    check('orders_card_last4_ck', sql`${t.cardLast4} is null or ${t.cardLast4} ~ '^[0-9]{4}$'`),
  ],
);
export type Order = typeof orders.$inferSelect;

/** A line of an order (an entry of the purchase payload's `details`), with the product's title and price as they were when bought. */
export const orderItems = pgTable(
  'order_items',
  {
    id: serial().primaryKey(),
    orderId: integer()
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    productKind: text({ enum: ['course', 'book', 'plan'] }).notNull(),
    productId: integer().notNull(),
    productCode: text().notNull(),
    titleEs: text().notNull(),
    titleEn: text().notNull(),
    priceCents: integer().notNull(),
    /** When a refund of this line was confirmed by the gateway (its access removed then); null while it stands. */
    refundedAt: timestamp({ withTimezone: true }),
  },
  (t) => [uniqueIndex('order_items_order_product_uq').on(t.orderId, t.productKind, t.productId), check('order_items_price_ck', sql`${t.priceCents} > 0`)],
);
export type OrderItem = typeof orderItems.$inferSelect;

/**
 * One charge of an order at the gateway: `started` while it is being made (at most one at a time per
 * order), then the gateway's answer. `payload` is the purchase payload as sent (no card data).
 */
export const paymentAttempts = pgTable(
  'payment_attempts',
  {
    id: serial().primaryKey(),
    orderId: integer()
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    attemptNumber: smallint().notNull(),
    gateway: text().notNull(),
    /** The key the gateway was given (one per attempt: a repeat is answered, never charged again). */
    idempotencyKey: text().notNull(),
    chargeId: text(),
    /** `void`: the gateway never charged this key, and the reconciler closed it (a process died before the charge). */
    status: text({ enum: ['started', 'approved', 'declined', 'insufficient-funds', 'processing-error', 'void'] })
      .notNull()
      .default('started'),
    amountCents: integer().notNull(),
    payload: jsonb(),
    createdAt: createdAt(),
    finishedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex('payment_attempts_number_uq').on(t.orderId, t.attemptNumber),
    // One charge in flight per order, whatever the number of processes.
    uniqueIndex('payment_attempts_started_uq').on(t.orderId).where(sql`${t.status} = 'started'`),
  ],
);
export type PaymentAttempt = typeof paymentAttempts.$inferSelect;

/**
 * The embedded sandbox gateway's own books (not the academy's): each idempotency key it was given and
 * what it answered, so a restarted or another process finds a charge a dead one made. `void`: a key the
 * reconciler asked about before any charge was made under it, closed for good.
 */
export const sandboxCharges = pgTable('sandbox_charges', {
  idempotencyKey: text().primaryKey(),
  fingerprint: text().notNull(),
  status: text({ enum: ['approved', 'declined', 'insufficient-funds', 'processing-error', 'void'] }).notNull(),
  chargeId: text().unique(),
  amountCents: integer().notNull(),
  currency: text().notNull(),
  token: text().notNull(),
  /** The first refund's key and id (`sandbox_refunds` holds every refund). */
  refundKey: text(),
  refundId: text(),
  /** What was refunded of it so far, all refunds together. */
  refundedCents: integer().notNull().default(0),
  createdAt: createdAt(),
});

/** A discount code: a whole percent or a fixed amount off, valid from an optional start to an optional expiry, with a maximum of uses and a minimum total. */
export const coupons = pgTable(
  'coupons',
  {
    id: serial().primaryKey(),
    /** Upper case (commerce `normalizeCouponCode`). */
    code: text().notNull().unique(),
    kind: text({ enum: ['percent', 'fixed'] }).notNull(),
    percent: smallint(),
    amountCents: integer(),
    /** The instant it starts working (inclusive); null for at once. */
    startsAt: timestamp({ withTimezone: true }),
    expiresAt: timestamp({ withTimezone: true }),
    maxUses: integer(),
    /** Orders holding it (paid, or being paid); counted in the statement that checks the limit. */
    uses: integer().notNull().default(0),
    minimumTotalCents: integer().notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    check('coupons_discount_ck', sql`(${t.kind} = 'percent' and ${t.percent} between 1 and 100) or (${t.kind} = 'fixed' and ${t.amountCents} > 0)`),
    check('coupons_uses_ck', sql`${t.uses} >= 0 and (${t.maxUses} is null or ${t.uses} <= ${t.maxUses})`),
    check('coupons_window_ck', sql`${t.startsAt} is null or ${t.expiresAt} is null or ${t.startsAt} <= ${t.expiresAt}`),
  ],
);
export type CouponRow = typeof coupons.$inferSelect;

/** A coupon held by an order (released when its payment fails). */
export const couponRedemptions = pgTable(
  'coupon_redemptions',
  {
    orderId: integer()
      .primaryKey()
      .references(() => orders.id, { onDelete: 'cascade' }),
    couponId: integer()
      .notNull()
      .references(() => coupons.id),
    userId: integer()
      .notNull()
      .references(() => users.id),
    discountCents: integer().notNull(),
    createdAt: createdAt(),
  },
  // A coupon's uses, newest first, a page at a time.
  (t) => [index('coupon_redemptions_coupon_idx').on(t.couponId, t.createdAt)],
);

/** Identification document types the payment form offers, named in each language. */
export const identificationTypes = pgTable('identification_types', {
  id: integer().primaryKey(),
  nameEs: text().notNull(),
  nameEn: text().notNull(),
  position: smallint().notNull().default(0),
});
export type IdentificationType = typeof identificationTypes.$inferSelect;

/** Access a person bought to a course. */
export const purchaseAccess = pgTable(
  'purchase_access',
  {
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    courseId: integer()
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    orderId: integer().references(() => orders.id),
    grantedAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.courseId] })],
);

/** An active or past membership of a user in a plan. */
export const memberships = pgTable(
  'memberships',
  {
    id: serial().primaryKey(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    planId: integer()
      .notNull()
      .references(() => plans.id),
    orderId: integer().references(() => orders.id),
    startsAt: createdAt(),
    /** The end of the period paid for. */
    endsAt: timestamp({ withTimezone: true }).notNull(),
    period: text({ enum: ['month', 'year'] })
      .notNull()
      .default('month'),
    /** What each renewal charges (the price paid), integer cents. */
    priceCents: integer().notNull().default(0),
    /** When the learner cancelled: no renewal, access until `endsAt`. */
    cancelledAt: timestamp({ withTimezone: true }),
    /** After a failed renewal: access and retries until then (3 days after `endsAt`). */
    graceUntil: timestamp({ withTimezone: true }),
    /** The next renewal try after a failed one (null: at `endsAt`). */
    nextTryAt: timestamp({ withTimezone: true }),
    /** How many renewals were charged. */
    renewals: integer().notNull().default(0),
    /** The gateway and its saved token the renewals charge; the card only as brand and last 4. */
    gateway: text(),
    gatewayToken: text(),
    cardBrand: text(),
    cardLast4: text(),
  },
  (t) => [index('memberships_user_idx').on(t.userId), index('memberships_renewal_idx').on(t.endsAt).where(sql`${t.cancelledAt} is null`)],
);
export type Membership = typeof memberships.$inferSelect;

/* ───────────── contact form ───────────── */

/** Types a contact-us message can have (the site's form uses id 8). */
export const contactUsTypes = pgTable('contact_us_types', {
  id: integer().primaryKey(),
  descriptionEs: text().notNull(),
  descriptionEn: text().notNull(),
});
export type ContactUsType = typeof contactUsTypes.$inferSelect;

/** A message sent through the contact form. */
export const contactMessages = pgTable('contact_messages', {
  id: serial().primaryKey(),
  typeId: integer()
    .notNull()
    .references(() => contactUsTypes.id),
  name: text().notNull(),
  lastName: text().notNull(),
  email: text().notNull(),
  countryPhoneCode: text().notNull(),
  phone: text().notNull(),
  description: text().notNull(),
  countryCode: text().notNull(),
  language: text().notNull(),
  accepts: boolean().notNull(),
  createdAt: createdAt(),
  /** Where support is with it: `new`, `in_progress`, `answered`, `closed` (`lib/support`). */
  status: text({ enum: ['new', 'in_progress', 'answered', 'closed'] }).notNull().default('new'),
  /** The staff person it is assigned to (support or administrator), if anyone. */
  assigneeId: integer().references(() => users.id, { onDelete: 'set null' }),
}, (t) => [index('contact_messages_status_idx').on(t.status, t.createdAt), index('contact_messages_created_idx').on(t.createdAt, t.id)]);
export type ContactMessage = typeof contactMessages.$inferSelect;

/* ───────────── scheduled work ───────────── */

/**
 * One run of a recurring job per time slot (`floor(now / interval)`): the process whose insert wins
 * runs it, so each slot runs once however many processes share the database.
 */
export const jobRuns = pgTable(
  'job_runs',
  {
    name: text().notNull(),
    slot: bigint({ mode: 'number' }).notNull(),
    worker: text().notNull(),
    startedAt: createdAt(),
    finishedAt: timestamp({ withTimezone: true }),
    error: text(),
  },
  (t) => [primaryKey({ columns: [t.name, t.slot] }), index('job_runs_started_idx').on(t.startedAt)],
);

/**
 * Work to do once at a given time (an exam's deadline, a membership's renewal): claimed by one worker
 * at a time with a lease (`FOR UPDATE SKIP LOCKED`), retried with backoff, done once.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: serial().primaryKey(),
    name: text().notNull(),
    /** Enqueueing the same key twice gives one job. */
    key: text().unique(),
    payload: jsonb().notNull().default({}),
    runAt: timestamp({ withTimezone: true }).notNull(),
    attempts: integer().notNull().default(0),
    lockedBy: text(),
    lockedUntil: timestamp({ withTimezone: true }),
    doneAt: timestamp({ withTimezone: true }),
    lastError: text(),
    createdAt: createdAt(),
  },
  (t) => [index('jobs_due_idx').on(t.runAt).where(sql`${t.doneAt} is null`)],
);
export type Job = typeof jobs.$inferSelect;

/**
 * Rate-limit counts every process shares (the limits that guard money on every layout, and all limits
 * of several processes without Redis): one row per limit and key, counted by one atomic upsert, so a
 * burst of requests spread over processes cannot pass a limit. Expired rows are purged by a job.
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    /** The limit's name and the counted key (`paymentFailuresPerAccount:user:7`). */
    key: text().primaryKey(),
    points: integer().notNull(),
    /** When the window ends and the count starts again. */
    expire: timestamp({ withTimezone: true }),
  },
  (t) => [index('rate_limits_expire_idx').on(t.expire)],
);

/* ───────────── a person's data: archives and the audit trail ───────────── */

/**
 * An archive of a person's own data, asked for from "My data": built by a background job into the data
 * folder and mailed as a link valid for a week. Only the SHA-256 of the link's token is stored.
 */
export const dataExports = pgTable(
  'data_exports',
  {
    id: serial().primaryKey(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text().notNull().unique(),
    /** The language of the archive's mail (the page it was asked from). */
    locale: text({ enum: ['es', 'en'] })
      .notNull()
      .default('es'),
    requestedAt: createdAt(),
    /** When the archive was written (its file is `<dataDir>/exports/<id>.zip`). */
    readyAt: timestamp({ withTimezone: true }),
    /** When its link was mailed; the link works until `expiresAt`. */
    mailedAt: timestamp({ withTimezone: true }),
    expiresAt: timestamp({ withTimezone: true }),
  },
  (t) => [index('data_exports_user_idx').on(t.userId)],
);
export type DataExport = typeof dataExports.$inferSelect;

/**
 * What was done, by whom, to what, and when: never personal data (no names, e-mails or free text),
 * only references (`user:7`), an action name and facts (counts, dates, states) before and after.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: serial().primaryKey(),
    at: createdAt(),
    /** `privacy.export.requested`, `privacy.deletion.scheduled` … */
    action: text().notNull(),
    /** Who did it: `user:7`, `staff:3`, `job`. */
    actor: text().notNull(),
    /** What it was done to: `user:7`, `order:12`, or an opaque reference. */
    subject: text().notNull(),
    before: jsonb().$type<Record<string, unknown>>(),
    after: jsonb().$type<Record<string, unknown>>(),
  },
  (t) => [index('audit_events_subject_idx').on(t.subject, t.at), index('audit_events_at_idx').on(t.at), index('audit_events_action_idx').on(t.action, t.at)],
);
export type AuditEvent = typeof auditEvents.$inferSelect;

export * from './schema-staff';
export * from './schema-authoring';
export * from './schema-videos';
export * from './schema-support';
export * from './schema-people';
export * from './schema-memberships';
export * from './schema-reports';
export * from './schema-orders';
export * from './schema-business';
export * from './schema-commissions';
