/**
 * The people area through the built site, as a browser or a script reaches it: a support person (second
 * factor proved) searches, opens a person and acts, each change in the audit log under their name; an
 * editor, a finance person, a learner and a visitor are refused (403, 403, 403, 401); an id that is not
 * one is a 400, an unknown person a 404, NUL and 100 KB reasons a 400, all in words with nothing written;
 * a blocked learner's session is refused like a logged-out one at once and their login answers the
 * "blocked, contact support" sentence; unblocked, they log in again. Needs `npm run build`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import * as s from '../src/lib/db/schema';
import { messages } from '../src/i18n';
import { totpCode } from '../src/lib/staff/staff';
import { auditOf } from '../src/lib/privacy/audit.server';
import type { Client } from '../tests/e2e/support/http';
import { PEOPLE, registrationForm } from '../tests/e2e/support/seed';
import { siteBuilt, startBuiltSite, type BuiltSite } from './built-site.testing';

if (!siteBuilt) console.warn('The people tests are skipped: they need a build (`npm run build`).');

const en = messages('en').people;
const error = (body: string) => JSON.parse(body) as { code?: string; message?: string };

describe.skipIf(!siteBuilt)('people in the back office, through the site', () => {
  let built: BuiltSite;
  const idOf = async (email: string) => (await built.db.db.select({ id: s.users.id }).from(s.users).where(eq(s.users.email, email)))[0]!.id;

  /** A new account holding `role`, logged in with its second factor set up and proved. */
  async function staffWith(role: 'support' | 'finance' | 'editor', tag: string): Promise<{ c: Client; id: number }> {
    const email = `people.${tag}.${Date.now()}@example.com`;
    const c = built.client();
    const r = await c.post('/_actions/auth.register', { form: registrationForm(email) });
    expect(r.status, r.body).toBe(200);
    const id = await idOf(email);
    await built.db.db.insert(s.staffRoles).values({ userId: id, role });
    const again = await c.post('/_actions/auth.login', { form: { email, password: 'Prueba2026x', lang: 'en' } });
    expect(again.status, again.body).toBe(200);
    const setup = await c.get('/en/second-factor/setup');
    const secret = /data-secret[^>]*>([A-Z2-7 ]+)</.exec(setup.body)![1]!.replace(/ /g, '');
    const done = await c.post('/_actions/staff.confirmSetup', { form: { code: totpCode(secret), lang: 'en' } });
    expect(done.status, done.body).toBe(200);
    return { c, id };
  }

  beforeAll(async () => {
    built = await startBuiltSite();
  }, 400_000);
  afterAll(async () => {
    await built?.close();
  });

  it('lets a support person search, open a person and act, each change audited under their name; refuses bad input in words', async () => {
    const { c, id: supportId } = await staffWith('support', 'soporte');
    const learnerId = await idOf(PEOPLE.learner.email);
    const list = await c.get('/en/admin/people?q=laura%20mendez');
    expect(list.status).toBe(200);
    expect(list.body).toContain(`/en/admin/people/${learnerId}`);
    const nul = await c.get('/en/admin/people?q=ana%00');
    expect(nul.status).toBe(400);
    expect(nul.body).toContain(en.badSearch);
    // A search far past its 200 characters, but inside a request line the server reads (a 100 KB one is
    // refused by Node's header limit, 431, and the socket may reset before the answer is read).
    const long = await c.get(`/en/admin/people?q=${'x'.repeat(8 * 1024)}`);
    expect(long.status).toBe(400);
    expect(long.body).toContain(en.badSearch);
    const page = await c.get(`/en/admin/people/${learnerId}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain(PEOPLE.learner.email);
    expect((await c.get('/en/admin/people/2147483647')).status).toBe(404);
    expect((await c.get('/en/admin/people/ACAD-1')).status).toBe(400);

    const ended = await c.post('/_actions/people.endSessions', { form: { id: String(learnerId), lang: 'en' } });
    expect(ended.status, ended.body).toBe(200);
    expect((await auditOf(built.db.db, `user:${learnerId}`, 'people.sessions.ended')).map((e) => e.actor)).toEqual([`user:${supportId}`]);

    const refusals: [Record<string, string>, number, string][] = [
      [{ id: '2147483647', course: '1', reason: 'Regalo' }, 404, en.refusals.unknown],
      [{ id: 'ACAD-1', course: '1', reason: 'Regalo' }, 400, en.refusals.badId],
      [{ id: String(learnerId), course: '1', reason: 'Re\u0000galo' }, 400, en.reasonProblems.invalid],
      [{ id: String(learnerId), course: '1', reason: 'x'.repeat(100 * 1024) }, 400, en.reasonProblems.tooLong],
      [{ id: String(learnerId), course: '999999', reason: 'Regalo' }, 404, en.refusals.unknownCourse],
    ];
    for (const [form, status, message] of refusals) {
      const r = await c.post('/_actions/people.grantCourse', { form: { ...form, lang: 'en' } });
      expect(r.status, JSON.stringify(form).slice(0, 80)).toBe(status);
      expect(error(r.body).message).toBe(message);
    }
    expect(await built.db.db.select().from(s.courseGrants).where(eq(s.courseGrants.userId, learnerId))).toEqual([]);
    expect((await c.post('/_actions/people.block', { form: { id: String(supportId), lang: 'en' } })).status).toBe(409);
    expect((await c.post('/_actions/people.setType', { form: { id: String(learnerId), type: 'root', lang: 'en' } })).status).toBe(400);
  }, 400_000);

  it('refuses editors, finance and learners (403) and visitors (401)', async () => {
    const learnerId = String(await idOf(PEOPLE.learner.email));
    for (const role of ['editor', 'finance'] as const) {
      const { c } = await staffWith(role, role);
      expect((await c.get('/en/admin/people')).status, role).toBe(403);
      const r = await c.post('/_actions/people.block', { form: { id: learnerId, lang: 'en' } });
      expect(r.status, role).toBe(403);
      expect(error(r.body).message).toBe(messages('en').refusals.forbidden);
    }
    const learner = await built.loggedInClient(PEOPLE.buyer.email, PEOPLE.buyer.password);
    expect((await learner.post('/_actions/people.grantCourse', { form: { id: learnerId, course: '1', reason: 'Regalo', lang: 'en' } })).status).toBe(403);
    expect((await built.client().post('/_actions/people.endSessions', { form: { id: learnerId, lang: 'en' } })).status).toBe(401);
    const [blocked] = await built.db.db.select({ at: s.users.blockedAt }).from(s.users).where(eq(s.users.id, Number(learnerId)));
    expect(blocked!.at).toBeNull();
  }, 400_000);

  it('blocks a learner: their open session is refused at once and their login is told to contact support; unblocked, they log in', async () => {
    const { c } = await staffWith('support', 'bloqueo');
    const graduateId = await idOf(PEOPLE.graduate.email);
    const graduate = await built.loggedInClient(PEOPLE.graduate.email, PEOPLE.graduate.password, 'en');
    expect((await graduate.post('/_actions/auth.verify', { json: {} })).status).toBe(200);

    const r = await c.post('/_actions/people.block', { form: { id: String(graduateId), lang: 'en' } });
    expect(r.status, r.body).toBe(200);
    expect((await graduate.post('/_actions/auth.verify', { json: {} })).status).toBe(401);
    expect((await graduate.get('/en/mylearning')).status).toBe(302);
    const login = await built.client().post('/_actions/auth.login', { form: { email: PEOPLE.graduate.email, password: PEOPLE.graduate.password, lang: 'en' } });
    expect(login.status).toBe(403);
    expect(error(login.body).message).toBe(messages('en').identity.login.blocked);
    const wrong = await built.client().post('/_actions/auth.login', { form: { email: PEOPLE.graduate.email, password: 'Wrong2026x', lang: 'en' } });
    expect(error(wrong.body).message).toBe(messages('en').identity.login.invalidCredentials);
    // The login page without JavaScript draws the sentence with the way to the contact page.
    const page = await built.client().post('/en/login?_action=auth.login', { form: { email: PEOPLE.graduate.email, password: PEOPLE.graduate.password, lang: 'en' } });
    expect(page.status).toBe(403);
    expect(page.body).toContain('href="/en/contact-us"');

    expect((await c.post('/_actions/people.unblock', { form: { id: String(graduateId), lang: 'en' } })).status).toBe(200);
    expect((await built.client().post('/_actions/auth.login', { form: { email: PEOPLE.graduate.email, password: PEOPLE.graduate.password, lang: 'en' } })).status).toBe(200);
    expect((await auditOf(built.db.db, `user:${graduateId}`)).filter((e) => e.action.startsWith('people.')).map((e) => e.action)).toEqual(['people.blocked', 'people.unblocked']);
    expect(await built.db.db.select().from(s.sessions).where(and(eq(s.sessions.userId, graduateId), eq(s.sessions.kind, 'user')))).toHaveLength(1);
  }, 400_000);
});
