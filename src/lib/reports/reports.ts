/**
 * The back office's reports, pure: which reports there are and who reads each, their filters (read from
 * a plain GET query, refused with a reason), the periods a range is cut into, the funnel arithmetic and
 * the CSV cells. Item analysis is in `items.ts`, the charts' geometry in `chart.ts`, the queries in
 * `reports.server.ts`. Every instant is UTC, as on the dashboard (the academy has no time zone of its own).
 */
import type { Locale } from '~/i18n';
import type { StaffRole } from '../access/policy';
import { formatCents } from '../commerce/money';

/* ───────────── the reports and their readers ───────────── */

/** The reports, in the order the index lists them. */
export const REPORTS = ['enrolments', 'funnel', 'exams', 'revenue', 'acquisition'] as const;
export type ReportKey = (typeof REPORTS)[number];

/**
 * The staff role each report asks (administrators read them all, through the policy's grants): learning
 * figures and item analysis are the editors' (they fix the courses and questions), money is finance's,
 * the IBOs' acquisition is the administrators'.
 */
export const REPORT_ACCESS: Readonly<Record<ReportKey, StaffRole>> = {
  enrolments: 'editor',
  funnel: 'editor',
  exams: 'editor',
  revenue: 'finance',
  acquisition: 'administrator',
};

/** The year-of-orders export asks what the revenue report asks. */
export const ORDERS_EXPORT_ACCESS: StaffRole = 'finance';

export const isReportKey = (value: unknown): value is ReportKey => typeof value === 'string' && (REPORTS as readonly string[]).includes(value);

/* ───────────── filters ───────────── */

export const BUCKETS = ['day', 'week', 'month'] as const;
export type Bucket = (typeof BUCKETS)[number];

/** The longest range a report reads: two years (a leap day included). */
export const MAX_RANGE_DAYS = 731;
/** The range a report shows when none is asked: the last 30 days, today included. */
export const DEFAULT_RANGE_DAYS = 30;
/** The longest value a filter may have (a day is 10 characters, an id 10 digits). */
const MAX_VALUE_LENGTH = 32;
const MAX_INT = 2_147_483_647;

/** A report's filters: UTC days `fromDay`..`toDay` (both included), as instants `from` (included) and `to` (excluded). */
export interface ReportFilter {
  fromDay: string;
  toDay: string;
  from: Date;
  to: Date;
  bucket: Bucket;
  courseId?: number;
  categoryId?: number;
  businessId?: number;
  iboId?: number;
}

/** Why a filter was refused (each a localized sentence, answered 400). */
export type FilterError = 'badDate' | 'reversed' | 'tooLong' | 'badId' | 'badBucket' | 'badInput';
export type FilterResult = { ok: true; filter: ReportFilter } | { ok: false; error: FilterError };

const DAY_MS = 86_400_000;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const ID = /^[1-9]\d{0,9}$/;
const ID_FILTERS = { course: 'courseId', category: 'categoryId', business: 'businessId', ibo: 'iboId' } as const;
const KNOWN = new Set(['from', 'to', 'bucket', ...Object.keys(ID_FILTERS), 'lang', 'year']);

/** The UTC midnight of a `YYYY-MM-DD` day, or null for anything else (31 February included). */
export function parseDay(text: string): Date | null {
  const m = DAY.exec(text);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const at = new Date(Date.UTC(y, mo - 1, d));
  if (y < 2000 || y > 2100 || at.getUTCMonth() !== mo - 1 || at.getUTCDate() !== d) return null;
  return at;
}

/** `YYYY-MM-DD` of an instant's UTC day. */
export const dayOf = (at: Date): string => at.toISOString().slice(0, 10);

/** The bucket that suits a range of `days` days when none is asked: days up to two months, weeks up to a year, then months. */
export function defaultBucket(days: number): Bucket {
  return days <= 62 ? 'day' : days <= 366 ? 'week' : 'month';
}

/**
 * A report's filters from its query (`from`, `to` as `YYYY-MM-DD`, `bucket`, `course`, `category`,
 * `business`, `ibo`; empty values count as absent). Without dates: the last 30 days up to `now`'s day.
 * Refused: a day that is not one, a range reversed or longer than two years, an id that is not a
 * positive whole number, an unknown bucket, and any value that is too long or holds control characters.
 */
