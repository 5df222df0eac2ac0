/**
 * The reports' CSV downloads, streamed: each is an async iterator of text chunks turned into a
 * `ReadableStream` that pulls the next chunk only when the client took the last one. A report's rows
 * are aggregates (a bucket, a course, an IBO each); the year of orders is read in keyset pages of
 * `(created_at, id)`, one page at a time, so the export never holds the year in memory. UTF-8 with a
 * BOM, headers in the reader's language, every text cell guarded against formulas (`csvCell`).
 */
import { sql } from 'drizzle-orm';
import { messages, type Locale } from '~/i18n';
import type { Db } from '../db/client';
import { ACQUISITION_STEPS, CSV_BOM, csvLine, PROGRESS_STEPS, type CsvValue, type ReportFilter, type ReportKey } from './reports';
import { acquisitionReport, enrolmentsReport, examSummary, funnelReport, itemAnalysis, num, revenueReport } from './reports.server';

type Chunks = AsyncGenerator<string, void, undefined>;

/** A stream of `chunks` as UTF-8 bytes, pulled one chunk at a time; cancelling it ends the iterator (and its query pages). */
export function csvStream(chunks: Chunks): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      },
      async cancel() {
        await chunks.return(undefined);
      },
    },
    // Nothing is read ahead: the next page is asked for only when the client asks for more.
    { highWaterMark: 0 },
  );
}

async function* lines(header: readonly string[], body: () => Promise<readonly (readonly CsvValue[])[]>): Chunks {
  yield CSV_BOM + csvLine(header);
  const rows = await body();
  for (let i = 0; i < rows.length; i += 500) yield rows.slice(i, i + 500).map(csvLine).join('');
}

const name = (locale: Locale, r: { nameEs: string; nameEn: string }) => (locale === 'en' ? r.nameEn : r.nameEs);

/** One report's CSV, in `locale`. */
export function reportCsv(db: Db, report: ReportKey, f: ReportFilter, locale: Locale): Chunks {
  const t = messages(locale).reports;
  switch (report) {
    case 'enrolments':
      return lines([t.enrolments.bucket, t.enrolments.enrolments, t.enrolments.completions], async () => (await enrolmentsReport(db, f)).series.map((r) => [r.bucket, r.enrolments, r.completions]));
    case 'funnel':
      return lines([t.funnel.course, t.funnel.lessons, ...PROGRESS_STEPS.map((s) => t.funnel.steps[s])], async () => (await funnelReport(db, f)).map((r) => [name(locale, r), r.lessons, r.started, r.half, r.all, r.passed, r.certified]));
    case 'exams':
      if (f.courseId !== undefined) {
        const courseId = f.courseId;
        return lines([t.exams.question, t.exams.answers, t.exams.right, t.exams.wrong, t.exams.discrimination], async () =>
          (await itemAnalysis(db, courseId, f)).map((q) => [locale === 'en' ? q.promptEn : q.promptEs, q.answers, q.right, q.wrong ? (locale === 'en' ? q.wrong.textEn : q.wrong.textEs) : '', q.discrimination === null ? '' : q.discrimination.toFixed(3)]),
        );
      }
      return lines([t.exams.course, t.exams.attempts, t.exams.passed, t.exams.average], async () => (await examSummary(db, f)).map((r) => [name(locale, r), r.attempts, r.passed, r.averageScore]));
    case 'revenue':
      return lines([t.revenue.breakdown, t.revenue.key, t.revenue.orders, t.revenue.gross, t.revenue.refunded, t.revenue.net], async () => {
        const r = await revenueReport(db, f);
        const money = (x: { orders: number; gross: number; refunded: number; net: number }) => [x.orders, { cents: x.gross }, { cents: x.refunded }, { cents: x.net }];
        return [
          ...r.byDay.map((x) => [t.revenue.byDay, x.bucket, ...money(x)]),
          ...r.byCourse.map((x) => [t.revenue.byCourse, locale === 'en' ? x.labelEn : x.labelEs, ...money(x)]),
          ...r.byKind.map((x) => [t.revenue.byKind, t.revenue.kinds[x.key as 'course' | 'book' | 'plan'] ?? x.key, ...money(x)]),
          ...r.byCoupon.map((x) => [t.revenue.byCoupon, x.key || t.revenue.noCoupon, ...money(x)]),
          ...r.byIbo.map((x) => [t.revenue.byIbo, x.key ? x.labelEn : t.revenue.noIbo, ...money(x)]),
        ];
      });
    case 'acquisition':
      return lines([t.acquisition.ibo, t.acquisition.company, ...ACQUISITION_STEPS.map((s) => t.acquisition.steps[s])], async () => (await acquisitionReport(db, f)).map((r) => [r.code, r.companyName, r.visits, r.prospects, r.registered, r.buyers]));
  }
}

/** Orders per page of the year's export. */
export const ORDERS_PAGE = 1000;

interface OrderLine {
  id: number;
  created_at: string | Date;
  paid_at: string | Date | null;
  status: 'pending' | 'paid' | 'failed' | 'refunded';
  subtotal_cents: number;
  discount_cents: number;
  total_cents: number;
  currency_code: string;
  coupon_code: string | null;
  ibo_code: string | null;
  products: string | null;
}

/** One keyset page of a year's orders: those after `(afterAt, afterId)` in creation order. */
export async function ordersPage(db: Db, year: number, after: { at: string; id: number } | null, limit: number): Promise<OrderLine[]> {
  const from = `${year}-01-01T00:00:00Z`;
  const to = `${year + 1}-01-01T00:00:00Z`;
  const result = (await db.execute(sql`
    select o.id, to_char(o.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created_at, o.paid_at, o.status, o.subtotal_cents, o.discount_cents, o.total_cents, o.currency_code, o.coupon_code, b.code as ibo_code,
      (select string_agg(i.product_kind || ':' || i.product_code, ' ' order by i.id) from order_items i where i.order_id = o.id) as products
    from orders o left join ibos b on b.id = o.referring_ibo_id
    where o.created_at >= ${from}::timestamptz and o.created_at < ${to}::timestamptz
      ${after ? sql`and (o.created_at, o.id) > (${after.at}::timestamptz, ${after.id})` : sql``}
    order by o.created_at, o.id limit ${limit}`)) as unknown as { rows: OrderLine[] };
  return result.rows;
}

const instant = (v: string | Date | null) => (v === null ? '' : typeof v === 'string' ? new Date(v).toISOString() : v.toISOString());

/** Every order created in `year` (UTC), page after page. */
export async function* ordersCsv(db: Db, year: number, locale: Locale, pageSize = ORDERS_PAGE): Chunks {
  const t = messages(locale).reports.ordersExport;
  yield CSV_BOM + csvLine([t.order, t.created, t.paid, t.status, t.subtotal, t.discount, t.total, t.currency, t.coupon, t.ibo, t.products]);
  let after: { at: string; id: number } | null = null;
  for (;;) {
    const page = await ordersPage(db, year, after, pageSize);
    if (page.length === 0) return;
    yield page
      .map((o) => csvLine([num(o.id), instant(o.created_at), instant(o.paid_at), t.statuses[o.status] ?? o.status, { cents: num(o.subtotal_cents) }, { cents: num(o.discount_cents) }, { cents: num(o.total_cents) }, o.currency_code, o.coupon_code, o.ibo_code, o.products]))
      .join('');
    if (page.length < pageSize) return;
    const last = page[page.length - 1]!;
    after = { at: String(last.created_at), id: num(last.id) };
  }
}
