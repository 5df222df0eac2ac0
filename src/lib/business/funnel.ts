/**
 * An IBO's funnel over a period, pure: the period read from the page's query (the reports' own reading,
 * with only `from` and `to`: the IBO is the one the account owns, never one named in the address), the
 * period before it of the same length, the conversion between steps and each figure's change against
 * the period before. The figures are read by `funnel.server.ts`.
 *
 * The steps: visits through the IBO's links (counted per day, no visitor's address stored), prospects the
 * IBO registered, people who signed up through the IBO's link, and buyers whose order the IBO referred;
 * revenue (what those orders earned, less what was refunded) is shown beside them, not as a step.
 */
import { namesOtherIbo } from './business';
import { funnel, readReportFilter, type FilterError, type FunnelStep, type ReportFilter } from '../reports/reports';

/** The funnel's steps, in order (the acquisition report's). */
export const BUSINESS_FUNNEL_STEPS = ['visits', 'prospects', 'registered', 'buyers'] as const;
export type BusinessFunnelStep = (typeof BUSINESS_FUNNEL_STEPS)[number];

/** A period's figures: the four steps' counts and revenue in cents (net of refunds). */
export type FunnelFigures = Record<BusinessFunnelStep, number> & { revenue: number };

/** The figures of one bucket of the period (`bucket`: its first day, `YYYY-MM-DD`). */
export type FunnelBucket = FunnelFigures & { bucket: string };

/** Why a period was refused: the reports' reasons, or another IBO named in the query (403). */
export type PeriodError = FilterError | 'otherIbo';
export type PeriodResult = { ok: true; period: ReportFilter; previous: ReportFilter } | { ok: false; error: PeriodError; status: 400 | 403 };

const DAY_MS = 86_400_000;
/** The query's parameters the funnel reads; the page's language travels in the path. */
const READ = new Set(['from', 'to']);

/**
 * The period of `params` (`from`, `to` as `YYYY-MM-DD`; the last 30 days without them), refused as the
 * reports refuse it (a day that is not one, reversed, longer than two years, control characters). An
 * `ibo` other than `ownIboId` is refused 403: an IBO reads only its own business, whatever the address says.
 */
export function readBusinessPeriod(params: URLSearchParams, now: Date, ownIboId: number): PeriodResult {
  if (namesOtherIbo(params, ownIboId)) return { ok: false, error: 'otherIbo', status: 403 };
  const only = new URLSearchParams();
  for (const [key, value] of params) if (READ.has(key)) only.append(key, value);
  const read = readReportFilter(only, now);
  if (!read.ok) return { ok: false, error: read.error, status: 400 };
  const period: ReportFilter = { ...read.filter, iboId: ownIboId };
  return { ok: true, period, previous: previousPeriod(period) };
}

/** The period of the same number of days that ends where `period` starts, cut into the same buckets. */
export function previousPeriod(period: ReportFilter): ReportFilter {
  const length = period.to.getTime() - period.from.getTime();
  const from = new Date(period.from.getTime() - length);
  const day = (at: Date) => at.toISOString().slice(0, 10);
  return { ...period, from, to: period.from, fromDay: day(from), toDay: day(new Date(period.from.getTime() - DAY_MS)) };
}

/** The change of a figure against the period before, as a share (0.25 = 25 % more), or null when there was nothing before. */
export function changeOf(now: number, before: number): number | null {
  if (before === 0) return null;
  return (now - before) / before;
}

/** The steps of a period's funnel, with the conversion from each step to the next. */
export function funnelSteps(figures: FunnelFigures): FunnelStep<BusinessFunnelStep>[] {
  return funnel(BUSINESS_FUNNEL_STEPS.map((step) => ({ step, count: figures[step] })));
}

/** No figures: a period where nothing happened. */
export const NO_FIGURES: FunnelFigures = { visits: 0, prospects: 0, registered: 0, buyers: 0, revenue: 0 };
