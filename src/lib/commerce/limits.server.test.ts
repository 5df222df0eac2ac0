/**
 * Card testing and coupon guessing against the checkout, through the functions the checkout action and
 * page use (`limitedCheckout`, `lookUpCoupon`, `loadCheckoutPage`) and real runtimes with the sandbox
 * gateway: on PGlite (one process), and on PostgreSQL with two runtimes sharing one database and no
 * Redis, as two workers. However the posts arrive, no more cards reach the gateway than the limits
 * allow, a paid order (or a checkout refused before the gateway) gives its attempt back, and only the
 * allowed number of unknown coupon codes is answered "does not exist".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createPostgresDatabase, testDatabases } from '../db/testing';
import { openDatabase, type DbHandle } from '../db/client';
import * as s from '../db/schema';
import { loadCatalog, type CatalogSnapshot } from '../catalog';
import { loadViewer } from '../access';
import { testRuntime } from '../testing/runtime';
import type { Runtime } from '../runtime/runtime.server';
import type { PaymentGateway } from './gateway';
import { SandboxGateway } from './sandbox';
import { validateCheckoutForm } from './payment';
import { readCoupon } from './orders.server';
import type { CheckoutOutcome, CheckoutRequest } from './checkout.server';
import { loadCheckoutPage } from './pages.server';
import { couponLimitKeys, limitedCheckout, lookUpCoupon, paymentLimitKeys, type Limited } from './limits.server';
import { plural } from '~/i18n';
import { es } from '~/i18n/es';
import { en } from '~/i18n/en';
import { useTempFolders } from '../testing/temp-folders';

const tempFolder = useTempFolders();

const databases = await testDatabases();
const CARD = { approved: '4242 4242 4242 4242', declined: '4000 0000 0000 0002', funds: '4000 0000 0000 9995' };
const cart = (...items: [kind: 'course' | 'book', id: number][]) => JSON.stringify(items.map(([kind, id]) => ({ kind, id })));
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

/**
 * The sandbox behind a network that answers each card's tokenization after its own delay (up to a second),
 * as a burst of posts arrives at the gateway spread out: checkouts that started together create their
 * orders one after another, so no order of the burst is still pending when the next is placed.
 */
class JitteryGateway implements PaymentGateway {
  readonly name = 'sandbox' as const;
  readonly inner = new SandboxGateway();
  tokenize: PaymentGateway['tokenize'] = async (card) => {
    await new Promise((r) => setTimeout(r, Math.random() * 1000));
    return this.inner.tokenize(card);
  };
  charge: PaymentGateway['charge'] = (r) => this.inner.charge(r);
  lookup: PaymentGateway['lookup'] = (r) => this.inner.lookup(r);
  refund: PaymentGateway['refund'] = (r) => this.inner.refund(r);
  get chargeCount(): number {
    return this.inner.chargeCount;
  }
}

/** The academy's processes on one database: one runtime on PGlite, two (each with its own pool and gateway) on PostgreSQL. */
async function processesOn(name: 'pglite' | 'postgres', create: (opts: { seed: boolean }) => Promise<DbHandle>) {
  const handles: DbHandle[] = [];
  let drop: () => Promise<void> = () => Promise.resolve();
  if (name === 'pglite') handles.push(await create({ seed: true }));
  else {
    const made = await createPostgresDatabase({ prefix: 'academy_checkout_limits', from: 'seeded' });
    drop = made.drop;
    for (let i = 0; i < 2; i++) handles.push(await openDatabase({ databaseUrl: made.url, dataDir: 'unused' }));
  }
  // One data folder: every process signs checkout keys with the same key, as workers of one academy do.
  const dataDir = tempFolder('academy-limits-');
  const gateways: JitteryGateway[] = [];
  const runtimes: Runtime[] = [];
  for (const handle of handles) {
    const gateway = new JitteryGateway();
    gateways.push(gateway);
    runtimes.push(await testRuntime(handle, { env: { DATA_DIR: dataDir }, gateway }));
  }
  return {
    runtimes,
    db: handles[0]!.db,
    charges: () => gateways.reduce((n, g) => n + g.chargeCount, 0),
    async close() {
      for (const r of runtimes) await r.close();
      for (const h of handles) await h.close();
      await drop();
    },
  };
}

