/**
 * Every refusal an action gives comes from one place (the action kit and the middleware around it), so
 * each kind is answered alike for an action of each access level, in both languages: 401 (no session
 * of the kind the action declares), 403, 429 (with Retry-After and the wait in words), 400 naming the
 * field, and 503 when the database is out of reach. A script's call (`/_actions/…`) gets Astro's action
 * error as JSON; a form posted without JavaScript (`?_action=`) gets the page, with the status and the
 * sentence in the page's language.
 *
 * The actions: `contact.send` (public), `ibo.lookup` (IBO sessions), `exams.*` and `commerce.checkout`
 * (logged-in users). A public action refuses nobody for access (no 401/403 of its own); the IBO actions
 * are called by islands only (no page posts them). On the built site (`npm run build`), in this process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, plural, type Locale } from '../src/i18n';
import { Client } from '../tests/e2e/support/http';
import { linkToken } from '../tests/e2e/support/outbox';
import { paymentForm } from '../tests/e2e/support/payment';
import { registrationForm } from '../tests/e2e/support/seed';
import { siteBuilt, startBuiltSite, type BuiltSite } from './built-site.testing';

if (!siteBuilt) console.warn('The refusal tests are skipped: they need a build (`npm run build`).');

const LOCALES = ['es', 'en'] as const;
/** Small limits, so a few calls use them up (each test sends from its own loopback address). */
const RATE_LIMITS = 'contactPerAddress=2/600,lookupPerAddress=2/600,couponGuessesPerAccount=1/600,loginPerAddress=5/900';
/** Logins per address allowed above (wrong ones; the right password gives its attempt back). */
const LOGINS_PER_ADDRESS = 5;

const LEARNER = { email: 'learner@academia.example', password: 'Aprende2026' };

/** A contact form as the page posts it, in `language`. */
const contactForm = (language: Locale, over: Record<string, string> = {}) => ({
  name: 'Refusal',
  lastName: 'Test',
  email: 'refusal@example.com',
  countryCode: 'US',
  countryPhoneCode: '+1',
  phone: '3051234567',
  type: '8',
  message: 'Hello',
  accepts: 'on',
  language,
  ...over,
});

/** An Astro action error, as a script reads it. */
function actionError(body: string): { code?: string; message?: string; type?: string; fields?: Record<string, string[]> } {
  return JSON.parse(body) as never;
}

