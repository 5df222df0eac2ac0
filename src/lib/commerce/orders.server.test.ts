/**
 * Orders on PGlite (and PostgreSQL when it answers): a paid checkout grants access in its transaction,
 * a declined or short card fails with the cart's products still unbought, a processing error waits for
 * a retry with the same form; one order and one charge however many times a checkout is posted at once
 * (across simulated processes); forged, foreign and reused keys, tampered carts and spent coupons make
 * no order and no charge; coupons are counted atomically; the referring IBO is recorded; and neither the
 * database nor the logs ever hold the card number.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq, sql } from 'drizzle-orm';
import { testDatabases } from '../db/testing';
import type { DbHandle } from '../db/client';
import * as s from '../db/schema';
import { loadCatalog, type CatalogSnapshot } from '../catalog';
import type { ChargeRequest, PaymentGateway } from './gateway';
import { MemorySandboxLedger, SandboxGateway } from './sandbox';
import { validateCheckoutForm, type CheckoutForm } from './payment';
import { CheckoutKeys } from './checkout-keys.server';
import { CheckoutService, type CheckoutOutcome, type CheckoutRequest } from './checkout.server';
import { loadCheckoutPage, loadOrderPage } from './pages.server';
import { receiptFacts } from './receipt';
import { receiptPdf, sendReceipt } from './receipt.server';
import { loadViewer } from '../access';
import { es } from '~/i18n/es';
import type { MailMessage } from '../mail/mail';

const databases = await testDatabases();
const NOW = new Date('2026-11-25T12:00:00Z');
const CARD = { approved: '4242 4242 4242 4242', declined: '4000 0000 0000 0002', funds: '4000 0000 0000 9995', processing: '4000 0000 0000 0119' };
const cart = (...items: [kind: 'course' | 'book' | 'plan', id: number][]) => JSON.stringify(items.map(([kind, id]) => ({ kind, id })));

/** A gateway that counts what reaches it (the sandbox behind it). */
class CountingGateway implements PaymentGateway {
  readonly name = 'sandbox' as const;
  charges: ChargeRequest[] = [];
  constructor(readonly inner = new SandboxGateway({ now: () => NOW, latencyMs: 5 })) {}
  tokenize: PaymentGateway['tokenize'] = (card) => this.inner.tokenize(card);
  charge: PaymentGateway['charge'] = (r) => {
    this.charges.push(r);
    return this.inner.charge(r);
  };
  lookup: PaymentGateway['lookup'] = (r) => this.inner.lookup(r);
  refund: PaymentGateway['refund'] = (r) => this.inner.refund(r);
}