describe.each(databases)('checkout limits on $name', ({ name, create }) => {
  let academy: Awaited<ReturnType<typeof processesOn>>;
  let catalog: CatalogSnapshot;
  let people = 0;
  const ADDRESS = `203.0.113.${Math.floor(Math.random() * 200) + 1}`;

  const newPerson = async () => {
    people++;
    const [u] = await academy.db.insert(s.users).values({ email: `limits.${people}.${Math.random().toString(36).slice(2)}@example.com`, firstName: 'Tarjeta', lastName: `Prueba${people}` }).returning();
    const [c] = await academy.db.insert(s.contacts).values({ userId: u!.id, firstName: 'Tarjeta', lastName: `Prueba${people}`, email: u!.email }).returning();
    return { userId: u!.id, contactId: c!.id };
  };
  const request = (runtime: Runtime, who: { userId: number; contactId: number }, cardNumber: string, over: Partial<CheckoutRequest> = {}): CheckoutRequest => {
    const form = validateCheckoutForm(
      { cardholderName: 'Ana Pérez', cardNumber, expiryMonth: '12', expiryYear: '2030', cvv: '123', birthYear: '1990', identificationType: '1', identificationNumber: 'AB123', country: 'US', acceptsTerms: 'on', idempotencyKey: runtime.checkout.keys.issue(who.userId) },
      new Date(),
    );
    if (!form.success) throw new Error(JSON.stringify(form.errors));
    return { userId: who.userId, contactId: who.contactId, catalog, cartCookie: cart(['course', 6]), form: form.data, couponCode: null, locale: 'es', ...over };
  };
  /** One checkout as the action runs it: within the person's and the address's refused-payment limits. */
  const pay = (i: number, who: { userId: number; contactId: number }, cardNumber: string, over: Partial<CheckoutRequest> = {}, address = ADDRESS): Promise<CheckoutOutcome | Limited> => {
    const runtime = academy.runtimes[i % academy.runtimes.length]!;
    return limitedCheckout(runtime.rateLimiter, paymentLimitKeys(who.userId, address), () => runtime.checkout.checkout(request(runtime, who, cardNumber, over)));
  };
  const kinds = (outcomes: (CheckoutOutcome | Limited)[]) => outcomes.reduce<Record<string, number>>((n, o) => ({ ...n, [o.kind]: (n[o.kind] ?? 0) + 1 }), {});

  beforeAll(async () => {
    academy = await processesOn(name, create);
    catalog = await loadCatalog(academy.db);
  });
  afterAll(async () => academy?.close());

  it(`40 declined checkouts posted at once for one account reach the gateway at most 10 times (${name === 'postgres' ? 'two processes' : 'one process'})`, async () => {
    const me = await newPerson();
    const before = academy.charges();
    const outcomes = await Promise.all(range(40).map((i) => pay(i, me, i % 2 ? CARD.declined : CARD.funds)));
    const charged = academy.charges() - before;
    expect(charged).toBeGreaterThan(0);
    expect(charged).toBeLessThanOrEqual(10);
    const counts = kinds(outcomes);
    expect(counts.failed).toBe(charged);
    expect(counts.limited).toBeGreaterThanOrEqual(30);
    // Whatever else the burst got (a checkout of the same course already under way) did not reach the gateway.
    expect(outcomes.every((o) => ['failed', 'limited', 'refused'].includes(o.kind))).toBe(true);
    const stopped = await pay(1, me, CARD.approved);
    expect(stopped).toMatchObject({ kind: 'limited', retryAfterSeconds: expect.any(Number) });
    expect((stopped as Limited).retryAfterSeconds).toBeGreaterThan(3500);
    expect(academy.charges() - before).toBe(charged);
  });

  it('40 declined checkouts at once from one address, for 40 accounts, reach the gateway at most 30 times', async () => {
    const address = `198.51.100.${Math.floor(Math.random() * 200) + 1}`;
    const buyers = await Promise.all(range(40).map(() => newPerson()));
    const before = academy.charges();
    const outcomes = await Promise.all(buyers.map((who, i) => pay(i, who, CARD.declined, {}, address)));
    expect(academy.charges() - before).toBeLessThanOrEqual(30);
    expect(kinds(outcomes)).toEqual({ failed: academy.charges() - before, limited: 40 - (academy.charges() - before) });
  });

  it('a paid order and a checkout refused before the gateway give their attempt back', async () => {
    const me = await newPerson();
    const keyed = `user:${me.userId}`;
    const limiter = academy.runtimes[0]!.rateLimiter;
    for (const i of range(9)) expect(await pay(i, me, CARD.declined)).toMatchObject({ kind: 'failed' });
    expect(await limiter.used('paymentFailuresPerAccount', keyed)).toBe(9);
    // A spent coupon is refused before any card reaches the gateway: it takes nothing.
    for (const i of range(5)) expect(await pay(i, me, CARD.declined, { couponCode: 'AGOTADO' })).toMatchObject({ kind: 'refused', reason: 'coupon-spent' });
    // Paid orders do not count either.
    expect(await pay(0, me, CARD.approved)).toMatchObject({ kind: 'paid' });
    expect(await pay(1, me, CARD.approved, { cartCookie: cart(['book', 1]) })).toMatchObject({ kind: 'paid' });
    expect(await limiter.used('paymentFailuresPerAccount', keyed)).toBe(9);
    expect(await pay(0, me, CARD.declined, { cartCookie: cart(['book', 2]) })).toMatchObject({ kind: 'failed' });
    const before = academy.charges();
    expect(await pay(1, me, CARD.approved, { cartCookie: cart(['book', 2]) })).toMatchObject({ kind: 'limited' });
    expect(academy.charges()).toBe(before);
  });

  it('the runtime purges expired counts once an hour, whichever process runs the job', async () => {
    const key = `expired-${Math.random().toString(36).slice(2)}`;
    await academy.db.insert(s.rateLimits).values({ key, points: 10, expire: new Date(Date.now() - 1000) });
    expect((await academy.runtimes[academy.runtimes.length - 1]!.scheduler.runDue()).recurring).toContain('rate-limit-purge');
    expect(await academy.db.select().from(s.rateLimits).where(eq(s.rateLimits.key, key))).toEqual([]);
  });

  it('200 coupon guesses at once: 10 are answered "does not exist", the rest are told to wait; known coupons do not count', async () => {
    const me = await newPerson();
    const keys = couponLimitKeys(me.userId, `192.0.2.${Math.floor(Math.random() * 200) + 1}`);
    const viewer = await loadViewer(academy.db, { kind: 'learner', userId: me.userId, contactId: me.contactId });
    /** The checkout page with `code` typed in the coupon field, as process `i` draws it. */
    const page = async (i: number, code: string) => {
      const runtime = academy.runtimes[i % academy.runtimes.length]!;
      const p = await loadCheckoutPage(runtime.db, catalog, viewer, me.userId, cart(['course', 6]), code, 'es', runtime.checkout.keys, new Date(), { limiter: runtime.rateLimiter, keys });
      if (p.kind !== 'ready') throw new Error(p.kind);
      return p.coupon!;
    };
    // A coupon that exists is applied as often as it is typed, and takes nothing.
    for (const i of range(12)) expect(await page(i, 'bienvenida10')).toMatchObject({ refusal: null, discount: '$2.00' });

    // Half the guesses through the page, half through the checkout's look-up, all at once, from both processes.
    const answers = await Promise.all(
      range(200).map(async (i) => {
        const code = `ADIVINA${i}`;
        if (i % 2) return (await page(i, code)).refusal;
        const runtime = academy.runtimes[i % academy.runtimes.length]!;
        const found = await lookUpCoupon(runtime.rateLimiter, keys, () => readCoupon(runtime.db, code));
        return found.kind === 'unknown' ? 'coupon-unknown' : found.kind === 'limited' ? 'coupon-limited' : 'found';
      }),
    );
    expect(answers.filter((a) => a === 'coupon-unknown')).toHaveLength(10);
    expect(answers.filter((a) => a === 'coupon-limited')).toHaveLength(190);
    // Past the limit even a real code is not looked up (its answer would tell a guesser it exists).
    const limited = await page(0, 'BIENVENIDA10');
    expect(limited).toMatchObject({ refusal: 'coupon-limited', discount: null });
    expect(limited.retryAfterSeconds).toBeGreaterThan(3500);
    // The sentence says how long to wait, in both languages.
    const minutes = Math.ceil(limited.retryAfterSeconds! / 60);
    expect(plural('es', es.commerce.coupon['coupon-limited'], minutes)).toBe('Probaste demasiados cupones que no existen. Espera 60 minutos antes de probar otro.');
    expect(plural('en', en.commerce.coupon['coupon-limited'], minutes)).toBe('You tried too many coupons that do not exist. Wait 60 minutes before trying another.');
  });
});
