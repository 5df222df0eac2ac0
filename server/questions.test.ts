/**
 * The question banks through the built site: the pages and actions answer editors and administrators
 * only (a visitor 401, or the login page for an address, a learner and a staff member without the role 403, in words); an
 * administrator adds a question (a refused one names its field), exports the bank as CSV and imports it
 * back (a file with a wrong row writes nothing and says which row and why). Needs `npm run build`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { messages } from '../src/i18n';
import { users } from '../src/lib/db/schema';
import { seedStaff } from '../src/lib/staff/staff.server';
import { Client } from '../tests/e2e/support/http';
import { PEOPLE } from '../tests/e2e/support/seed';
import { ADMIN_FACTOR } from '../tests/e2e/support/staff';
import { siteBuilt, startBuiltSite, type BuiltSite } from './built-site.testing';

if (!siteBuilt) console.warn('The question bank tests are skipped: they need a build (`npm run build`).');

const es = messages('es');
const en = messages('en');
const error = (body: string) => JSON.parse(body) as { code?: string; message?: string; fields?: Record<string, string[]> };
const SUPPORT = { secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', recoveryCodes: ['abcd-efgh-jkmn-pqrs', 'abcd-efgh-jkmn-pqrt'] };
const question = { course: '1', kind: 'true-false', promptEs: '¿El IVA es un impuesto?', promptEn: 'Is VAT a tax?', option1Es: 'Verdadero', option1En: 'True', option2Es: 'Falso', option2En: 'False', right: '1', lang: 'en' };

/** A multipart body of `fields` and one CSV `file`, for `Client.post`'s raw body. */
async function multipart(fields: Record<string, string>, file: string | Uint8Array<ArrayBuffer>) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  form.set('file', new File([file], 'bank.csv', { type: 'text/csv' }));
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return { raw: Buffer.from(await request.arrayBuffer()), headers: { 'content-type': request.headers.get('content-type')! } };
}

