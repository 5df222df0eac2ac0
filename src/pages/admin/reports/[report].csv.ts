/**
 * A report as a CSV download (/admin/reports/{report}.csv, the report page's query and `lang` for its
 * headers), and a year of orders (/admin/reports/orders.csv?year=2026, finance). Streamed: the body is
 * pulled page by page as the client reads it (`csvStream`). Refusals are sentences in `lang`: 401 for
 * a session without an account, 403 without the report's role (or its second factor proved), 400 for a
 * filter refused, 404 for an unknown report. Visitors are sent to the login by the middleware first.
 */
import type { APIRoute } from 'astro';
import { messages, toLocale } from '~/i18n';
import { staffGate } from '~/lib/staff';
import { csvFileName, isReportKey, ORDERS_EXPORT_ACCESS, readReportFilter, REPORT_ACCESS } from '~/lib/reports';
import { csvStream, ordersCsv, reportCsv } from '~/lib/reports/csv.server';

export const prerender = false;

const text = (body: string, status: number, locale: string) =>
  new Response(body, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Language': locale, 'Cache-Control': 'private, no-store' } });

const csv = (body: ReadableStream<Uint8Array>, fileName: string) =>
  new Response(body, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${fileName}"`,
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });

export const GET: APIRoute = async ({ params, url, locals }) => {
  const lang = url.searchParams.get('lang');
  const locale = toLocale(lang !== null && lang.length <= 5 ? lang : undefined);
  const all = messages(locale);
  const t = all.reports;
  const key = params.report ?? '';
  const orders = key === 'orders';
  if (!orders && !isReportKey(key)) {
    const gate = staffGate(locals.session, 'finance') === 'allowed' || staffGate(locals.session, 'editor') === 'allowed' ? 'allowed' : staffGate(locals.session, 'editor');
    if (gate === 'login') return text(all.refusals.login, 401, locale);
    return gate === 'allowed' ? text(t.refusals.unknownReport, 404, locale) : text(all.refusals.forbidden, 403, locale);
  }
  const gate = staffGate(locals.session, orders ? ORDERS_EXPORT_ACCESS : REPORT_ACCESS[key as keyof typeof REPORT_ACCESS]);
  if (gate === 'login') return text(all.refusals.login, 401, locale);
  if (gate !== 'allowed') return text(all.refusals.forbidden, 403, locale);
  const db = locals.runtime.db;
  if (orders) {
    const y = url.searchParams.get('year') ?? '';
    if (!/^\d{4}$/.test(y) || Number(y) < 2000 || Number(y) > 2100) return text(t.refusals.badYear, 400, locale);
    return csv(csvStream(ordersCsv(db, Number(y), locale)), `orders-${y}.csv`);
  }
  const read = readReportFilter(url.searchParams, new Date());
  if (!read.ok) return text(t.refusals[read.error], 400, locale);
  const report = key as keyof typeof REPORT_ACCESS;
  return csv(csvStream(reportCsv(db, report, read.filter, locale)), csvFileName(report, read.filter));
};