export function readReportFilter(params: URLSearchParams, now: Date): FilterResult {
  const raw = new Map<string, string>();
  for (const [key, value] of params) {
    if (!KNOWN.has(key)) continue;
    // eslint-disable-next-line no-control-regex
    if (value.length > MAX_VALUE_LENGTH || /[\u0000-\u001f\u007f]/.test(value)) return { ok: false, error: 'badInput' };
    if (value !== '') raw.set(key, value);
  }
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const toText = raw.get('to');
  const fromText = raw.get('from');
  const toDate = toText === undefined ? (fromText === undefined ? today : null) : parseDay(toText);
  const fromDate = fromText === undefined ? (toDate ? new Date(toDate.getTime() - (DEFAULT_RANGE_DAYS - 1) * DAY_MS) : null) : parseDay(fromText);
  // `to` absent but `from` given: up to today.
  const end = toDate ?? (toText === undefined && fromDate ? today : null);
  if (!fromDate || !end) return { ok: false, error: 'badDate' };
  if (fromDate.getTime() > end.getTime()) return { ok: false, error: 'reversed' };
  const days = Math.round((end.getTime() - fromDate.getTime()) / DAY_MS) + 1;
  if (days > MAX_RANGE_DAYS) return { ok: false, error: 'tooLong' };
  const bucketText = raw.get('bucket');
  if (bucketText !== undefined && !(BUCKETS as readonly string[]).includes(bucketText)) return { ok: false, error: 'badBucket' };
  const filter: ReportFilter = {
    fromDay: dayOf(fromDate),
    toDay: dayOf(end),
    from: fromDate,
    to: new Date(end.getTime() + DAY_MS),
    bucket: (bucketText as Bucket | undefined) ?? defaultBucket(days),
  };
  for (const [param, field] of Object.entries(ID_FILTERS)) {
    const text = raw.get(param);
    if (text === undefined) continue;
    if (!ID.test(text) || Number(text) > MAX_INT) return { ok: false, error: 'badId' };
    filter[field] = Number(text);
  }
  return { ok: true, filter };
}

/** The query of a filter (for links, the CSV's address and the form), dates always written. */
export function filterQuery(filter: ReportFilter, extra: Record<string, string> = {}): string {
  const q = new URLSearchParams({ from: filter.fromDay, to: filter.toDay, bucket: filter.bucket });
  for (const [param, field] of Object.entries(ID_FILTERS)) {
    const v = filter[field];
    if (v !== undefined) q.set(param, String(v));
  }
  for (const [k, v] of Object.entries(extra)) q.set(k, v);
  return `?${q.toString()}`;
}

/* ───────────── periods ───────────── */

/** The first day of the bucket holding `at` (weeks start on Monday, ISO 8601), as `YYYY-MM-DD`. */
export function bucketStart(at: Date, bucket: Bucket): string {
  const y = at.getUTCFullYear();
  const m = at.getUTCMonth();
  const d = at.getUTCDate();
  if (bucket === 'month') return dayOf(new Date(Date.UTC(y, m, 1)));
  if (bucket === 'week') {
    const weekday = (at.getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
    return dayOf(new Date(Date.UTC(y, m, d - weekday)));
  }
  return dayOf(new Date(Date.UTC(y, m, d)));
}

/** Every bucket from the one holding `from` to the one holding the last day before `to`, in order. */
export function bucketsOf(filter: Pick<ReportFilter, 'from' | 'to' | 'bucket'>): string[] {
  const keys: string[] = [];
  const last = bucketStart(new Date(filter.to.getTime() - DAY_MS), filter.bucket);
  let key = bucketStart(filter.from, filter.bucket);
  for (;;) {
    keys.push(key);
    if (key >= last) return keys;
    const at = parseDay(key)!;
    const next = filter.bucket === 'month' ? new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1)) : new Date(at.getTime() + (filter.bucket === 'week' ? 7 : 1) * DAY_MS);
    key = dayOf(next);
  }
}

/** A series of values per bucket, with every bucket of the filter present (zero where the query found none). */
export function fillBuckets<K extends string>(filter: Pick<ReportFilter, 'from' | 'to' | 'bucket'>, rows: readonly ({ bucket: string } & Record<K, number>)[], fields: readonly K[]): ({ bucket: string } & Record<K, number>)[] {
  const byKey = new Map(rows.map((r) => [r.bucket, r]));
  return bucketsOf(filter).map((bucket) => {
    const row = byKey.get(bucket);
    return Object.assign({ bucket }, Object.fromEntries(fields.map((f) => [f, row ? row[f] : 0]))) as { bucket: string } & Record<K, number>;
  });
}

