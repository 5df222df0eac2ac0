/**
 * A course's question bank as a CSV download (`text/csv; charset=utf-8` with a BOM, cells that a
 * spreadsheet app would read as formulas guarded), for editors. Refusals are sentences in the
 * language `lang` names: 403 without the editor role (or its second factor proved), 404 for a course
 * without an exam. Anyone not logged in is sent to the login page by the middleware (every `/admin`
 * path is personal); the 401 here is for a session that lost its account meanwhile.
 */
import type { APIRoute } from 'astro';
import { messages, toLocale } from '~/i18n';
import { staffGate } from '~/lib/staff';
import { bankToCsv } from '~/lib/question-bank';
import { exportBank } from '~/lib/question-bank/bank.server';

export const prerender = false;

const text = (body: string, status: number, locale: string) =>
  new Response(body, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Language': locale, 'Cache-Control': 'private, no-store' } });

export const GET: APIRoute = async ({ params, url, locals }) => {
  const locale = toLocale(url.searchParams.get('lang') ?? undefined);
  const t = messages(locale);
  const gate = staffGate(locals.session, 'editor');
  if (gate === 'login') return text(t.refusals.login, 401, locale);
  if (gate !== 'allowed') return text(t.refusals.forbidden, 403, locale);
  const courseId = /^[1-9]\d{0,9}$/.test(params.courseId ?? '') ? Number(params.courseId) : 0;
  const drafts = courseId > 0 && courseId <= 2_147_483_647 ? await exportBank(locals.runtime.db, courseId) : null;
  if (!drafts) return text(t.questionBank.bank.courseNotFound, 404, locale);
  return new Response(bankToCsv(drafts), {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="question-bank-${courseId}.csv"`,
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
};
