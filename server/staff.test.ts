/**
 * The staff back office through the built site, as a browser reaches it (`/_actions/…` as a script
 * calls them, pages as they are opened): the password alone gives a staff account no roles; the second
 * factor (a TOTP code once, a recovery code once, guesses limited) does; set-up shows the secret and
 * hands out recovery codes; the pages answer staff only (learner 403, visitor to the login); staff
 * changes are refused in words with a 4xx, and written to the audit log. Needs `npm run build`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { format, messages, plural } from '../src/i18n';
import { totpCode } from '../src/lib/staff/staff';
import { Client } from '../tests/e2e/support/http';
import { PEOPLE } from '../tests/e2e/support/seed';
import { ADMIN_FACTOR, EDITOR, proveWithFreshCode } from '../tests/e2e/support/staff';
import { siteBuilt, startBuiltSite, type BuiltSite } from './built-site.testing';

if (!siteBuilt) console.warn('The staff tests are skipped: they need a build (`npm run build`).');

const es = messages('es').staff;
const en = messages('en').staff;
const error = (body: string) => JSON.parse(body) as { code?: string; message?: string; fields?: Record<string, string[]> };

describe.skipIf(!siteBuilt)('the staff back office, through the site', () => {
  let built: BuiltSite;
  let next = 120;
  const clients: Client[] = [];
  const open = () => {
    const c = new Client(built.base, `127.0.0.${next++}`);
    clients.push(c);
    return c;
  };
  const logIn = async (email: string, password: string, lang = 'es') => {
    const c = open();
    const r = await c.post('/_actions/auth.login', { form: { email, password, lang } });
    expect(r.status, r.body).toBe(200);
    return { c, body: r.body };
  };
  const prove = (c: Client, code: string, lang = 'es') => c.post('/_actions/staff.proveCode', { form: { code, lang } });
  /** The administrator, logged in with password and an unused recovery code (no wait for a new TOTP code). */
  const admin = async () => {
    const { c } = await logIn(PEOPLE.admin.email, PEOPLE.admin.password);
    const r = await prove(c, ADMIN_FACTOR.recoveryCodes.at(-1)!);
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

  it('asks a staff account for its code after the password, and the password alone opens nothing of staff', async () => {
    const { c, body } = await logIn(PEOPLE.admin.email, PEOPLE.admin.password);
    expect(body).toContain('/second-factor');
    const page = await c.get('/admin');
    expect(page.status).toBe(403);
    expect(page.body).toContain(es.forbidden.verify);
    const grant = await c.post('/_actions/staff.grantRole', { form: { email: PEOPLE.learner.email, role: 'editor', lang: 'es' } });
    expect(grant.status).toBe(403);
    expect(error(grant.body).message).toBe(messages('es').refusals.forbidden);

    const form = await c.get('/en/second-factor');
    expect(form.status).toBe(200);
    expect(form.body).toContain(en.code.title);
  });

  it('refuses a wrong, malformed or replayed code in words, and lets the right one in once', async () => {
    const { c } = await logIn(PEOPLE.admin.email, PEOPLE.admin.password);
    const right = totpCode(ADMIN_FACTOR.secret);
    const wrong = String((Number(right) + 500_000) % 1_000_000).padStart(6, '0');
    const bad = await prove(c, wrong, 'en');
    expect(bad.status).toBe(400);
    expect(error(bad.body).message).toBe(en.code.wrong);
    const junk = await prove(c, 'abc', 'es');
    expect(junk.status).toBe(400);
    expect(error(junk.body).message).toBe(es.code.malformed);

    const ok = await proveWithFreshCode((code) => prove(c, code), ADMIN_FACTOR.secret, built.runtime.config.dataDir);
    expect(ok.status, ok.body).toBe(200);
    expect(ok.body).toContain('/admin');
    const dashboard = await c.get('/admin');
    expect(dashboard.status).toBe(200);
    expect(dashboard.body).toContain(es.dashboard.areas.staff.title);
    expect(dashboard.body).toContain('href="/admin/audit"');
    const english = await c.get('/en/admin');
    expect(english.status).toBe(200);
    expect(english.body).toContain(en.dashboard.areas.audit.title);
    // The header's menu links the back office.
    expect((await c.get('/courses')).body).toContain(`href="/admin">${es.backOffice}`);

    // The code just used, from another login within its window: refused.
    const other = await logIn(PEOPLE.admin.email, PEOPLE.admin.password);
    const current = totpCode(ADMIN_FACTOR.secret);
    const replay = await prove(other.c, current, 'en');
    // Either this step's code was the one just taken (replayed), or the step turned and it works.
    if (replay.status === 400) expect(error(replay.body).message).toBe(en.code.replayed);
    else expect(replay.status).toBe(200);
  });

  it('takes each recovery code once', async () => {
    const first = await logIn(PEOPLE.admin.email, PEOPLE.admin.password);
    const r = await prove(first.c, ADMIN_FACTOR.recoveryCodes[1]!);
    expect(r.status, r.body).toBe(200);
    expect(r.body).toContain(plural('es', es.code.recoveryLeft, 9));
    const second = await logIn(PEOPLE.admin.email, PEOPLE.admin.password);
    const again = await prove(second.c, ADMIN_FACTOR.recoveryCodes[1]!, 'en');
    expect(again.status).toBe(400);
    expect(error(again.body).message).toBe(en.code.recoveryUsed);
    expect((await second.c.get('/admin')).status).toBe(403);
  });

  it('keeps learners and visitors out of every staff page and action', async () => {
    const visitor = open();
    const away = await visitor.get('/admin/staff');
    expect(away.status).toBe(302);
    expect(away.headers.location).toBe(`/login?next=${encodeURIComponent('/admin/staff')}`);
    const denied = await visitor.post('/_actions/staff.revokeRole', { form: { userId: '1', role: 'editor', lang: 'en' } });
    expect(denied.status).toBe(401);

    const { c } = await logIn(PEOPLE.learner.email, PEOPLE.learner.password);
    for (const path of ['/admin', '/en/admin', '/admin/staff', '/en/admin/audit', '/second-factor', '/second-factor/setup']) expect((await c.get(path)).status, path).toBe(403);
    const english = await c.get('/en/admin');
    expect(english.body).toContain(`<h1>${en.forbidden.title}</h1>`);
    for (const name of ['grantRole', 'revokeRole', 'resetFactor']) {
      const r = await c.post(`/_actions/staff.${name}`, { form: { email: PEOPLE.learner.email, userId: '1', role: 'administrator', lang: 'en' } });
      expect(r.status, name).toBe(403);
      expect(error(r.body).message).toBe(messages('en').refusals.forbidden);
    }
    const code = await prove(c, '123456', 'en');
    expect(code.status).toBe(403);
    expect(error(code.body).message).toBe(en.code.notEnrolled);
  });

  it('sets up an editor: the secret as QR code and text, the first code, ten recovery codes once; an editor is not an administrator', async () => {
    const { c, body } = await logIn(EDITOR.email, EDITOR.password, 'en');
    expect(body).toContain('/en/second-factor/setup');
    const page = await c.get('/en/second-factor/setup');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<svg role="img"');
    expect(page.body).toContain('otpauth://totp/Academia:editor%40academia.example');
    const secret = /data-secret[^>]*>([A-Z2-7 ]+)</.exec(page.body)![1]!.replace(/ /g, '');
    // The same secret until confirmed.
    expect((await c.get('/en/second-factor/setup')).body).toContain(secret.match(/.{1,4}/g)!.join(' '));

    const wrong = await c.post('/_actions/staff.confirmSetup', { form: { code: String((Number(totpCode(secret)) + 1) % 1_000_000).padStart(6, '0'), lang: 'en' } });
    expect(wrong.status).toBe(400);
    expect(error(wrong.body).message).toBe(en.setup.wrong);
    const done = await c.post('/_actions/staff.confirmSetup', { form: { code: totpCode(secret), lang: 'en' } });
    expect(done.status, done.body).toBe(200);
    expect(done.body.match(/[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}/g)).toHaveLength(10);
    // Shown once: the page now sends on to the back office.
    expect((await c.get('/en/second-factor/setup')).status).toBe(302);

    const dashboard = await c.get('/en/admin');
    expect(dashboard.status).toBe(200);
    // An editor's area: the question banks; the staff's pages stay the administrators'.
    expect(dashboard.body).toContain(en.dashboard.areas.questions.title);
    expect((await c.get('/en/admin/questions')).status).toBe(200);
    // An editor's area is the video library; the administrators' areas stay closed.
    expect(dashboard.body).toContain(en.dashboard.areas.videos.title);
    expect(dashboard.body).not.toContain(en.dashboard.areas.staff.lead);
    expect(dashboard.body).not.toContain(en.dashboard.areas.support.lead);
    // The support inbox is not an editor's: its page and its actions are refused in words.
    expect((await c.get('/en/admin/support')).status).toBe(403);
    const note = await c.post('/_actions/support.note', { form: { id: '1', body: 'Nota', lang: 'en' } });
    expect(note.status).toBe(403);
    expect(error(note.body).message).toBe(messages('en').refusals.forbidden);
    expect((await c.get('/en/admin/videos')).status).toBe(200);
    expect((await c.get('/admin/staff')).status).toBe(403);
    const grant = await c.post('/_actions/staff.grantRole', { form: { email: PEOPLE.learner.email, role: 'administrator', lang: 'en' } });
    expect(grant.status).toBe(403);
  });

  it('lets an administrator grant and remove roles, refusing bad input in words, all in the audit log', async () => {
    const c = await admin();
    const grant = (form: Record<string, string>) => c.post('/_actions/staff.grantRole', { form: { lang: 'en', ...form } });

    const unknown = await grant({ email: 'nadie@academia.example', role: 'editor' });
    expect(unknown.status).toBe(404);
    expect(error(unknown.body).message).toBe(en.people.unknownEmail);
    const noRole = await grant({ email: PEOPLE.learner.email, role: 'owner' });
    expect(noRole.status).toBe(400);
    expect(error(noRole.body).fields?.role).toEqual(['invalidOption']);
    // The page draws that field error as a sentence, with its status (a form posted without JavaScript).
    const noRolePage = await c.post('/en/admin/staff?_action=staff.grantRole', { form: { email: PEOPLE.learner.email, role: 'owner', lang: 'en' } });
    expect(noRolePage.status).toBe(400);
    expect(noRolePage.body).toContain(messages('en').forms.errors.invalidOption);
    const unknownPage = await c.post('/admin/staff?_action=staff.grantRole', { form: { email: 'nadie@academia.example', role: 'editor', lang: 'es' } });
    expect(unknownPage.status).toBe(404);
    expect(unknownPage.body).toContain(es.people.unknownEmail);
    const granted = await grant({ email: PEOPLE.learner.email, role: 'editor' });
    expect(granted.status, granted.body).toBe(200);
    expect((await grant({ email: PEOPLE.learner.email, role: 'editor' })).status).toBe(409);

    const staffPage = await c.get('/en/admin/staff');
    expect(staffPage.status).toBe(200);
    expect(staffPage.body).toContain(PEOPLE.learner.email);
    const adminId = /data-user="(\d+)"[^]*?admin@academia\.example/.exec(staffPage.body)?.[1] ?? /<tr data-user="(\d+)">(?:(?!<\/tr>)[^])*admin@academia\.example/.exec(staffPage.body)![1]!;
    const last = await c.post('/_actions/staff.revokeRole', { form: { userId: adminId, role: 'administrator', lang: 'es' } });
    expect(last.status).toBe(409);
    expect(error(last.body).message).toBe(es.people.lastAdministrator);

    // Without JavaScript: the form posts to the page, which draws the refusal with its status.
    const posted = await c.post('/admin/staff?_action=staff.revokeRole', { form: { userId: adminId, role: 'administrator', lang: 'es' } });
    expect(posted.status).toBe(409);
    expect(posted.body).toContain(es.people.lastAdministrator);

    const audit = await c.get(`/en/admin/audit?action=staff.role.granted&actor=user:${adminId}`);
    expect(audit.status).toBe(200);
    expect(audit.body).toContain('staff.role.granted');
    expect(audit.body).toContain(`user:${adminId}`);
    expect(audit.body).toContain(format(en.audit.total.one, { count: 1 }));
    // References only: no e-mail or name in the log.
    expect(audit.body).not.toContain(PEOPLE.learner.email);
    const nothing = await c.get('/admin/audit?from=2099-01-01&actor=%27%20or%201=1');
    expect(nothing.status).toBe(200);
    expect(nothing.body).toContain(es.audit.none);
  });

  it('limits guesses per account: wrong codes stop with a 429 in words', async () => {
    const { c } = await logIn(PEOPLE.admin.email, PEOPLE.admin.password);
    const wrong = String((Number(totpCode(ADMIN_FACTOR.secret)) + 500_000) % 1_000_000).padStart(6, '0');
    const statuses: number[] = [];
    let last = '';
    for (let i = 0; i < 12 && !statuses.includes(429); i++) {
      const r = await prove(c, wrong, 'en');
      statuses.push(r.status);
      last = r.body;
    }
    expect(statuses).toContain(429);
    expect(error(last).message).toMatch(/^Too many wrong codes\. Try again in \d+ minutes?\.$/);
  });
});
