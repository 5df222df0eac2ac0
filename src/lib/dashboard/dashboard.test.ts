import { describe, expect, it } from 'vitest';
import { messages } from '~/i18n';
import { changeOf, compared, dashboardCards, dashboardPeriods, figuresFor, type Dashboard } from './dashboard';

const iso = (d: Date) => d.toISOString();

describe('dashboardPeriods', () => {
  it('compares today so far with yesterday up to the same time, in UTC', () => {
    const { day } = dashboardPeriods(new Date('2026-11-27T14:30:00Z'));
    expect([iso(day.current.from), iso(day.current.to)]).toEqual(['2026-11-27T00:00:00.000Z', '2026-11-27T14:30:00.000Z']);
    expect([iso(day.previous.from), iso(day.previous.to)]).toEqual(['2026-11-26T00:00:00.000Z', '2026-11-26T14:30:00.000Z']);
  });

  it('compares this month so far with the same days of last month', () => {
    const { month, span } = dashboardPeriods(new Date('2026-11-27T14:30:00Z'));
    expect([iso(month.current.from), iso(month.current.to)]).toEqual(['2026-11-01T00:00:00.000Z', '2026-11-27T14:30:00.000Z']);
    expect([iso(month.previous.from), iso(month.previous.to)]).toEqual(['2026-10-01T00:00:00.000Z', '2026-10-27T14:30:00.000Z']);
    expect([iso(span.from), iso(span.to)]).toEqual(['2026-10-01T00:00:00.000Z', '2026-11-27T14:30:00.000Z']);
  });

  it('cuts last month at its end when this month is longer, and crosses the year in January', () => {
    const march = dashboardPeriods(new Date('2027-03-31T10:00:00Z')).month.previous;
    expect([iso(march.from), iso(march.to)]).toEqual(['2027-02-01T00:00:00.000Z', '2027-03-01T00:00:00.000Z']);
    const january = dashboardPeriods(new Date('2027-01-01T08:00:00Z'));
    expect(iso(january.month.previous.from)).toBe('2026-12-01T00:00:00.000Z');
    expect(iso(january.month.previous.to)).toBe('2026-12-01T08:00:00.000Z');
    expect(iso(january.day.previous.from)).toBe('2026-12-31T00:00:00.000Z');
    expect(iso(january.span.from)).toBe('2026-12-01T00:00:00.000Z');
  });

  it('starts the span at yesterday when yesterday began before last month (a 1st after a 1st)', () => {
    // On 1 March, yesterday (28 Feb) is inside February, which is last month: the span starts on 1 Feb.
    const { span, day } = dashboardPeriods(new Date('2027-03-01T00:00:00Z'));
    expect(iso(span.from)).toBe('2027-02-01T00:00:00.000Z');
    expect(day.current.from.getTime()).toBe(day.current.to.getTime());
  });

  it('refuses an invalid instant', () => {
    expect(() => dashboardPeriods(new Date('nope'))).toThrow(RangeError);
  });
});

describe('changeOf', () => {
  it('goes up or down by an amount and a whole percent', () => {
    expect(changeOf(15, 10)).toEqual({ direction: 'up', delta: 5, percent: 50 });
    expect(changeOf(2, 3)).toEqual({ direction: 'down', delta: 1, percent: 33 });
    expect(changeOf(0, 7)).toEqual({ direction: 'down', delta: 7, percent: 100 });
    expect(changeOf(1, 200)).toEqual({ direction: 'down', delta: 199, percent: 100 });
    expect(changeOf(201, 200)).toEqual({ direction: 'up', delta: 1, percent: 1 });
    expect(changeOf(1_000_000_00, 1)).toEqual({ direction: 'up', delta: 99_999_999, percent: 9_999_999_900 });
  });

  it('is new when the previous period had none, and the same when nothing changed: never NaN or Infinity', () => {
    expect(changeOf(4, 0)).toEqual({ direction: 'new', delta: 4 });
    expect(changeOf(0, 0)).toEqual({ direction: 'same', delta: 0, percent: 0 });
    expect(changeOf(9, 9)).toEqual({ direction: 'same', delta: 0, percent: 0 });
    for (const [a, b] of [[0, 0], [5, 0], [0, 5], [3, 7]] as const) {
      const c = changeOf(a, b);
      expect(Object.values(c).every((v) => typeof v !== 'number' || Number.isFinite(v))).toBe(true);
    }
  });

  it('refuses what is not a whole non-negative figure', () => {
    for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53]) {
      expect(() => changeOf(bad, 1)).toThrow(RangeError);
      expect(() => changeOf(1, bad)).toThrow(RangeError);
    }
  });

  it('keeps both figures beside the change', () => {
    expect(compared(3, 1)).toEqual({ current: 3, previous: 1, change: { direction: 'up', delta: 2, percent: 200 } });
  });
});

