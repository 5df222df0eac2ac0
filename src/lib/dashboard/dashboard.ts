/**
 * The back office's dashboard figures, pure: the periods they cover (in UTC: the academy keeps every
 * instant in UTC and has no time zone of its own), the change of a figure against its previous period,
 * and which staff roles may see each figure. The queries live in `dashboard.server.ts`.
 */
import { format, type Locale } from '~/i18n';
import type { Messages } from '~/i18n/types';
import { accessVerdict, STAFF_ROLES, type Caller, type StaffRole } from '../access/policy';
import { formatCents } from '../commerce/money';

/* ───────────── who sees what ───────────── */

/** The figures of the dashboard, in the order the page shows them. */
export const DASHBOARD_FIGURES = ['newLearners', 'activeLearners', 'completions', 'revenue', 'openSupport'] as const;
export type DashboardFigure = (typeof DASHBOARD_FIGURES)[number];

/** The figures counted over a period (the open support messages are a count of now). */
export type PeriodFigure = Exclude<DashboardFigure, 'openSupport'>;

/**
 * The staff access each figure asks: `staff` is any staff role; a role is that role or administrator
 * (the policy's `STAFF_GRANTS`). Money is finance's, the support queue is support's.
 */
export const DASHBOARD_FIGURE_ACCESS: Readonly<Record<DashboardFigure, StaffRole | 'staff'>> = {
  newLearners: 'staff',
  activeLearners: 'staff',
  completions: 'staff',
  revenue: 'finance',
  openSupport: 'support',
};

/** The figures `caller` may see, in the dashboard's order (none for a caller without a staff role). */
export function figuresFor(caller: Caller): DashboardFigure[] {
  const allowed = (access: StaffRole | 'staff') =>
    (access === 'staff' ? STAFF_ROLES : [access]).some((role) => accessVerdict(role, caller) === 'allowed');
  return DASHBOARD_FIGURES.filter((f) => allowed(DASHBOARD_FIGURE_ACCESS[f]));
}

/* ───────────── periods ───────────── */

/** The instants from `from` (included) to `to` (excluded). */
export interface Period {
  from: Date;
  to: Date;
}

/** A period and the one it is compared with. */
export interface Comparison {
  current: Period;
  previous: Period;
}

/** The dashboard's two comparisons, and the span every query reads (from the earliest start to now). */
export interface DashboardPeriods {
  /** Today so far, against yesterday up to the same time of day. */
  day: Comparison;
  /** This month so far, against the same days (and hours) of last month, cut at its end. */
  month: Comparison;
  span: Period;
}

const DAY_MS = 86_400_000;

/** The comparisons at `now` (UTC days and months). */
export function dashboardPeriods(now: Date): DashboardPeriods {
  const at = now.getTime();
  if (!Number.isFinite(at)) throw new RangeError('Not an instant');
  const dayStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const monthStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
  const lastMonthStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1);
  const day: Comparison = {
    current: { from: new Date(dayStart), to: new Date(at) },
    previous: { from: new Date(dayStart - DAY_MS), to: new Date(at - DAY_MS) },
  };
  const month: Comparison = {
    current: { from: new Date(monthStart), to: new Date(at) },
    // The same time into last month; on the 31st after a 30-day month, the whole of last month.
    previous: { from: new Date(lastMonthStart), to: new Date(Math.min(lastMonthStart + (at - monthStart), monthStart)) },
  };
  return { day, month, span: { from: new Date(Math.min(lastMonthStart, dayStart - DAY_MS)), to: new Date(at) } };
}

/* ───────────── the change ───────────── */

/**
 * A figure's change against the previous period: `up`/`down` by `delta` (always positive) and `percent`
 * (whole, rounded half away from zero); `same`; or `new` when the previous period had none (no percent
 * of nothing).
 */
export type Change = { direction: 'up' | 'down'; delta: number; percent: number } | { direction: 'same'; delta: 0; percent: 0 } | { direction: 'new'; delta: number };

