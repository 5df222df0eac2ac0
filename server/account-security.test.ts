/**
 * The account's security actions and the confirmation of an address, through the built site as a
 * browser reaches them (`/_actions/…` as a script calls them, `?_action=` as a form posts them without
 * JavaScript): each good path, and each bad input answered with a sentence in the page's language and
 * a 4xx, nothing changed. Mail is read from the server's outbox. Needs `npm run build`.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { format, messages, type Locale } from '../src/i18n';
import { emailTokens, users } from '../src/lib/db/schema';
import { hashToken } from '../src/lib/identity/session.server';
import { Client } from '../tests/e2e/support/http';
import { linkToken, mailsIn, waitForMail } from '../tests/e2e/support/outbox';
import { paymentForm } from '../tests/e2e/support/payment';
import { registrationForm } from '../tests/e2e/support/seed';
import { siteBuilt, startBuiltSite, type BuiltSite } from './built-site.testing';

if (!siteBuilt) console.warn('The account security tests are skipped: they need a build (`npm run build`).');

const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';
const error = (body: string) => JSON.parse(body) as { code?: string; message?: string; fields?: Record<string, string[]> };

describe.skipIf(!siteBuilt)('account security, through the site', () => {
  let built: BuiltSite;
  let next = 0;
  const dataDir = () => built.runtime.config.dataDir;
  const open = () => built.client();
  /** A new account, registered (and so logged in) on a client of its own. */
  const register = async (locale: Locale = 'es') => {
    const email = `seguridad.${next++}.${Date.now()}@example.com`;
    const password = 'Vieja2026x';
    const c = open();
    const r = await c.post('/_actions/auth.register', { form: { ...registrationForm(email, 'Nora', password), lang: locale }, headers: { 'user-agent': ANDROID } });
    expect(r.status, r.body).toBe(200);
    return { c, email, password };
  };
  const logIn = (email: string, password: string) => built.loggedInClient(email, password);
  const loggedIn = async (c: Client) => (await c.post('/_actions/auth.verify', { json: {} })).status === 200;

  beforeAll(async () => {
    built = await startBuiltSite();
  }, 120_000);
  afterAll(() => built?.close());

  describe('confirming the address given at sign-up', () => {
    it('mails a single-use link at sign-up; a banner asks meanwhile; purchases and certificates wait for it', async () => {
      const { c, email } = await register('en');
      const mail = await waitForMail(dataDir(), [email, 'confirm-email?token']);
      expect(mail).toContain(messages('en').security.mail.verifySubject);
      // The banner, on any page, with the resend button.
      const home = await c.get('/en/');
      expect(home.body).toContain(format(messages('en').security.verify.banner, { email }));
      // Unconfirmed: no purchase, no certificate, each with the sentence and a 403.
      c.cookies.set('cart', encodeURIComponent(JSON.stringify([{ kind: 'course', id: 6 }])));
      const buy = await c.post('/_actions/commerce.checkout', { form: paymentForm({ lang: 'en' }) });
      expect(buy.status, buy.body).toBe(403);
      expect(error(buy.body).message).toBe(messages('en').security.verify.needed);
      const page = await c.post('/purchase-detail?_action=commerce.checkout', { form: paymentForm({ lang: 'es' }) });
      expect(page.status).toBe(403);
      expect(page.body).toContain(messages('es').security.verify.needed);
      const cert = await c.post('/_actions/certificates.issue', { form: { course: '2', lang: 'es' } });
      expect(cert.status).toBe(403);
      expect(error(cert.body).message).toBe(messages('es').security.verify.needed);
      // The link confirms once: the banner goes, and the checkout passes this rule (the forged key is what it refuses now).
      const token = await linkToken(dataDir(), email);
      const shown = await c.get(`/en/confirm-email?token=${token}`);
      expect(shown.status).toBe(200);
      expect(shown.body).toContain(messages('en').security.verify.submit);
      const confirmed = await c.post('/en/confirm-email?_action=account.confirmEmail', { form: { token, lang: 'en' } });
      expect(confirmed.status).toBe(200);
      expect(confirmed.body).toContain(messages('en').security.verify.verified);
      expect((await c.get('/en/')).body).not.toContain(format(messages('en').security.verify.banner, { email }));
      const after = await c.post('/_actions/commerce.checkout', { form: paymentForm({ lang: 'en' }) });
      expect(error(after.body).message ?? '').not.toBe(messages('en').security.verify.needed);
      // Reused: the sentence and a 4xx, in both languages, as a script and as the page.
      for (const locale of ['es', 'en'] as const) {
        const again = await c.post('/_actions/account.confirmEmail', { form: { token, lang: locale } });
        expect(again.status).toBe(400);
        expect(error(again.body).message).toBe(messages(locale).security.verify.invalidLink);
        const reopened = await open().get(`${locale === 'en' ? '/en' : ''}/confirm-email?token=${token}`);
        expect(reopened.status).toBe(410);
        expect(reopened.body).toContain(messages(locale).security.verify.invalidLink);
      }
    });

    it('refuses an expired link with the sentence, confirming nothing; a new one can be asked for', async () => {
      const { c, email } = await register();
      const token = await linkToken(dataDir(), email);
      await built.db.db.update(emailTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(emailTokens.tokenHash, hashToken(token)));
      const r = await c.post('/confirm-email?_action=account.confirmEmail', { form: { token, lang: 'es' } });
      expect(r.status).toBe(400);
      expect(r.body).toContain(messages('es').security.verify.invalidLink);
      const [user] = await built.db.db.select({ at: users.emailVerifiedAt }).from(users).where(eq(users.email, email));
      expect(user!.at).toBeNull();
      // Sent again from the banner's button (a post without JavaScript lands on the security page).
      const resent = await c.post('/profile/security?_action=account.resendVerification', { form: { lang: 'es' } });
      expect(resent.status).toBe(200);
      expect(resent.body).toContain(format(messages('es').security.verify.resent, { email }));
      await waitForMail(dataDir(), [email, 'confirm-email?token'], 10_000, 2);
      const fresh = await linkToken(dataDir(), email);
      expect(fresh).not.toBe(token);
      expect((await c.post('/_actions/account.confirmEmail', { form: { token: fresh, lang: 'es' } })).status).toBe(200);
      // Nothing left to confirm: it says so and sends nothing.
      const done = await c.post('/_actions/account.resendVerification', { form: { lang: 'en' } });
      expect(done.body).toContain(messages('en').security.verify.already);
    });
  });

  describe('changing the password', () => {
    it('refuses a wrong current password with the sentence (es, en; script and page), changing nothing', async () => {
      const { c, email, password } = await register();
      for (const locale of ['es', 'en'] as const) {
        const form = { currentPassword: 'NoEsLaMia1', password: 'Nueva2026x', confirmPassword: 'Nueva2026x', lang: locale };
        const rpc = await c.post('/_actions/account.changePassword', { form });
        expect(rpc.status).toBe(400);
        expect(error(rpc.body).message).toBe(messages(locale).security.password.wrongPassword);
        const page = await c.post(`${locale === 'en' ? '/en' : ''}/profile/security?_action=account.changePassword`, { form });
        expect(page.status).toBe(400);
        expect(page.body).toContain(messages(locale).security.password.wrongPassword);
      }
      await logIn(email, password);
    });

    it('is limited per account: guessing the current password stops with a 429', async () => {
      const { c } = await register();
      const form = { currentPassword: 'NoEsLaMia1', password: 'Nueva2026x', confirmPassword: 'Nueva2026x', lang: 'en' };
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) statuses.push((await c.post('/_actions/account.changePassword', { form })).status);
      expect(statuses.slice(0, 10).every((s) => s === 400)).toBe(true);
      expect(statuses[10]).toBe(429);
    });

    it('ends every other session of the person (this one stays), and the new password is the one that works', async () => {
      const { c, email, password } = await register();
      const other = await logIn(email, password);
      expect(await loggedIn(other)).toBe(true);
      const r = await c.post('/_actions/account.changePassword', { form: { currentPassword: password, password: 'Nueva2026x', confirmPassword: 'Nueva2026x', lang: 'en' } });
      expect(r.status, r.body).toBe(200);
      expect(await loggedIn(other)).toBe(false);
      expect(await loggedIn(c)).toBe(true);
      expect((await open().post('/_actions/auth.login', { form: { email, password, lang: 'en' } })).status).toBe(400);
      await logIn(email, 'Nueva2026x');
    });
  });

  describe('changing the e-mail address', () => {
    it('mails the new address a link and tells the old one; changes only when the link is opened, once', async () => {
      const { c, email, password } = await register('en');
      const to = `nueva.${next}.${Date.now()}@example.com`;
      const r = await c.post('/_actions/account.changeEmail', { form: { email: to, currentPassword: password, lang: 'en' } });
      expect(r.status, r.body).toBe(200);
      // The notice's ASCII words (the subject is encoded in the header).
      const notice = await waitForMail(dataDir(), [email, 'Someone with access to your account']);
      expect(notice).not.toContain('confirm-email');
      const token = await linkToken(dataDir(), to);
      expect((await c.get('/en/profile/security')).body).toContain(format(messages('en').security.email.current, { email }));
      const opened = await open().post('/_actions/account.confirmEmail', { form: { token, lang: 'en' } });
      expect(opened.status, opened.body).toBe(200);
      expect((await c.get('/en/profile/security')).body).toContain(format(messages('en').security.email.current, { email: to }));
      await logIn(to, password);
      const reused = await c.post('/_actions/account.confirmEmail', { form: { token, lang: 'es' } });
      expect(reused.status).toBe(400);
      expect(error(reused.body).message).toBe(messages('es').security.verify.invalidLink);
    });

    it('refuses a wrong password and an address in use (as registration does), changing and sending nothing', async () => {
      const { c, email, password } = await register();
      const wrong = await c.post('/_actions/account.changeEmail', { form: { email: `x.${Date.now()}@example.com`, currentPassword: 'NoEsLaMia1', lang: 'es' } });
      expect(wrong.status).toBe(400);
      expect(error(wrong.body).message).toBe(messages('es').security.password.wrongPassword);
      const taken = await c.post('/_actions/account.changeEmail', { form: { email: 'learner@academia.example', currentPassword: password, lang: 'es' } });
      expect(taken.status).toBe(409);
      const page = await c.post('/en/profile/security?_action=account.changeEmail', { form: { email: 'learner@academia.example', currentPassword: password, lang: 'en' } });
      expect(page.status).toBe(409);
      expect(page.body).toContain(messages('en').forms.errors.emailTaken.replace('{field}', messages('en').identity.fields.email));
      expect(await mailsIn(dataDir(), 'learner@academia.example', 'confirm-email')).toEqual([]);
      expect(await mailsIn(dataDir(), email, 'confirm-email?token')).toHaveLength(1);
      expect(await mailsIn(dataDir(), email, 'Alguien con acceso a tu cuenta')).toEqual([]);
      // The right password and a free address: accepted.
      const valid = await c.post('/_actions/account.changeEmail', { form: { email: `libre.${Date.now()}@example.com`, currentPassword: password, lang: 'es' } });
      expect(valid.status).toBe(200);
    });
  });

  describe('the open sessions', () => {
    it('lists each with its device, masked address and approximate place; logs out one, or all the others', async () => {
      const { c, email, password } = await register();
      const second = await logIn(email, password);
      const third = await logIn(email, password);
      const page = await c.get('/en/profile/security');
      expect(page.status).toBe(200);
      expect(page.body).toContain('Chrome on Android');
      expect(page.body).toMatch(/127\.0\.0\.x/);
      // The approximate place: a loopback address is a local network (countries come from the bundled table).
      expect(page.body).toMatch(/<dd data-place[^>]*>A local network<\/dd>/);
      const ids = [...page.body.matchAll(/name="session" value="([0-9a-f]{24})"/g)].map((m) => m[1]!);
      expect(ids).toHaveLength(3);
      // The page lists this session first (most recently used): log out the last one listed that is not it.
      const current = /data-session="current"[\s\S]*?name="session" value="([0-9a-f]{24})"/.exec(page.body)![1]!;
      const others = ids.filter((id) => id !== current);
      const one = await c.post('/en/profile/security?_action=account.endSession', { form: { session: others[0]!, lang: 'en' } });
      expect(one.status).toBe(200);
      expect(one.body).toContain(messages('en').security.sessions.ended);
      expect([await loggedIn(second), await loggedIn(third)].filter(Boolean)).toHaveLength(1);
      const rest = await c.post('/_actions/account.endOtherSessions', { form: { lang: 'es' } });
      expect(rest.status).toBe(200);
      expect(rest.body).toContain('Se cerró 1 sesión.');
      expect([await loggedIn(second), await loggedIn(third), await loggedIn(c)]).toEqual([false, false, true]);
    });

    it("refuses someone else's session id with a sentence and a 404, ending nothing", async () => {
      const me = await register();
      const them = await register();
      const theirs = [...(await them.c.get('/profile/security')).body.matchAll(/name="session" value="([0-9a-f]{24})"/g)].map((m) => m[1]!);
      expect(theirs).toHaveLength(1);
      for (const locale of ['es', 'en'] as const) {
        const rpc = await me.c.post('/_actions/account.endSession', { form: { session: theirs[0]!, lang: locale } });
        expect(rpc.status).toBe(404);
        expect(error(rpc.body).message).toBe(messages(locale).security.sessions.notFound);
        const page = await me.c.post(`${locale === 'en' ? '/en' : ''}/profile/security?_action=account.endSession`, { form: { session: theirs[0]!, lang: locale } });
        expect(page.status).toBe(404);
        expect(page.body).toContain(messages(locale).security.sessions.notFound);
      }
      expect(await loggedIn(them.c)).toBe(true);
      expect(await loggedIn(me.c)).toBe(true);
    });

    it('logging out this very session from the list ends it and leaves the page', async () => {
      const { c } = await register();
      const page = await c.get('/profile/security');
      const current = /data-session="current"[\s\S]*?name="session" value="([0-9a-f]{24})"/.exec(page.body)![1]!;
      const r = await c.post('/profile/security?_action=account.endSession', { form: { session: current, lang: 'es' } });
      expect(r.status).toBe(303);
      expect(await loggedIn(c)).toBe(false);
    });

    it('needs a learner: a visitor is sent to log in, and the actions answer 401', async () => {
      const visitor = open();
      const page = await visitor.get('/en/profile/security');
      expect(page.status).toBe(302);
      expect(page.location).toContain('/en/login');
      for (const name of ['changePassword', 'changeEmail', 'endSession', 'endOtherSessions', 'resendVerification']) {
        expect((await visitor.post(`/_actions/account.${name}`, { form: { lang: 'en', session: '0123456789abcdef01234567', currentPassword: 'x', password: 'Nueva2026x', confirmPassword: 'Nueva2026x', email: 'a@example.com' } })).status, name).toBe(401);
      }
    });
  });
});
