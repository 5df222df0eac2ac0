/**
 * A checkout page left open over a day, on the built site: its key (stamped a day and an hour ago, with
 * the site's own secret) places no order. Posted by the island (an action call) it answers 400 with the
 * sentence in the reader's language, and the island then asks for a fresh key; posted as a plain form
 * (no JavaScript) the page answers with the sentence and a fresh form holding a new, valid key. No order
 * is written either way. Skipped without a build (`npm run build`).
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../src/lib/db/client';
import { orders, users } from '../src/lib/db/schema';
import type { Runtime } from '../src/lib/runtime/runtime.server';
import { CHECKOUT_KEY_TTL_MS, CheckoutKeys } from '../src/lib/commerce/checkout-keys.server';
import { messages } from '../src/i18n';
import { siteBuilt, startBuiltSite, type BuiltSite } from './built-site.testing';

if (!siteBuilt) console.warn('The checkout-expiry tests are skipped: they need a build (`npm run build`).');

describe.skipIf(!siteBuilt)('a checkout key over a day old, on the built site', () => {
  let built: BuiltSite;
  let runtime: Runtime;
  let base: string;
  let db: DbHandle;
  let cookie: string;
  let userId: number;
  let stale: string;

  beforeAll(async () => {
    built = await startBuiltSite();
    ({ runtime, base, db } = built);
    const cart = `cart=${encodeURIComponent(JSON.stringify([{ kind: 'course', id: 6 }]))}`;
    cookie = `${await built.logIn('learner@academia.example', 'Aprende2026')}; ${cart}`;
    [{ id: userId }] = (await db.db.select({ id: users.id }).from(users).where(eq(users.email, 'learner@academia.example'))) as [{ id: number }];
    // What the page issued a day and an hour ago, with the site's own secret.
    const then = await CheckoutKeys.fromSigningKey(runtime.signingKey.privateKey, { now: () => Date.now() - CHECKOUT_KEY_TTL_MS - 60 * 60_000 });
    stale = then.issue(userId);
  });

  afterAll(() => built?.close());

  const form = (lang: 'es' | 'en', key: string) =>
    new URLSearchParams({
      cardholderName: 'Laura Méndez', cardNumber: '4242 4242 4242 4242', expiryMonth: '12', expiryYear: '2030', cvv: '123', birthYear: '1990',
      identificationType: '1', identificationNumber: 'AB123', country: 'US', acceptsTerms: 'on', idempotencyKey: key, lang,
    });
  const post = (path: string, body: URLSearchParams) =>
    fetch(base + path, { method: 'POST', headers: { origin: base, cookie, 'content-type': 'application/x-www-form-urlencoded' }, body, redirect: 'manual' });
  const ordersOfLearner = () => db.db.select().from(orders).where(eq(orders.userId, userId));

  it('the island’s call answers 400 with the sentence in the reader’s language, and the fresh key it then asks for is accepted', async () => {
    for (const lang of ['es', 'en'] as const) {
      const r = await post('/_actions/commerce.checkout', form(lang, stale));
      expect(r.status, lang).toBe(400);
      expect(((await r.json()) as { message: string }).message).toBe(messages(lang).commerce.refusals['expired-key']);
    }
    expect(await ordersOfLearner()).toEqual([]);
    const fresh = await fetch(`${base}/_actions/commerce.newKey`, { method: 'POST', headers: { origin: base, cookie, 'content-type': 'application/json' }, body: JSON.stringify({ lang: 'en' }) });
    expect(fresh.status).toBe(200);
    // The answer is Astro's serialization of `{ idempotencyKey }`: the one UUID in it.
    const idempotencyKey = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/.exec(await fresh.text())?.[0];
    expect(runtime.checkout.keys.check(userId, idempotencyKey!)).toBe('valid');
  });

  it('without JavaScript the page answers 400 with the sentence and a fresh form holding a new, valid key', async () => {
    for (const lang of ['es', 'en'] as const) {
      const r = await post(`${lang === 'en' ? '/en' : ''}/purchase-detail?_action=commerce.checkout`, form(lang, stale));
      expect(r.status, lang).toBe(400);
      const html = await r.text();
      expect(html).toContain(messages(lang).commerce.refusals['expired-key']);
      const key = /name="idempotencyKey" value="([^"]+)"/.exec(html)?.[1];
      expect(key, 'the form carries a key').toBeDefined();
      expect(key).not.toBe(stale);
      expect(runtime.checkout.keys.check(userId, key!)).toBe('valid');
    }
    expect(await ordersOfLearner()).toEqual([]);
  });
});