function assertCount(value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`Not a figure: ${String(value)}`);
}

/** The change from `previous` to `current` (non-negative whole numbers: counts, or cents). */
export function changeOf(current: number, previous: number): Change {
  assertCount(current);
  assertCount(previous);
  if (current === previous) return { direction: 'same', delta: 0, percent: 0 };
  if (previous === 0) return { direction: 'new', delta: current };
  const delta = Math.abs(current - previous);
  return { direction: current > previous ? 'up' : 'down', delta, percent: Math.round((delta * 100) / previous) };
}

/** A figure in a period and in the previous one, with its change. */
export interface ComparedFigure {
  current: number;
  previous: number;
  change: Change;
}

export const compared = (current: number, previous: number): ComparedFigure => ({ current, previous, change: changeOf(current, previous) });

/** A period figure today and this month, each against its previous period. */
export interface FigureComparisons {
  day: ComparedFigure;
  month: ComparedFigure;
}

/** The figures a reader may see (the others are absent). */
export interface Dashboard {
  at: Date;
  periods: Partial<Record<PeriodFigure, FigureComparisons>>;
  openSupport?: number;
}

/* ───────────── the cards ───────────── */

/** One card as the page draws it: every text already in the reader's language. */
export interface FigureCard {
  figure: DashboardFigure;
  label: string;
  value: string;
  /** The previous period's figure, in words ("Yesterday by this time: 3"). */
  previous: string;
  /** The change in words (never colour or an arrow alone), and its arrow. */
  change: { direction: Change['direction']; arrow: '↑' | '↓' | '=' | '+'; text: string } | null;
}

/** The dashboard's groups of cards: today's, this month's, and the counts of now. */
export interface FigureGroup {
  key: 'day' | 'month' | 'now';
  heading: string;
  cards: FigureCard[];
}

const ARROWS = { up: '↑', down: '↓', same: '=', new: '+' } as const;

/** A figure's value in `locale`: money in the site's format, counts grouped the same way (es-US and en-US, as prices are). */
export function figureValue(figure: DashboardFigure, value: number, locale: Locale): string {
  return figure === 'revenue' ? formatCents(value, locale) : new Intl.NumberFormat(locale === 'en' ? 'en-US' : 'es-US').format(value);
}

/** The cards of `dashboard`, grouped, in the dashboard's order; a group without cards is left out. */
export function dashboardCards(dashboard: Dashboard, locale: Locale, t: Messages['dashboardFigures']): FigureGroup[] {
  const periodCards = (key: 'day' | 'month'): FigureCard[] =>
    DASHBOARD_FIGURES.flatMap((figure) => {
      const compared = figure === 'openSupport' ? undefined : dashboard.periods[figure]?.[key];
      if (!compared) return [];
      const { change } = compared;
      const value = (n: number) => figureValue(figure, n, locale);
      const text = change.direction === 'same' ? t.change.same : change.direction === 'new' ? t.change.new : format(t.change[change.direction], { delta: value(change.delta), percent: figureValue('newLearners', change.percent, locale) });
      return [{ figure, label: t.figures[figure], value: value(compared.current), previous: format(t.previous[key], { value: value(compared.previous) }), change: { direction: change.direction, arrow: ARROWS[change.direction], text } }];
    });
  const now: FigureCard[] =
    dashboard.openSupport === undefined ? [] : [{ figure: 'openSupport', label: t.figures.openSupport, value: figureValue('openSupport', dashboard.openSupport, locale), previous: t.openSupportLead, change: null }];
  const groups: FigureGroup[] = [
    { key: 'day', heading: t.today, cards: periodCards('day') },
    { key: 'month', heading: t.month, cards: periodCards('month') },
    { key: 'now', heading: t.now, cards: now },
  ];
  return groups.filter((g) => g.cards.length > 0);
}
