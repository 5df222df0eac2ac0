import { describe, expect, it } from 'vitest';
import { bucketLabel, bucketStart, bucketsOf, csvCell, csvLine, fillBuckets, filterQuery, funnel, isReportKey, parseDay, readReportFilter, REPORT_ACCESS, REPORTS } from './reports';

const NOW = new Date('2026-11-27T15:00:00Z');
const read = (query: string) => readReportFilter(new URLSearchParams(query), NOW);

describe('report filters', () => {
  it('default to the last 30 days up to today, by day', () => {
    const r = read('');
    expect(r).toMatchObject({ ok: true, filter: { fromDay: '2026-10-29', toDay: '2026-11-27', bucket: 'day' } });
    if (r.ok) {
      expect(r.filter.from.toISOString()).toBe('2026-10-29T00:00:00.000Z');
      expect(r.filter.to.toISOString()).toBe('2026-11-28T00:00:00.000Z');
    }
  });

  it('read dates, bucket and every id filter, and write them back as a query', () => {
    const r = read('from=2026-01-01&to=2026-03-31&bucket=week&course=31&category=3&business=2&ibo=7&lang=en');
    expect(r).toMatchObject({ ok: true, filter: { fromDay: '2026-01-01', toDay: '2026-03-31', bucket: 'week', courseId: 31, categoryId: 3, businessId: 2, iboId: 7 } });
    if (r.ok) expect(read(filterQuery(r.filter).slice(1))).toEqual(r);
  });

  it('choose the bucket from the range when none is asked', () => {
    expect(read('from=2026-01-01&to=2026-12-31')).toMatchObject({ ok: true, filter: { bucket: 'week' } });
    expect(read('from=2025-01-01&to=2026-12-31')).toMatchObject({ ok: true, filter: { bucket: 'month' } });
  });

  it('take a lone "from" up to today, and empty values as absent', () => {
    expect(read('from=2026-11-01&to=&course=')).toMatchObject({ ok: true, filter: { fromDay: '2026-11-01', toDay: '2026-11-27' } });
  });

  it('accept exactly two years, refuse a day more', () => {
    expect(read('from=2024-11-28&to=2026-11-27').ok).toBe(true);
    expect(read('from=2024-11-26&to=2026-11-27')).toEqual({ ok: false, error: 'tooLong' });
    expect(read('from=2016-01-01&to=2026-01-01')).toEqual({ ok: false, error: 'tooLong' });
  });

  it.each([
    ['from=2026-03-01&to=2026-02-01', 'reversed'],
    ['from=2026-02-31', 'badDate'],
    ['from=yesterday', 'badDate'],
    ['to=2026-13-01', 'badDate'],
    ['from=1999-12-31', 'badDate'],
    ['course=0', 'badId'],
    ['course=-1', 'badId'],
    ["course=1'%20or%201=1", 'badId'],
    ['ibo=99999999999', 'badId'],
    ['category=1.5', 'badId'],
    ['bucket=year', 'badBucket'],
    ['course=1%00', 'badInput'],
    ['from=2026-01-01%0d%0a', 'badInput'],
    [`ibo=${'9'.repeat(100_000)}`, 'badInput'],
  ])('refuse %s (%s)', (query, error) => {
    expect(read(query)).toEqual({ ok: false, error });
  });

  it('ignore parameters they do not know, however long', () => {
    expect(read(`utm=${'x'.repeat(100_000)}`).ok).toBe(true);
  });

  it('parse days strictly', () => {
    expect(parseDay('2028-02-29')?.toISOString()).toBe('2028-02-29T00:00:00.000Z');
    expect(parseDay('2026-02-29')).toBeNull();
    expect(parseDay('2026-1-01')).toBeNull();
  });
});