/* ───────────── funnels ───────────── */

/** One step of a funnel: its count, and its share (whole percent, or null when the base is 0) of the first step and of the step before. */
export interface FunnelStep<S extends string = string> {
  step: S;
  count: number;
  ofStart: number | null;
  ofPrevious: number | null;
}

const percentOf = (part: number, whole: number): number | null => (whole > 0 ? Math.round((part * 100) / whole) : null);

/** A funnel's steps from their counts, in order (counts are non-negative whole numbers). */
export function funnel<S extends string>(steps: readonly { step: S; count: number }[]): FunnelStep<S>[] {
  const start = steps[0]?.count ?? 0;
  return steps.map((s, i) => {
    if (!Number.isSafeInteger(s.count) || s.count < 0) throw new RangeError(`Not a count: ${String(s.count)}`);
    return { step: s.step, count: s.count, ofStart: percentOf(s.count, start), ofPrevious: i === 0 ? percentOf(s.count, start) : percentOf(s.count, steps[i - 1]!.count) };
  });
}

/** The steps of the progress funnel of a course, in order. */
export const PROGRESS_STEPS = ['started', 'half', 'all', 'passed', 'certified'] as const;
export type ProgressStep = (typeof PROGRESS_STEPS)[number];

/** The steps of the acquisition funnel of an IBO, in order. */
export const ACQUISITION_STEPS = ['visits', 'prospects', 'registered', 'buyers'] as const;
export type AcquisitionStep = (typeof ACQUISITION_STEPS)[number];

/* ───────────── how figures read ───────────── */

const INTL: Record<Locale, string> = { es: 'es-US', en: 'en-US' };
const DATES: Record<Locale, string> = { es: 'es-ES', en: 'en-US' };

/** A count in the reader's language (grouped as prices are). */
export const formatCount = (n: number, locale: Locale): string => new Intl.NumberFormat(INTL[locale]).format(n);

/** A share (0..1) as a whole percent in the reader's language, or a dash when there is none. */
export const formatShare = (share: number | null, locale: Locale): string => (share === null ? '—' : new Intl.NumberFormat(INTL[locale], { style: 'percent', maximumFractionDigits: 0 }).format(share));

/** A signed amount of cents (a refund shows as a negative amount). */
export const formatSignedCents = (cents: number, locale: Locale): string => (cents < 0 ? `−${formatCents(-cents, locale)}` : formatCents(Math.abs(cents), locale));

/** A bucket's label: its day, the week it starts, or its month. */
export function bucketLabel(key: string, bucket: Bucket, locale: Locale, short = false): string {
  const at = parseDay(key);
  if (!at) return key;
  const options: Intl.DateTimeFormatOptions =
    bucket === 'month' ? { month: short ? 'short' : 'long', year: short ? '2-digit' : 'numeric', timeZone: 'UTC' } : { day: 'numeric', month: 'short', ...(short ? {} : { year: 'numeric' }), timeZone: 'UTC' };
  return new Intl.DateTimeFormat(DATES[locale], options).format(at);
}

/* ───────────── CSV ───────────── */

/** A text a spreadsheet app would read as a formula (or a command) if written as it is. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A cell's value: a text, one of the report's numbers, an amount of cents (written "-12.50"), or nothing. */
export type CsvValue = string | number | null | undefined | { cents: number };

/**
 * One CSV cell: a text beginning with `=`, `+`, `-`, `@`, a tab or a carriage return gets a leading
 * apostrophe (formula injection defused), then the cell is quoted when it holds a comma, a quote or a
 * line break. Numbers are the report's own figures and written as they are (a refund's `-500` stays a number).
 */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return csvAmount(value.cents);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError('Not a finite number');
    return String(value);
  }
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV record, CRLF-terminated. */
export const csvLine = (cells: readonly CsvValue[]): string => `${cells.map(csvCell).join(',')}\r\n`;

/** The byte-order mark that makes spreadsheet apps read the file as UTF-8. */
export const CSV_BOM = '\uFEFF';

/** Cents as a CSV amount with two decimals ("-12.50"), exact. */
export function csvAmount(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError('Not cents');
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** A download's file name: the report, its range, `.csv` (ASCII only). */
export const csvFileName = (name: string, filter: Pick<ReportFilter, 'fromDay' | 'toDay'>): string => `${name.replace(/[^a-z0-9-]/gi, '')}-${filter.fromDay}-${filter.toDay}.csv`;
