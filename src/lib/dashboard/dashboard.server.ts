/**
 * The dashboard's figures, one query each, read only for the figures the reader may see. Each period
 * figure counts its four periods (today, yesterday, this month, last month) in one pass over the span
 * from last month's start to now, found through an index on the instant it counts:
 *
 * - new learners: learner accounts created (`users.created_at`);
 * - active learners: distinct people with lesson progress (`tracking.updated_at`) or an exam attempt
 *   started or graded (`exam_attempts`), grouped by person once and read from the indexes alone (each
 *   index on an instant also holds the person);
 * - completions: certificates issued and not revoked (`certificates.issued_at`): a certificate is issued
 *   once a course is completed, and is the only completion kept with its instant (`course_completions`
 *   only keeps, at a publication, who had completed a course before its lessons changed);
 * - revenue: paid orders' totals in cents by the instant they were paid (an order refunded before it
 *   counted as paid never reaches `paid`, so there is no refund to subtract);
 * - open support messages: contact messages `new` or `in_progress`, now.
 */
import { and, count, eq, gte, inArray, isNull, lt, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Db } from '../db/client';
import { certificates, contactMessages, examAttempts, orders, tracking, USER_TYPE, users } from '../db/schema';
import { OPEN_SUPPORT_STATUSES } from '../support/support';
import { compared, dashboardPeriods, type Dashboard, type DashboardFigure, type FigureComparisons, type Period, type PeriodFigure } from './dashboard';

const within = (column: SQLWrapper, p: Period): SQL => sql`${column} >= ${p.from.toISOString()}::timestamptz and ${column} < ${p.to.toISOString()}::timestamptz`;

/** Reads a count or a sum the database returns (a bigint may come back as a string). */
function whole(value: unknown): number {
  const n = typeof value === 'string' ? Number(value) : typeof value === 'number' ? value : value === null || value === undefined ? 0 : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`The database returned a figure that is not a whole number: ${String(value)}`);
  return n;
}

interface FourRows {
  dayNow: unknown;
  dayBefore: unknown;
  monthNow: unknown;
  monthBefore: unknown;
}

function comparisons(row: FourRows | undefined): FigureComparisons {
  return {
    day: compared(whole(row?.dayNow), whole(row?.dayBefore)),
    month: compared(whole(row?.monthNow), whole(row?.monthBefore)),
  };
}

/** An aggregate over the rows whose `at` falls in each of the four periods, as the columns of one select. */
function perPeriod(now: Date, aggregate: (rows: SQL) => SQL, at: SQLWrapper) {
  const { day, month } = dashboardPeriods(now);
  const col = (p: Period) => aggregate(sql`filter (where ${within(at, p)})`);
  return { dayNow: col(day.current), dayBefore: col(day.previous), monthNow: col(month.current), monthBefore: col(month.previous) };
}

async function newLearners(db: Db, now: Date): Promise<FigureComparisons> {
  const { span } = dashboardPeriods(now);
  const [row] = await db
    .select(perPeriod(now, (rows) => sql`count(*) ${rows}`, users.createdAt))
    .from(users)
    .where(and(eq(users.userType, USER_TYPE.learner), gte(users.createdAt, span.from), lt(users.createdAt, span.to)));
  return comparisons(row);
}

async function activeLearners(db: Db, now: Date): Promise<FigureComparisons> {
  const { span } = dashboardPeriods(now);
  const activity = db.$with('activity').as(
    db
      .select({ contactId: tracking.contactId, at: sql<Date>`${tracking.updatedAt}`.as('at') })
      .from(tracking)
      .where(and(gte(tracking.updatedAt, span.from), lt(tracking.updatedAt, span.to)))
      .unionAll(db.select({ contactId: examAttempts.contactId, at: sql<Date>`${examAttempts.startedAt}`.as('at') }).from(examAttempts).where(and(gte(examAttempts.startedAt, span.from), lt(examAttempts.startedAt, span.to))))
      .unionAll(db.select({ contactId: examAttempts.contactId, at: sql<Date>`${examAttempts.submittedAt}`.as('at') }).from(examAttempts).where(and(gte(examAttempts.submittedAt, span.from), lt(examAttempts.submittedAt, span.to)))),
  );
  // Each person once (which periods they were active in), then counted: one pass, where four distinct
  // counts would each sort every activity row of the span again.
  const active = perPeriod(now, (rows) => sql<boolean>`bool_or(true) ${rows}`, activity.at);
  const people = db
    .$with('people')
    .as(
      db
        .with(activity)
        .select({ contactId: activity.contactId, dayNow: active.dayNow.as('day_now'), dayBefore: active.dayBefore.as('day_before'), monthNow: active.monthNow.as('month_now'), monthBefore: active.monthBefore.as('month_before') })
        .from(activity)
        .groupBy(activity.contactId),
    );
  const [row] = await db
    .with(people)
    .select({
      dayNow: sql`count(*) filter (where ${people.dayNow})`,
      dayBefore: sql`count(*) filter (where ${people.dayBefore})`,
      monthNow: sql`count(*) filter (where ${people.monthNow})`,
      monthBefore: sql`count(*) filter (where ${people.monthBefore})`,
    })
    .from(people);
  return comparisons(row);
}

async function completions(db: Db, now: Date): Promise<FigureComparisons> {
  const { span } = dashboardPeriods(now);
  const [row] = await db
    .select(perPeriod(now, (rows) => sql`count(*) ${rows}`, certificates.issuedAt))
    .from(certificates)
    .where(and(gte(certificates.issuedAt, span.from), lt(certificates.issuedAt, span.to), isNull(certificates.revokedAt)));
  return comparisons(row);
}

async function revenue(db: Db, now: Date): Promise<FigureComparisons> {
  const { span } = dashboardPeriods(now);
  const [row] = await db
    .select(perPeriod(now, (rows) => sql`coalesce(sum(${orders.totalCents}) ${rows}, 0)::bigint`, orders.paidAt))
    .from(orders)
    .where(and(eq(orders.status, 'paid'), gte(orders.paidAt, span.from), lt(orders.paidAt, span.to)));
  return comparisons(row);
}

async function openSupport(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(contactMessages).where(inArray(contactMessages.status, [...OPEN_SUPPORT_STATUSES]));
  return whole(row?.n);
}

const PERIOD_QUERIES: Record<PeriodFigure, (db: Db, now: Date) => Promise<FigureComparisons>> = { newLearners, activeLearners, completions, revenue };

/** The `figures` (those the reader may see: `figuresFor`) at `now`. */
export async function loadDashboard(db: Db, figures: readonly DashboardFigure[], now: Date): Promise<Dashboard> {
  const dashboard: Dashboard = { at: now, periods: {} };
  for (const figure of figures) {
    if (figure === 'openSupport') dashboard.openSupport = await openSupport(db);
    else dashboard.periods[figure] = await PERIOD_QUERIES[figure](db, now);
  }
  return dashboard;
}