describe('figuresFor', () => {
  const staff = (...roles: ('administrator' | 'editor' | 'support' | 'finance')[]) => ({ session: 'user' as const, roles });
  it('shows every figure to an administrator', () => {
    expect(figuresFor(staff('administrator'))).toEqual(['newLearners', 'activeLearners', 'completions', 'revenue', 'openSupport']);
  });
  it('shows money to finance and the support queue to support only', () => {
    expect(figuresFor(staff('editor'))).toEqual(['newLearners', 'activeLearners', 'completions']);
    expect(figuresFor(staff('finance'))).toEqual(['newLearners', 'activeLearners', 'completions', 'revenue']);
    expect(figuresFor(staff('support'))).toEqual(['newLearners', 'activeLearners', 'completions', 'openSupport']);
    expect(figuresFor(staff('editor', 'finance'))).toEqual(['newLearners', 'activeLearners', 'completions', 'revenue']);
  });
  it('shows nothing to a learner, an IBO session or a visitor', () => {
    expect(figuresFor(staff())).toEqual([]);
    expect(figuresFor({ session: 'ibo', roles: [] })).toEqual([]);
    expect(figuresFor({ session: 'visitor', roles: [] })).toEqual([]);
  });
});

describe('dashboardCards', () => {
  const dashboard: Dashboard = {
    at: new Date('2026-11-27T12:00:00Z'),
    periods: {
      newLearners: { day: compared(1234, 1000), month: compared(0, 0) },
      revenue: { day: compared(4990, 0), month: compared(100_000, 250_050) },
    },
    openSupport: 7,
  };

  it('writes each figure, its previous figure and its change in words, money like the rest of the site', () => {
    const [day, month, now] = dashboardCards(dashboard, 'en', messages('en').dashboardFigures);
    expect(day!.heading).toBe('Today');
    expect(day!.cards).toEqual([
      { figure: 'newLearners', label: 'New learners', value: '1,234', previous: 'Yesterday by this time: 1,000', change: { direction: 'up', arrow: '↑', text: 'Up 234 (23%)' } },
      { figure: 'revenue', label: 'Revenue', value: '$49.90', previous: 'Yesterday by this time: $0.00', change: { direction: 'new', arrow: '+', text: 'New: there were none before' } },
    ]);
    expect(month!.cards.map((c) => c.change?.text)).toEqual(['No change', 'Down $1,500.50 (60%)']);
    expect(now!.cards).toEqual([{ figure: 'openSupport', label: 'Open support messages', value: '7', previous: 'New or in progress.', change: null }]);
  });

  it('speaks Spanish', () => {
    const [day, month] = dashboardCards(dashboard, 'es', messages('es').dashboardFigures);
    expect(day!.cards[0]!.change!.text).toBe('Sube 234 (23 %)');
    expect(day!.cards[0]!.previous).toBe('Ayer a esta hora: 1,000');
    expect(month!.cards[1]!.previous).toMatch(/^Mismos días del mes pasado: \$2,500\.50$/);
  });

  it('leaves out the groups with nothing the reader may see', () => {
    const groups = dashboardCards({ at: dashboard.at, periods: { completions: { day: compared(0, 1), month: compared(2, 1) } } }, 'en', messages('en').dashboardFigures);
    expect(groups.map((g) => g.key)).toEqual(['day', 'month']);
    expect(groups[0]!.cards.map((c) => c.figure)).toEqual(['completions']);
  });
});