describe('periods', () => {
  it('start weeks on Monday and months on the 1st', () => {
    expect(bucketStart(new Date('2026-11-29T23:59:59Z'), 'week')).toBe('2026-11-23'); // a Sunday
    expect(bucketStart(new Date('2026-11-23T00:00:00Z'), 'week')).toBe('2026-11-23');
    expect(bucketStart(new Date('2026-11-27T12:00:00Z'), 'month')).toBe('2026-11-01');
    expect(bucketStart(new Date('2026-11-27T12:00:00Z'), 'day')).toBe('2026-11-27');
  });

  it('list every bucket of a range, across a year end and a leap day', () => {
    const f = (from: string, to: string, bucket: 'day' | 'week' | 'month') => ({ from: parseDay(from)!, to: new Date(parseDay(to)!.getTime() + 86_400_000), bucket });
    expect(bucketsOf(f('2028-02-27', '2028-03-01', 'day'))).toEqual(['2028-02-27', '2028-02-28', '2028-02-29', '2028-03-01']);
    expect(bucketsOf(f('2026-12-30', '2027-01-12', 'week'))).toEqual(['2026-12-28', '2027-01-04', '2027-01-11']);
    expect(bucketsOf(f('2026-11-15', '2027-02-01', 'month'))).toEqual(['2026-11-01', '2026-12-01', '2027-01-01', '2027-02-01']);
    expect(bucketsOf(f('2025-01-01', '2026-12-31', 'day'))).toHaveLength(730);
  });

  it('fill the buckets the query found nothing in with zero', () => {
    const filter = { from: parseDay('2026-11-01')!, to: parseDay('2026-11-04')!, bucket: 'day' as const };
    expect(fillBuckets(filter, [{ bucket: '2026-11-02', n: 4 }], ['n'])).toEqual([
      { bucket: '2026-11-01', n: 0 },
      { bucket: '2026-11-02', n: 4 },
      { bucket: '2026-11-03', n: 0 },
    ]);
  });

  it('label buckets in each language', () => {
    expect(bucketLabel('2026-11-01', 'month', 'es')).toBe('noviembre de 2026');
    expect(bucketLabel('2026-11-01', 'month', 'en')).toBe('November 2026');
    expect(bucketLabel('2026-11-27', 'day', 'en')).toBe('Nov 27, 2026');
    expect(bucketLabel('2026-11-27', 'day', 'es')).toBe('27 nov 2026');
  });
});

describe('funnels', () => {
  it('give each step its share of the start and of the step before', () => {
    expect(funnel([
      { step: 'a', count: 200 },
      { step: 'b', count: 50 },
      { step: 'c', count: 0 },
      { step: 'd', count: 0 },
    ])).toEqual([
      { step: 'a', count: 200, ofStart: 100, ofPrevious: 100 },
      { step: 'b', count: 50, ofStart: 25, ofPrevious: 25 },
      { step: 'c', count: 0, ofStart: 0, ofPrevious: 0 },
      { step: 'd', count: 0, ofStart: 0, ofPrevious: null },
    ]);
  });

  it('say nothing of a share of nothing, and refuse a count that is not one', () => {
    expect(funnel([{ step: 'a', count: 0 }, { step: 'b', count: 0 }]).map((s) => s.ofStart)).toEqual([null, null]);
    expect(() => funnel([{ step: 'a', count: -1 }])).toThrow(RangeError);
    expect(() => funnel([{ step: 'a', count: 1.5 }])).toThrow(RangeError);
  });
});

describe('CSV cells', () => {
  it.each([
    ['=SUM(A1:A2)', "'=SUM(A1:A2)"],
    ['+1', "'+1"],
    ['-1', "'-1"],
    ['@cmd', "'@cmd"],
    ['\tx', "'\tx"],
    ['\rx', `"'\rx"`],
    ['=HYPERLINK("http://evil","x")', `"'=HYPERLINK(""http://evil"",""x"")"`],
    ['a,b', '"a,b"'],
    ['line\nbreak', '"line\nbreak"'],
    ['Ñandú ✓', 'Ñandú ✓'],
    ['x=1', 'x=1'],
  ])('write %j as %j', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });

  it('write numbers, amounts and nothing as they are', () => {
    expect(csvLine([-5, { cents: -1250 }, { cents: 7 }, null, undefined, 'ok'])).toBe('-5,-12.50,0.07,,,ok\r\n');
    expect(() => csvCell(Number.NaN)).toThrow(RangeError);
  });
});

describe('the reports', () => {
  it('each ask a staff role', () => {
    expect(REPORTS.every((r) => REPORT_ACCESS[r])).toBe(true);
    expect(REPORT_ACCESS.revenue).toBe('finance');
    expect(REPORT_ACCESS.exams).toBe('editor');
    expect(REPORT_ACCESS.acquisition).toBe('administrator');
    expect(isReportKey('revenue')).toBe(true);
    expect(isReportKey('__proto__')).toBe(false);
  });
});