describe.skipIf(!siteBuilt)('refusals: one answer per kind, access level and language', () => {
  let built: BuiltSite;
  let next = 0;
  /** A client of its own loopback address (its own per-address limits). */
  const open = () => built.client();
  const learner = () => built.loggedInClient(LEARNER.email, LEARNER.password);
  /** A new account of its own, logged in (its per-account limits are its own). */
  const newLearner = async () => {
    const c = open();
    const email = `refusal.${next++}.${Date.now()}@example.com`;
    const r = await c.post('/_actions/auth.register', { form: { ...registrationForm(email), lang: 'es' } });
    expect(r.status, r.body).toBe(200);
    // Purchases wait for a confirmed address: the link mailed at sign-up, opened as its owner would.
    const confirmed = await c.post('/_actions/account.confirmEmail', { form: { token: await linkToken(built.runtime.config.dataDir, email), lang: 'es' } });
    expect(confirmed.status, confirmed.body).toBe(200);
    return c;
  };
  /** A paid course in the cart, so the checkout page shows its form. */
  const withCart = (c: Client) => c.cookies.set('cart', encodeURIComponent(JSON.stringify([{ kind: 'course', id: 6 }])));
  const ibo = async () => {
    const c = open();
    expect((await c.post('/_actions/ibo.enter', { form: { code: 'HORIZONTE01', lang: 'es' } })).status).toBe(200);
    return c;
  };

  beforeAll(async () => {
    built = await startBuiltSite({ env: { RATE_LIMITS } });
  });
  afterAll(() => built?.close());

  describe('401: no session of the kind the action declares', () => {
    for (const locale of LOCALES) {
      it(`ibo.lookup (ibo) asks a visitor and a logged-in user for an IBO code, as JSON (${locale})`, async () => {
        for (const c of [open(), await learner()]) {
          const r = await c.post('/_actions/ibo.lookup', { json: { email: 'ana@example.com', lang: locale } });
          expect(r.status).toBe(401);
          expect(r.headers['content-type']).toMatch(/^application\/json/);
          expect(actionError(r.body)).toMatchObject({ code: 'UNAUTHORIZED', message: messages(locale).ibo.needsIbo });
        }
      });

      it(`exams.start (learner) asks a visitor and an IBO session to log in, as JSON (${locale})`, async () => {
        for (const c of [open(), await ibo()]) {
          const r = await c.post('/_actions/exams.start', { form: { course: '1', lang: locale } });
          expect(r.status).toBe(401);
          expect(actionError(r.body)).toMatchObject({ code: 'UNAUTHORIZED', message: messages(locale).exams.info.reasons.login });
        }
      });

      it(`exams.start (learner) posted by a form without JavaScript sends a visitor to log in, then back (${locale})`, async () => {
        const prefix = locale === 'en' ? '/en' : '';
        const r = await open().post(`${prefix}/course-exam/1?_action=exams.start`, { form: { course: '1', lang: locale } });
        expect(r.status).toBe(303);
        expect(r.location).toBe(`${prefix}/login?next=${encodeURIComponent(`${prefix}/course-exam/1?_action=exams.start`)}`);
      });
    }
  });

  describe('403: logged in the needed way, but not allowed', () => {
    for (const locale of LOCALES) {
      it(`exams.start (learner) refuses an exam whose lessons are not done: JSON and the page, in words (${locale})`, async () => {
        const c = await learner();
        const rpc = await c.post('/_actions/exams.start', { form: { course: '1', lang: locale } });
        expect(rpc.status).toBe(403);
        expect(actionError(rpc.body).code).toBe('FORBIDDEN');
        const sentence = actionError(rpc.body).message!;
        expect(sentence).toMatch(locale === 'en' ? /lesson/i : /lecci/i);
        const page = await c.post(`${locale === 'en' ? '/en' : ''}/course-exam/1?_action=exams.start`, { form: { course: '1', lang: locale } });
        expect(page.status).toBe(403);
        expect(page.headers['content-type']).toMatch(/^text\/html/);
        expect(page.body).toContain(sentence.replaceAll("'", '&#39;'));
        expect(page.body).toContain(`lang="${locale}"`);
      });
    }
  });

  describe('429: a limit used up, with Retry-After and the wait', () => {
    for (const locale of LOCALES) {
      it(`contact.send (public): the third message from an address, as JSON and as the page (${locale})`, async () => {
        const c = open();
        for (let i = 0; i < 2; i++) expect((await c.post('/_actions/contact.send', { form: contactForm(locale) })).status).toBe(200);
        const rpc = await c.post('/_actions/contact.send', { form: contactForm(locale) });
        expect(rpc.status).toBe(429);
        expect(Number(rpc.headers['retry-after'])).toBeGreaterThan(0);
        expect(actionError(rpc.body)).toMatchObject({ code: 'TOO_MANY_REQUESTS', message: messages(locale).contact.tooMany });
        const page = await c.post(`${locale === 'en' ? '/en' : ''}/contact-us?_action=contact.send`, { form: contactForm(locale) });
        expect(page.status).toBe(429);
        expect(Number(page.headers['retry-after'])).toBeGreaterThan(0);
        expect(page.body).toContain(messages(locale).contact.tooMany);
      });

      it(`ibo.lookup (ibo): the third look-up from an address, as JSON (${locale})`, async () => {
        const c = await ibo();
        for (let i = 0; i < 2; i++) expect((await c.post('/_actions/ibo.lookup', { json: { email: 'ana@example.com', lang: locale } })).status).toBe(200);
        const r = await c.post('/_actions/ibo.lookup', { json: { email: 'ana@example.com', lang: locale } });
        expect(r.status).toBe(429);
        expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
        expect(actionError(r.body)).toMatchObject({ code: 'TOO_MANY_REQUESTS', message: messages(locale).ibo.tooMany });
      });

      it(`commerce.checkout (learner): the second unknown coupon of an account, as JSON and as the page, in minutes (${locale})`, async () => {
        const c = await newLearner();
        const form = paymentForm({ lang: locale, coupon: 'NOPE-REFUSAL-1' });
        const first = await c.post('/_actions/commerce.checkout', { form });
        expect(first.status).toBe(400);
        const wait = plural(locale, messages(locale).commerce.coupon['coupon-limited'], 10);
        const rpc = await c.post('/_actions/commerce.checkout', { form: { ...form, coupon: 'NOPE-REFUSAL-2' } });
        expect(rpc.status).toBe(429);
        expect(Number(rpc.headers['retry-after'])).toBeGreaterThan(540);
        expect(actionError(rpc.body)).toMatchObject({ code: 'TOO_MANY_REQUESTS', message: wait });
        const page = await c.post(`${locale === 'en' ? '/en' : ''}/purchase-detail?_action=commerce.checkout`, { form: { ...form, coupon: 'NOPE-REFUSAL-3' } });
        expect(page.status).toBe(429);
        expect(Number(page.headers['retry-after'])).toBeGreaterThan(540);
        expect(page.body).toContain(wait);
      });
    }
  });

  describe('logins from one address (a classroom behind one router)', () => {
    const login = (c: Client, form: Record<string, string>) => c.post('/_actions/auth.login', { form });

    it(`40 right passwords in the window all log in, though the address allows ${LOGINS_PER_ADDRESS} attempts`, async () => {
      const c = open();
      const accounts = [LEARNER, { email: 'buyer@academia.example', password: 'Compra2026' }];
      for (let i = 0; i < 40; i++) {
        const r = await login(c, { ...accounts[i % 2]!, lang: i % 3 === 0 ? 'en' : 'es' });
        expect(r.status, `login ${i + 1}: ${r.body}`).toBe(200);
      }
    });

    for (const locale of LOCALES) {
      it(`wrong passwords from the address are still refused past the limit, with 429 and the wait in words (${locale})`, async () => {
        const c = open();
        // A different unknown account each time, so only the address's limit is in play.
        const wrong = (i: number) => login(c, { email: `nobody.${locale}.${i}@example.com`, password: 'not-the-password', lang: locale });
        for (let i = 0; i < LOGINS_PER_ADDRESS - 1; i++) expect((await wrong(i)).status, `wrong password ${i + 1}`).toBe(400);
        // A right password in between neither refuses nor wipes the wrong ones already counted.
        expect((await login(c, { ...LEARNER, lang: locale })).status).toBe(200);
        expect((await wrong(LOGINS_PER_ADDRESS - 1)).status).toBe(400);
        const refused = await wrong(LOGINS_PER_ADDRESS);
        expect(refused.status).toBe(429);
        expect(Number(refused.headers['retry-after'])).toBeGreaterThan(840);
        expect(actionError(refused.body)).toMatchObject({ code: 'TOO_MANY_REQUESTS', message: plural(locale, messages(locale).identity.login.tooManyAttempts, 15) });
        // The address is refused, even with the right password, until the window passes.
        expect((await login(c, { ...LEARNER, lang: locale })).status).toBe(429);
      });
    }
  });

  describe('400: the field that is wrong', () => {
    for (const locale of LOCALES) {
      it(`contact.send (public): a bad e-mail, as JSON (its code) and as the page (in words) (${locale})`, async () => {
        const c = open();
        const rpc = await c.post('/_actions/contact.send', { form: contactForm(locale, { email: 'not-an-email' }) });
        expect(rpc.status).toBe(400);
        expect(actionError(rpc.body).fields).toEqual({ email: ['invalidEmail'] });
        const page = await c.post(`${locale === 'en' ? '/en' : ''}/contact-us?_action=contact.send`, { form: contactForm(locale, { email: 'not-an-email' }) });
        expect(page.status).toBe(400);
        expect(page.body).toContain(messages(locale).forms.errors.invalidEmail);
      });

      it(`ibo.lookup (ibo): an overlong e-mail, as JSON (${locale})`, async () => {
        const c = await ibo();
        const r = await c.post('/_actions/ibo.lookup', { json: { email: `${'a'.repeat(500)}@example.com`, lang: locale } });
        expect(r.status).toBe(400);
        expect(Object.keys(actionError(r.body).fields ?? {})).toEqual(['email']);
      });

      it(`commerce.checkout (learner): a card number failing its check digit, as JSON (its code) and as the page (in words) (${locale})`, async () => {
        const c = await newLearner();
        withCart(c);
        const form = paymentForm({ lang: locale, cardNumber: '4242 4242 4242 4241' });
        const rpc = await c.post('/_actions/commerce.checkout', { form });
        expect(rpc.status).toBe(400);
        expect(actionError(rpc.body).fields).toEqual({ cardNumber: ['cardLuhn'] });
        const page = await c.post(`${locale === 'en' ? '/en' : ''}/purchase-detail?_action=commerce.checkout`, { form });
        expect(page.status).toBe(400);
        expect(page.body).toContain(messages(locale).forms.errors.cardLuhn);
      });
    }
  });

  describe('503: the database out of reach', () => {
    /** Runs `fn` while every query fails as a lost connection does. */
    async function outage<T>(fn: () => Promise<T>): Promise<T> {
      const pg = (built.db.db as unknown as { $client: Record<string, unknown> }).$client;
      const saved = { query: pg.query, transaction: pg.transaction };
      const lost = () => Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }));
      pg.query = lost;
      pg.transaction = lost;
      try {
        return await fn();
      } finally {
        Object.assign(pg, saved);
      }
    }

    for (const locale of LOCALES) {
      it(`contact.send (public), ibo.lookup (ibo) and exams.answer (learner) answer busy as JSON; forms get the busy page (${locale})`, async () => {
        const visitor = open();
        const [iboSession, user] = [await ibo(), await learner()];
        // Sessions, the catalogue and the learner's access are read once before the outage (then kept in
        // memory), as on a server that has been serving for a while.
        expect((await user.post('/_actions/auth.verify')).status).toBe(200);
        expect((await iboSession.post('/_actions/auth.verify')).status).toBe(200);
        expect((await visitor.get('/contact-us')).status).toBe(200);
        expect((await user.get('/course-exam-info/1')).status).toBe(200);
        await outage(async () => {
          const calls = [
            await visitor.post('/_actions/contact.send', { form: contactForm(locale) }),
            await iboSession.post('/_actions/ibo.lookup', { json: { email: 'ana@example.com', lang: locale } }),
            await user.post('/_actions/exams.answer', { json: { course: 1, attempt: 1, question: 5, answer: 17, lang: locale } }),
          ];
          for (const r of calls) {
            expect(r.status, r.body).toBe(503);
            expect(r.headers['retry-after']).toBe('5');
            expect(actionError(r.body)).toEqual({ type: 'AstroActionError', code: 'SERVICE_UNAVAILABLE', status: 503, message: messages(locale).busy.action });
          }
          const prefix = locale === 'en' ? '/en' : '';
          for (const [c, path, form] of [
            [visitor, `${prefix}/contact-us?_action=contact.send`, contactForm(locale)],
            [user, `${prefix}/course-exam/1?_action=exams.start`, { course: '1', lang: locale }],
          ] as const) {
            const page = await c.post(path, { form });
            expect(page.status, path).toBe(503);
            expect(page.headers['content-type']).toMatch(/^text\/html/);
            expect(page.body).toContain(messages(locale).busy.message);
          }
        });
      });
    }

    it('a limiter whose store fails refuses as busy instead of letting the call through or failing with 500', async () => {
      const c = open();
      const limiter = built.runtime.rateLimiter;
      const hit = limiter.hit;
      limiter.hit = () => Promise.reject(new Error('rate_limits: connection lost'));
      try {
        for (const locale of LOCALES) {
          const r = await c.post('/_actions/auth.login', { form: { ...LEARNER, lang: locale } });
          expect(r.status).toBe(503);
          expect(actionError(r.body).message).toBe(messages(locale).busy.action);
          // No session was started: the login was not let through uncounted.
          expect(c.cookies.has('session')).toBe(false);
        }
      } finally {
        limiter.hit = hit;
      }
    });
  });
});
