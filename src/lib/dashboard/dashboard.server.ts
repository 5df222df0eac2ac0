/**
 * The dashboard's figures, one query each, read only for the figures the reader may see. Each period
 * figure counts its four periods (today, yesterday, this month, last month) in one pass over the span
 * from last month's start to now, found through an index on the instant it counts:
 *
 * - new learners: learner accounts created (`users.created_at`);
 * - active learners: people with lesson progress or an exam attempt started or graded in the period,
 *   read from `learner_activity` (each person's first activity of each UTC day and month, kept by the
 *   database's triggers on `tracking` and `exam_attempts`): a count of one row per person;
 * - completions: certificates issued and not revoked (`certificates.issued_at`): a certificate is issued
 *   once a course is completed, and is the only completion kept with its instant (`course_completions`
 *   only keeps, at a publication, who had completed a course before its lessons changed);
 * - revenue: paid orders' totals in cents by the instant they were paid (an order refunded before it
 *   counted as paid never reaches `paid`, so there is no refund to subtract);
 * - open support messages: contact messages `new` or `in_progress`, now.
 */
import { and, count, eq, gte, inArray, isNull, lt, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Db } from '../db/client';
import { certificates, contactMessages, learnerActivity, orders, USER_TYPE, users } from '../db/schema';
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

/** A UTC day or month's first day as `YYYY-MM-DD`. */
const dayOf = (at: Date) => at.toISOString().slice(0, 10);

async function activeLearners(db: Db, now: Date): Promise<FigureComparisons> {
  const { day, month } = dashboardPeriods(now);
  // Each period starts on its day's or month's start: a person was active in it when their first
  // activity of that day or month came before the period's end (the kept `learner_activity`).
  const activeIn = (span: 'day' | 'month', p: Period) =>
    sql`count(*) filter (where ${learnerActivity.span} = ${span} and ${learnerActivity.starts} = ${dayOf(p.from)} and ${learnerActivity.firstAt} < ${p.to.toISOString()}::timestamptz)`;
  const [row] = await db
    .select({ dayNow: activeIn('day', day.current), dayBefore: activeIn('day', day.previous), monthNow: activeIn('month', month.current), monthBefore: activeIn('month', month.previous) })
    .from(learnerActivity)
    .where(
      or(
        and(eq(learnerActivity.span, 'day'), inArray(learnerActivity.starts, [dayOf(day.current.from), dayOf(day.previous.from)])),
        and(eq(learnerActivity.span, 'month'), inArray(learnerActivity.starts, [dayOf(month.current.from), dayOf(month.previous.from)])),
      ),
    );
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
