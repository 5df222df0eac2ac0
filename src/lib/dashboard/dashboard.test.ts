import { describe, expect, it } from 'vitest';
import { changeOf, compared, dashboardPeriods, figuresFor } from './dashboard';

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