describe.each(databases)('orders on $name', ({ create }) => {
  let handle: DbHandle;
  let catalog: CatalogSnapshot;
  let keys: CheckoutKeys;
  const logged: string[] = [];
  const logger = { info: (o: object, m: string) => logged.push(JSON.stringify([o, m])), warn: (o: object, m: string) => logged.push(JSON.stringify([o, m])) };
  let people = 0;

  /** A new learner (and their contact). */
  const newPerson = async () => {
    people++;
    const [u] = await handle.db.insert(s.users).values({ email: `orders.${people}.${Math.random().toString(36).slice(2)}@example.com`, firstName: 'Orden', lastName: `Prueba${people}` }).returning();
    const [c] = await handle.db.insert(s.contacts).values({ userId: u!.id, firstName: 'Orden', lastName: `Prueba${people}`, email: u!.email }).returning();
    return { userId: u!.id, contactId: c!.id };
  };
  const form = (userId: number, over: Record<string, string> = {}): CheckoutForm => {
    const r = validateCheckoutForm(
      { cardholderName: 'Ana Pérez', cardNumber: CARD.approved, expiryMonth: '12', expiryYear: '2030', cvv: '123', birthYear: '1990', identificationType: '1', identificationNumber: 'AB123', country: 'US', acceptsTerms: 'on', idempotencyKey: keys.issue(userId), ...over },
      NOW,
    );
    if (!r.success) throw new Error(JSON.stringify(r.errors));
    return r.data;
  };
  const request = (who: { userId: number; contactId: number }, over: Partial<CheckoutRequest> = {}, formOver: Record<string, string> = {}): CheckoutRequest => ({
    userId: who.userId,
    contactId: who.contactId,
    catalog,
    cartCookie: cart(['course', 6]),
    form: form(who.userId, formOver),
    couponCode: null,
    locale: 'es',
    ...over,
  });
  const service = (gateway: PaymentGateway = new CountingGateway()) => new CheckoutService({ db: handle.db, gateway, keys, logger, now: () => NOW, waitMs: 20_000 });
  const ordersOf = async (userId: number) => handle.db.select().from(s.orders).where(eq(s.orders.userId, userId));
  const accessOf = async (userId: number) => handle.db.select().from(s.purchaseAccess).where(eq(s.purchaseAccess.userId, userId));

  beforeAll(async () => {
    handle = await create({ seed: true });
    catalog = await loadCatalog(handle.db);
    keys = new CheckoutKeys(new Uint8Array(32).fill(7));
  });
  afterAll(async () => handle?.close());

  it('buys a course with the approved test card: paid, access granted with the order, the payload stored, only brand and last 4 kept', async () => {
    const me = await newPerson();
    const gateway = new CountingGateway();
    const out = await service(gateway).checkout(request(me, { cartCookie: cart(['course', 6], ['book', 1]) }));
    expect(out.kind).toBe('paid');
    if (out.kind !== 'paid') return;
    expect(out.settledHere).toBe(true);
    expect(out.order).toMatchObject({ status: 'paid', subtotalCents: 1999 + 1490, discountCents: 0, totalCents: 3489, cardBrand: 'visa', cardLast4: '4242', cardExpiryMonth: 12, cardExpiryYear: 2030, currencyCode: 'USD', countryCode: 'USA' });
    expect(gateway.charges).toEqual([expect.objectContaining({ amountCents: 3489, currency: 'USD', idempotencyKey: `order-${out.order.id}-attempt-1` })]);
    expect(await accessOf(me.userId)).toEqual([expect.objectContaining({ courseId: 6, orderId: out.order.id })]);
    const [attempt] = await handle.db.select().from(s.paymentAttempts).where(eq(s.paymentAttempts.orderId, out.order.id));
    expect(attempt).toMatchObject({ status: 'approved', amountCents: 3489, gateway: 'sandbox' });
    expect(attempt!.payload).toMatchObject({ applicationId: 10, entityId: 3, productId: 78, supplierId: 11, payment: { amount: '34.89', currencyCode: 'USD', countryCode: 'USA', wayToPayId: 36, language: 'es' } });
    const page = await loadOrderPage(handle.db, me.userId, String(out.order.id));
    expect(page?.items.map((i) => [i.productKind, i.productId, i.priceCents, i.titleEs.length > 0])).toEqual([
      ['course', 6, 1999, true],
      ['book', 1, 1490, true],
    ]);
  });

  it.each([
    [CARD.declined, 'declined'],
    [CARD.funds, 'insufficient-funds'],
  ] as const)('a refused card (%s) fails the order: no access, the reason kept', async (number, reason) => {
    const me = await newPerson();
    const out = await service().checkout(request(me, {}, { cardNumber: number }));
    expect(out).toMatchObject({ kind: 'failed', reason, order: { status: 'failed', failureReason: reason } });
    expect(await accessOf(me.userId)).toEqual([]);
  });

  it('a processing error leaves the order pending; posting the same form again retries it as a new attempt', async () => {
    const me = await newPerson();
    const gateway = new CountingGateway();
    const svc = service(gateway);
    const req = request(me, {}, { cardNumber: CARD.processing });
    expect((await svc.checkout(req)).kind).toBe('retry');
    expect((await svc.checkout(req)).kind).toBe('retry');
    const [order] = await ordersOf(me.userId);
    expect(order).toMatchObject({ status: 'pending', failureReason: 'processing-error' });
    expect(gateway.charges.map((c) => c.idempotencyKey)).toEqual([`order-${order!.id}-attempt-1`, `order-${order!.id}-attempt-2`]);
    expect(await ordersOf(me.userId)).toHaveLength(1);
  });

  it('after a processing error the buyer pays with another card: the order and its receipt name the card charged', async () => {
    const me = await newPerson();
    const svc = service();
    const first = request(me, {}, { cardNumber: CARD.processing });
    expect((await svc.checkout(first)).kind).toBe('retry');
    expect((await ordersOf(me.userId))[0]).toMatchObject({ cardLast4: '0119' });
    const paid = await svc.checkout({ ...first, form: { ...first.form, cardNumber: '5555 5555 5555 4444' } });
    expect(paid).toMatchObject({ kind: 'paid', order: { status: 'paid', cardBrand: 'mastercard', cardLast4: '4444' } });
    expect((await ordersOf(me.userId))[0]).toMatchObject({ status: 'paid', cardBrand: 'mastercard', cardLast4: '4444' });
  });

  it('50 concurrent posts of one checkout from 25 processes make 1 order and 1 charge', async () => {
    const me = await newPerson();
    const gateway = new CountingGateway();
    const processes = Array.from({ length: 25 }, () => service(gateway));
    const req = request(me);
    const outcomes = await Promise.all(Array.from({ length: 50 }, (_, i) => processes[i % 25]!.checkout(req)));
    const orders = await ordersOf(me.userId);
    expect(orders).toHaveLength(1);
    expect(gateway.charges).toHaveLength(1);
    expect((gateway.inner.ledger as MemorySandboxLedger).charges.size).toBe(1);
    for (const o of outcomes) {
      expect(['paid', 'refused']).toContain(o.kind);
      if (o.kind === 'refused') expect(o.reason).toBe('reused-key');
      expect((o as { order: { id: number } }).order.id).toBe(orders[0]!.id);
    }
    expect(outcomes.filter((o) => o.kind === 'paid' && o.settledHere)).toHaveLength(2); // the winner, and the repeat sharing its flight in that process
    expect(await accessOf(me.userId)).toHaveLength(1);
  });

  it('refuses a forged key, a key issued to someone else, and a key already used: no order, no charge', async () => {
    const me = await newPerson();
    const other = await newPerson();
    const gateway = new CountingGateway();
    const svc = service(gateway);
    expect(await svc.checkout(request(me, {}, { idempotencyKey: '6f1c2b1e-3c1a-4b7e-9d2f-1a2b3c4d5e6f' }))).toEqual({ kind: 'refused', reason: 'forged-key' });
    expect(await svc.checkout(request(me, {}, { idempotencyKey: keys.issue(other.userId) }))).toEqual({ kind: 'refused', reason: 'forged-key' });
    expect(await ordersOf(me.userId)).toEqual([]);
    // A paid form posted again answers its paid order (nothing charged again); a failed one is used up.
    const req = request(me);
    const first = await svc.checkout(req);
    expect(first.kind).toBe('paid');
    const again = await svc.checkout(req);
    expect(again).toMatchObject({ kind: 'paid', settledHere: false, order: { id: first.kind === 'paid' ? first.order.id : -1, status: 'paid' } });
    expect(await ordersOf(me.userId)).toHaveLength(1);
    expect(gateway.charges).toHaveLength(1);
    const refusedReq = request(other, {}, { cardNumber: CARD.declined });
    expect((await svc.checkout(refusedReq)).kind).toBe('failed');
    expect(await svc.checkout(refusedReq)).toMatchObject({ kind: 'refused', reason: 'reused-key' });
    expect(gateway.charges).toHaveLength(2);
  });

  it.each([
    ['a malformed cookie', 'not json', 'malformed-cart'],
    ['a duplicated product', cart(['course', 6], ['course', 6]), 'malformed-cart'],
    ['an unknown product', cart(['course', 99999]), 'unknown-product'],
    ['a buyers-only course they did not buy', cart(['course', 10]), 'unknown-product'],
    ['the hidden test course', cart(['course', 12]), 'unknown-product'],
    ['a free course', cart(['course', 1]), 'not-for-sale'],
    ['an empty cart', '[]', 'empty-cart'],
    ['no cart at all', undefined, 'empty-cart'],
  ] as const)('refuses %s in the cart cookie: no order, no charge', async (_label, cookie, reason) => {
    const me = await newPerson();
    const gateway = new CountingGateway();
    expect(await service(gateway).checkout(request(me, { cartCookie: cookie }))).toEqual({ kind: 'refused', reason });
    expect(await ordersOf(me.userId)).toEqual([]);
    expect(gateway.charges).toEqual([]);
  });

  it('refuses a course already bought (the buyer’s), and a second checkout of a course being paid', async () => {
    const me = await newPerson();
    const svc = service();
    expect((await svc.checkout(request(me))).kind).toBe('paid');
    expect(await svc.checkout(request(me))).toEqual({ kind: 'refused', reason: 'not-for-sale' });
    const slow = await newPerson();
    const stuck = service(new CountingGateway(new SandboxGateway({ now: () => NOW })));
    expect((await stuck.checkout(request(slow, {}, { cardNumber: CARD.processing }))).kind).toBe('retry');
    expect(await svc.checkout(request(slow))).toEqual({ kind: 'refused', reason: 'in-progress' });
  });

  it('applies a percent coupon, counts its use, and gives the use back when the payment fails', async () => {
    const me = await newPerson();
    const out = await service().checkout(request(me, { couponCode: 'BIENVENIDA10' }));
    expect(out.kind === 'paid' && out.order).toMatchObject({ subtotalCents: 1999, discountCents: 200, totalCents: 1799, couponCode: 'BIENVENIDA10' });
    const uses = async () => (await handle.db.select({ uses: s.coupons.uses }).from(s.coupons).where(eq(s.coupons.code, 'BIENVENIDA10')))[0]!.uses;
    const before = await uses();
    const other = await newPerson();
    expect((await service().checkout(request(other, { couponCode: 'BIENVENIDA10' }, { cardNumber: CARD.declined }))).kind).toBe('failed');
    expect(await uses()).toBe(before);
  });

  it.each([
    ['AGOTADO', 'coupon-spent'],
    ['VENCIDO', 'coupon-expired'],
    ['NOEXISTE', 'coupon-unknown'],
  ] as const)('refuses the coupon %s (%s): no order, no charge', async (code, reason) => {
    const me = await newPerson();
    const gateway = new CountingGateway();
    expect(await service(gateway).checkout(request(me, { couponCode: code }))).toEqual({ kind: 'refused', reason });
    expect(await ordersOf(me.userId)).toEqual([]);
    expect(gateway.charges).toEqual([]);
  });

  it('refuses a coupon before its start date (no order, no charge, no use) and applies it from then on', async () => {
    await handle.db.insert(s.coupons).values({ code: 'PRONTO', kind: 'percent', percent: 10, startsAt: new Date(NOW.getTime() + 60_000) });
    const me = await newPerson();
    const gateway = new CountingGateway();
    expect(await service(gateway).checkout(request(me, { couponCode: 'PRONTO' }))).toEqual({ kind: 'refused', reason: 'coupon-not-yet' });
    expect(await ordersOf(me.userId)).toEqual([]);
    expect(gateway.charges).toEqual([]);
    const [row] = await handle.db.select().from(s.coupons).where(eq(s.coupons.code, 'PRONTO'));
    expect(row!.uses).toBe(0);
    // From its start on it applies.
    const later = new CheckoutService({ db: handle.db, gateway, keys, logger, now: () => new Date(NOW.getTime() + 60_000), waitMs: 20_000 });
    const out = await later.checkout(request(me, { couponCode: 'PRONTO' }));
    expect(out.kind === 'paid' && out.order.couponCode).toBe('PRONTO');
  });

  it('counts a coupon’s uses atomically: 8 buyers at once, 3 uses, 3 orders', async () => {
    await handle.db.insert(s.coupons).values({ code: 'TRES', kind: 'fixed', amountCents: 100, maxUses: 3 });
    const buyers = await Promise.all(Array.from({ length: 8 }, () => newPerson()));
    const gateway = new CountingGateway();
    const outcomes: CheckoutOutcome[] = await Promise.all(buyers.map((b, i) => new CheckoutService({ db: handle.db, gateway, keys, now: () => NOW }).checkout(request(b, { couponCode: 'TRES' }, { idempotencyKey: keys.issue(b.userId) + (i < 0 ? '' : '') }))));
    expect(outcomes.filter((o) => o.kind === 'paid')).toHaveLength(3);
    expect(outcomes.filter((o) => o.kind === 'refused').map((o) => (o as { reason: string }).reason)).toEqual(Array(5).fill('coupon-spent'));
    const [row] = await handle.db.select().from(s.coupons).where(eq(s.coupons.code, 'TRES'));
    expect(row!.uses).toBe(3);
    expect(gateway.charges).toHaveLength(3);
  });

  it('records the referring IBO: the referral record’s last touch', async () => {
    const me = await newPerson();
    const [ibo] = await handle.db.select().from(s.ibos).limit(1);
    await handle.db.insert(s.referrals).values({ visitorId: `visitor-${me.userId}`, firstIboId: ibo!.id, lastIboId: ibo!.id, userId: me.userId });
    const out = await service().checkout(request(me, { referralVisitorId: `visitor-${me.userId}` }));
    expect(out.kind === 'paid' && out.order.referringIboId).toBe(ibo!.id);
  });

  it('prices the summary from the server, shows a coupon’s discount or why not, and issues a key for the person', async () => {
    const me = await newPerson();
    const viewer = await loadViewer(handle.db, { kind: 'learner', userId: me.userId, contactId: me.contactId });
    const page = await loadCheckoutPage(handle.db, catalog, viewer, me.userId, cart(['course', 6]), 'bienvenida10', 'en', keys, NOW);
    expect(page).toMatchObject({ kind: 'ready', subtotal: '$19.99', total: '$17.99', coupon: { code: 'BIENVENIDA10', discount: '$2.00', refusal: null }, appliedCoupon: 'BIENVENIDA10' });
    if (page.kind === 'ready') expect(keys.verify(me.userId, page.idempotencyKey)).toBe(true);
    expect(await loadCheckoutPage(handle.db, catalog, viewer, me.userId, cart(['course', 6]), 'AGOTADO', 'en', keys, NOW)).toMatchObject({ coupon: { refusal: 'coupon-spent' }, appliedCoupon: null, total: '$19.99' });
    expect(await loadCheckoutPage(handle.db, catalog, viewer, me.userId, cart(['course', 10]), null, 'en', keys, NOW)).toEqual({ kind: 'refused', reason: 'unknown-product' });
  });

  it('shows an order only to its buyer; a junk id is no order', async () => {
    const me = await newPerson();
    const other = await newPerson();
    const out = await service().checkout(request(me));
    const id = String((out as { order: { id: number } }).order.id);
    expect(await loadOrderPage(handle.db, me.userId, id)).not.toBeNull();
    expect(await loadOrderPage(handle.db, other.userId, id)).toBeNull();
    for (const junk of ['abc', '0', '-1', '99999999999', '1e3', undefined]) expect(await loadOrderPage(handle.db, me.userId, junk)).toBeNull();
  });

  it('the seeded buyer holds four paid orders (courses 6, 10, 16 with their access, and book 1)', async () => {
    const [buyer] = await handle.db.select().from(s.users).where(eq(s.users.email, 'buyer@academia.example'));
    const orders = await handle.db.select().from(s.orders).innerJoin(s.orderItems, eq(s.orderItems.orderId, s.orders.id)).where(eq(s.orders.userId, buyer!.id));
    expect(orders.map((o) => `${o.order_items.productKind} ${o.order_items.productId}`).sort()).toEqual(['book 1', 'course 10', 'course 16', 'course 6']);
    expect(orders.every((o) => o.orders.status === 'paid' && o.orders.cardLast4 === '4242')).toBe(true);
    const access = await accessOf(buyer!.id);
    expect(access.map((a) => a.orderId).every((id) => orders.some((o) => o.orders.id === id))).toBe(true);
  });

  it('sends the receipt with its PDF attached', async () => {
    const me = await newPerson();
    const out = await service().checkout(request(me, { couponCode: 'BIENVENIDA10' }));
    const order = await loadOrderPage(handle.db, me.userId, String((out as { order: { id: number } }).order.id));
    const facts = receiptFacts(order!, { name: 'Ana Pérez', email: 'ana@example.com' }, 'es', es.commerce, 'Academia');
    const sent: MailMessage[] = [];
    await sendReceipt(async (m) => (sent.push(m), { messageId: '1' }), facts, 'https://academia.example/myshopping-detail/1');
    expect(sent[0]!.to).toBe('ana@example.com');
    expect(sent[0]!.text).toContain('Visa terminada en 4242');
    expect(sent[0]!.attachments?.[0]).toMatchObject({ filename: `recibo-${facts.number}.pdf`, contentType: 'application/pdf' });
    expect(Buffer.from(sent[0]!.attachments![0]!.content).subarray(0, 5).toString()).toBe('%PDF-');
    expect((await receiptPdf(facts)).length).toBeGreaterThan(1000);
  });

  it('a book already bought is refused before any charge; a course and a book bought together are each bought once', async () => {
    const me = await newPerson();
    const gateway = new CountingGateway();
    expect((await service(gateway).checkout(request(me, { cartCookie: cart(['book', 2]) }))).kind).toBe('paid');
    expect(await service(gateway).checkout(request(me, { cartCookie: cart(['course', 6], ['book', 2]) }))).toEqual({ kind: 'refused', reason: 'already-bought' });
    expect(gateway.charges).toHaveLength(1);
    expect(await ordersOf(me.userId)).toHaveLength(1);
  });

  it('a gateway that cannot take the card (a live Stripe key given a raw card, or unreachable) orders nothing and says to try again', async () => {
    const me = await newPerson();
    class Refusing extends CountingGateway {
      override tokenize: PaymentGateway['tokenize'] = () => Promise.reject(new Error('A live Stripe key takes no raw card numbers'));
    }
    const gateway = new Refusing();
    expect(await service(gateway).checkout(request(me))).toEqual({ kind: 'unavailable' });
    expect(await ordersOf(me.userId)).toEqual([]);
    expect(gateway.charges).toEqual([]);
  });

  it('a late gateway report settles the order: a pending one is paid (access granted) or failed, a failed one has its money refunded once; repeats and unknown charges change nothing', async () => {
    const me = await newPerson();
    const refunds: string[] = [];
    class LateGateway extends CountingGateway {
      override charge: PaymentGateway['charge'] = async (r) => {
        this.charges.push(r);
        return { status: 'declined', chargeId: `pi_late_${r.idempotencyKey}` };
      };
      override refund: PaymentGateway['refund'] = async (r) => {
        refunds.push(r.idempotencyKey);
        return { status: 'refunded', refundId: 're_1', amountCents: 1999 };
      };
    }
    const svc = service(new LateGateway());
    // Declined at checkout, then reported paid: the money goes back, the order stays failed.
    const failed = await svc.checkout(request(me));
    expect(failed.kind).toBe('failed');
    if (failed.kind !== 'failed') return;
    const chargeId = `pi_late_order-${failed.order.id}-attempt-1`;
    expect(await svc.reconcile({ chargeId, outcome: 'succeeded' })).toEqual({ done: 'refunded', userId: me.userId });
    expect(await svc.reconcile({ chargeId, outcome: 'succeeded' })).toEqual({ done: 'refunded', userId: me.userId });
    expect(new Set(refunds)).toEqual(new Set([`refund-${chargeId}`]));
    expect((await ordersOf(me.userId))[0]).toMatchObject({ status: 'failed' });
    expect(await accessOf(me.userId)).toEqual([]);
    // An order still waiting for its answer (its attempt knows the charge): a reported success pays it.
    await handle.db.update(s.orders).set({ status: 'pending', failureReason: 'processing-error' }).where(eq(s.orders.id, failed.order.id));
    expect(await svc.reconcile({ chargeId, outcome: 'succeeded' })).toEqual({ done: 'paid', userId: me.userId });
    expect((await ordersOf(me.userId))[0]).toMatchObject({ status: 'paid' });
    expect(await accessOf(me.userId)).toEqual([expect.objectContaining({ courseId: 6, orderId: failed.order.id })]);
    expect(await svc.reconcile({ chargeId, outcome: 'succeeded' })).toEqual({ done: 'unchanged', userId: me.userId });
    expect(await svc.reconcile({ chargeId, outcome: 'failed' })).toEqual({ done: 'unchanged', userId: me.userId });
    expect(await svc.reconcile({ chargeId: 'pi_nobody', outcome: 'succeeded' })).toEqual({ done: 'unknown', userId: null });
    // A waiting order reported failed fails.
    const other = await newPerson();
    const second = await svc.checkout(request(other));
    if (second.kind !== 'failed') throw new Error(second.kind);
    await handle.db.update(s.orders).set({ status: 'pending', failureReason: 'processing-error' }).where(eq(s.orders.id, second.order.id));
    expect(await svc.reconcile({ chargeId: `pi_late_order-${second.order.id}-attempt-1`, outcome: 'failed' })).toEqual({ done: 'failed', userId: other.userId });
    expect((await ordersOf(other.userId))[0]).toMatchObject({ status: 'failed' });
  });

  it('never stores or logs the card number: the database dump and the logs do not hold 4242424242424242', async () => {
    const me = await newPerson();
    await service().checkout(request(me));
    const number = '4242424242424242';
    expect(logged.length).toBeGreaterThan(0);
    expect(logged.join('\n')).not.toContain(number);
    expect(logged.join('\n')).not.toContain('4242 4242 4242 4242');
    // Every row of every table, as text.
    const rowsOf = (result: unknown): unknown[] => (Array.isArray(result) ? result : ((result as { rows?: unknown[] }).rows ?? []));
    const tables = await handle.db.execute(sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`);
    const names = rowsOf(tables).map((r) => (r as { table_name: string }).table_name);
    expect(names).toContain('payment_attempts');
    for (const name of names) {
      const rows = await handle.db.execute(sql.raw(`select * from "${name}"`));
      const text = JSON.stringify(rowsOf(rows));
      expect(text, name).not.toContain(number);
    }
    // PGlite: the data folder itself.
    if (handle.snapshot) {
      const dump = Buffer.from(await (await handle.snapshot()).arrayBuffer());
      expect(dump.includes(number)).toBe(false);
    }
    const [{ n }] = (await handle.db.select({ n: count() }).from(s.orders)) as [{ n: number }];
    expect(n).toBeGreaterThan(0);
  });
});
