/**
 * An IBO's funnel, pure: the period read as the reports read it (the last 30 days by default; reversed,
 * longer than two years or with control characters refused 400), another IBO named in the address
 * refused 403 whatever else it asks, the period before of the same length, the conversion between
 * steps and the change against the period before, written in each language.
 */
import { describe, expect, it } from 'vitest';
import { changeOf, funnelSteps, previousPeriod, readBusinessPeriod } from './funnel';
import { changeText } from './funnel-view';

const NOW = new Date('2026-11-28T10:00:00Z');
const read = (query: string, own = 7) => readBusinessPeriod(new URLSearchParams(query), NOW, own);

describe("an IBO's funnel period", () => {
  it('reads the last 30 days by default, cut by day, the IBO being the account\'s own', () => {
    const r = read('');
    expect(r).toMatchObject({ ok: true, period: { fromDay: '2026-10-30', toDay: '2026-11-28', bucket: 'day', iboId: 7 } });
  });

  it('takes the period before of the same length, ending where the period starts', () => {
    const r = read('from=2026-11-01&to=2026-11-10');
    if (!r.ok) throw new Error(r.error);
    expect(r.previous).toMatchObject({ fromDay: '2026-10-22', toDay: '2026-10-31' });
    expect(r.previous.to.getTime()).toBe(r.period.from.getTime());
    expect(r.previous.to.getTime() - r.previous.from.getTime()).toBe(r.period.to.getTime() - r.period.from.getTime());
    // A year is cut into weeks, and so is the year before it.
    const year = read('from=2025-11-29&to=2026-11-28');
    expect(year.ok && [year.period.bucket, year.previous.fromDay, year.previous.toDay]).toEqual(['week', '2024-11-29', '2025-11-28']);
    expect(previousPeriod({ ...r.period }).fromDay).toBe('2026-10-22');
  });

  it('refuses a period reversed, of ten years, a day that is not one, or control characters, with the reason (400)', () => {
    expect(read('from=2026-11-10&to=2026-11-01')).toEqual({ ok: false, error: 'reversed', status: 400 });
    expect(read('from=2016-11-01&to=2026-11-01')).toEqual({ ok: false, error: 'tooLong', status: 400 });
    expect(read('from=2026-02-30')).toEqual({ ok: false, error: 'badDate', status: 400 });
    expect(read('from=2026-11-01%00')).toEqual({ ok: false, error: 'badInput', status: 400 });
    expect(read(`to=${'9'.repeat(100_000)}`)).toEqual({ ok: false, error: 'badInput', status: 400 });
  });

  it("refuses another IBO named in the address (403), and ignores every other report filter", () => {
    expect(read('ibo=8')).toEqual({ ok: false, error: 'otherIbo', status: 403 });
    expect(read('ibo=7&ibo=8')).toEqual({ ok: false, error: 'otherIbo', status: 403 });
    expect(read('ibo=abc')).toEqual({ ok: false, error: 'otherIbo', status: 403 });
    const own = read('ibo=7&course=3&category=1&business=2&bucket=month');
    expect(own.ok && own.period).toMatchObject({ iboId: 7, bucket: 'day' });
    expect(own.ok && ['courseId', 'categoryId', 'businessId'].some((k) => k in own.period)).toBe(false);
  });
});

describe("an IBO's funnel figures", () => {
  it('converts each step into the next, with no share where the step before had nothing', () => {
    const steps = funnelSteps({ visits: 200, prospects: 20, registered: 10, buyers: 0, revenue: 0 });
    expect(steps.map((s) => [s.step, s.count, s.ofPrevious])).toEqual([
      ['visits', 200, 100],
      ['prospects', 20, 10],
      ['registered', 10, 50],
      ['buyers', 0, 0],
    ]);
    expect(funnelSteps({ visits: 0, prospects: 3, registered: 0, buyers: 0, revenue: 0 })[1]!.ofPrevious).toBeNull();
  });

  it('says the change against the period before, signed, in each language', () => {
    expect(changeOf(15, 10)).toBeCloseTo(0.5);
    expect(changeOf(5, 0)).toBeNull();
    expect(changeText(15, 10, 'en')).toBe('+50%');
    expect(changeText(5, 10, 'es')).toMatch(/^−50\s?%$/);
    expect(changeText(10, 10, 'en')).toBe('0%');
    expect(changeText(4, 0, 'en')).toBe('nothing before');
    expect(changeText(4, 0, 'es')).toBe('sin datos antes');
    expect(changeText(0, 0, 'es')).toBe('—');
  });
});
