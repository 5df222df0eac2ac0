/**
 * The reports' CSV endpoint's refusals, called as Astro calls it: 401 without an account, 403 for a
 * learner and for staff without the report's role (finance opening the editors' item analysis, an
 * editor the year of orders), 400 in words for each refused filter (reversed, ten years, NUL, 100 KB,
 * a bad year), 404 for an unknown report. Every refusal is decided before the database is touched.
 */
import { describe, expect, it } from 'vitest';
import { messages } from '~/i18n';
import { staffGate, type StaffSession } from '~/lib/staff';
import { GET } from '../../pages/admin/reports/[report].csv';
import { REPORT_ACCESS } from './reports';

type Role = 'administrator' | 'editor' | 'support' | 'finance';
const staff = (...roles: Role[]): StaffSession => ({ user: {}, ibo: null, roles, staff: { roles, secondFactor: 'proved' } });
const learner: StaffSession = { user: {}, ibo: null };
const noDb = new Proxy({}, { get: () => { throw new Error('the database was touched'); } });

async function call(report: string, query: string, session: StaffSession | null): Promise<{ status: number; body: string }> {
  const url = new URL(`http://academy.test/admin/reports/${report}.csv${query}`);
  const res = await (GET as unknown as (ctx: unknown) => Promise<Response>)({ params: { report }, url, locals: { session, runtime: { db: noDb } } });
  return { status: res.status, body: await res.text() };
}

const t = messages('en').reports.refusals;
const es = messages('es').reports.refusals;

describe('the reports CSV endpoint refuses', () => {
  it('a visitor (401) and a learner (403), in words', async () => {
    expect(await call('revenue', '?lang=en', null)).toEqual({ status: 401, body: messages('en').refusals.login });
    expect(await call('revenue', '?lang=en', learner)).toEqual({ status: 403, body: messages('en').refusals.forbidden });
  });

  it('staff without the report\'s role: finance opening item analysis, an editor revenue or the year of orders, support anything', async () => {
    expect((await call('exams', '?course=1&lang=en', staff('finance'))).status).toBe(403);
    expect((await call('revenue', '?lang=en', staff('editor'))).status).toBe(403);
    expect((await call('orders', '?year=2026&lang=en', staff('editor'))).status).toBe(403);
    expect((await call('acquisition', '?lang=en', staff('finance', 'editor'))).status).toBe(403);
    expect((await call('enrolments', '?lang=en', staff('support'))).status).toBe(403);
    // The pages ask the same gate.
    expect(staffGate(staff('finance'), REPORT_ACCESS.exams)).toBe('forbidden');
    expect(staffGate(staff('editor'), REPORT_ACCESS.exams)).toBe('allowed');
    expect(staffGate(staff('administrator'), REPORT_ACCESS.revenue)).toBe('allowed');
  });

  it('each refused filter with its sentence (400), in the language asked', async () => {
    const finance = staff('finance');
    expect(await call('revenue', '?from=2026-03-01&to=2026-02-01&lang=en', finance)).toEqual({ status: 400, body: t.reversed });
    expect(await call('revenue', '?from=2016-01-01&to=2026-01-01&lang=es', finance)).toEqual({ status: 400, body: es.tooLong });
    expect(await call('revenue', '?from=someday&lang=en', finance)).toEqual({ status: 400, body: t.badDate });
    expect(await call('revenue', '?course=1%00&lang=en', finance)).toEqual({ status: 400, body: t.badInput });
    expect(await call('revenue', `?ibo=${'7'.repeat(100_000)}&lang=en`, finance)).toEqual({ status: 400, body: t.badInput });
    expect(await call('revenue', '?bucket=decade&lang=en', finance)).toEqual({ status: 400, body: t.badBucket });
    expect(await call('orders', '?year=1999&lang=en', finance)).toEqual({ status: 400, body: t.badYear });
    expect(await call('orders', '?year=%00&lang=en', finance)).toEqual({ status: 400, body: t.badYear });
  });

  it('an unknown report (404 for staff, 403 for a learner)', async () => {
    expect(await call('secrets', '?lang=en', staff('editor'))).toEqual({ status: 404, body: t.unknownReport });
    expect((await call('__proto__', '?lang=en', learner)).status).toBe(403);
  });
});