describe.skipIf(!siteBuilt)('the question banks, through the site', () => {
  let built: BuiltSite;
  let next = 160;
  const clients: Client[] = [];
  const open = () => {
    const c = new Client(built.base, `127.0.0.${next++}`);
    clients.push(c);
    return c;
  };
  const logIn = async (email: string, password: string) => {
    const c = open();
    const r = await c.post('/_actions/auth.login', { form: { email, password, lang: 'es' } });
    expect(r.status, r.body).toBe(200);
    return c;
  };
  /** The administrator, with password and an unused recovery code. */
  const admin = async (code = ADMIN_FACTOR.recoveryCodes.at(-1)!) => {
    const c = await logIn(PEOPLE.admin.email, PEOPLE.admin.password);
    const r = await c.post('/_actions/staff.proveCode', { form: { code, lang: 'es' } });
    expect(r.status, r.body).toBe(200);
    return c;
  };

  beforeAll(async () => {
    built = await startBuiltSite();
  }, 120_000);
  afterAll(async () => {
    for (const c of clients) c.close();
    await built?.close();
  });

  it('refuses a visitor (401), a learner and a staff member without the editor role (403), in words', async () => {
    const visitor = open();
    const v = await visitor.post('/_actions/questions.add', { form: question });
    expect(v.status).toBe(401);
    expect(error(v.body).message).toBe(en.refusals.login);
    // Every /admin path sends a visitor to the login, which brings them back.
    const download = await visitor.get('/admin/questions/1/bank.csv?lang=es');
    expect([download.status, download.headers.location]).toEqual([302, `/login?next=${encodeURIComponent('/admin/questions/1/bank.csv?lang=es')}`]);
    expect((await visitor.get('/en/admin/questions')).status).toBe(302);

    const learner = await logIn(PEOPLE.learner.email, PEOPLE.learner.password);
    const l = await learner.post('/_actions/questions.add', { form: question });
    expect(l.status).toBe(403);
    expect(error(l.body).message).toBe(en.refusals.forbidden);
    const csv = await learner.get('/admin/questions/1/bank.csv?lang=en');
    expect([csv.status, csv.body]).toEqual([403, en.refusals.forbidden]);
    const page = await learner.get('/en/admin/questions/1');
    expect(page.status).toBe(403);
    expect(page.body).toContain(en.staff.forbidden.title);

    // Support staff (second factor proved) holds no editor role.
    const [support] = await built.db.db.select({ id: users.id }).from(users).where(eq(users.email, PEOPLE.buyer.email));
    await seedStaff(built.db.db, support!.id, ['support'], SUPPORT);
    const staff = await logIn(PEOPLE.buyer.email, PEOPLE.buyer.password);
    expect((await staff.post('/_actions/staff.proveCode', { form: { code: SUPPORT.recoveryCodes[0]!, lang: 'es' } })).status).toBe(200);
    const s = await staff.post('/_actions/questions.regrade', { form: { course: '1', lang: 'es' } });
    expect(s.status).toBe(403);
    expect(error(s.body).message).toBe(es.refusals.forbidden);
    expect((await staff.get('/admin/questions')).status).toBe(403);
  });

  it('lets an administrator add a question, refusing a wrong one with its field, and shows it on the bank page', async () => {
    const c = await admin();
    const wrong = await c.post('/_actions/questions.add', { form: { ...question, promptEn: '', right: ['1', '2'] } });
    expect(wrong.status).toBe(400);
    expect(error(wrong.body).message).toBe('The English prompt is missing. Mark exactly one option as right.');
    expect(error(wrong.body).fields).toEqual({ promptEn: ['The English prompt is missing. Mark exactly one option as right.'] });
    const ok = await c.post('/_actions/questions.add', { form: question });
    expect(ok.status, ok.body).toBe(200);
    const page = await c.get('/en/admin/questions/1');
    expect(page.status).toBe(200);
    expect(page.body).toContain('Is VAT a tax?');
    // Without JavaScript: the form posts to the page, which answers the refusal with its status and keeps what was typed.
    const noJs = await c.post('/admin/questions/1?_action=questions.add', { form: { ...question, promptEs: '', promptEn: 'Kept as typed', lang: 'es' } });
    expect(noJs.status).toBe(400);
    expect(noJs.body).toContain('Falta el enunciado en español.');
    expect(noJs.body).toContain('Kept as typed');
  });

  it('exports the bank as CSV and imports it back; a file with a wrong row writes nothing and names the row', async () => {
    const c = await admin(ADMIN_FACTOR.recoveryCodes.at(-2)!);
    const csv = await c.get('/admin/questions/2/bank.csv?lang=es');
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="question-bank-2\.csv"$/);
    expect(csv.body.startsWith('\uFEFFkind,prompt_es,prompt_en,')).toBe(true);
    const lines = csv.body.split('\r\n').filter(Boolean).length;

    const broken = `${csv.body}single,¿Sin inglés?,,A,A,x,B,B,\r\n`;
    const refused = await c.post('/_actions/questions.importCsv', await multipart({ course: '2', mode: 'add', lang: 'es' }, broken));
    expect(refused.status).toBe(400);
    expect(error(refused.body).message).toContain(`Fila ${lines + 1}: Falta el enunciado en inglés.`);
    const latin1 = await c.post('/_actions/questions.importCsv', await multipart({ course: '2', mode: 'add', lang: 'en' }, new Uint8Array([0x6b, 0x69, 0x6e, 0x64, 0x0a, 0xe9])));
    expect([latin1.status, error(latin1.body).message]).toEqual([400, en.questionBank.csv.notUtf8]);
    expect((await c.get('/admin/questions/2/bank.csv?lang=es')).body).toBe(csv.body);

    const replaced = await c.post('/_actions/questions.importCsv', await multipart({ course: '2', mode: 'replace', lang: 'en' }, csv.body));
    expect(replaced.status, replaced.body).toBe(200);
    expect((await c.get('/admin/questions/2/bank.csv?lang=es')).body).toBe(csv.body);
  });
});
