/**
 * Memberships on PGlite (and PostgreSQL when it answers): buying a plan makes it active for its period
 * and opens its categories through the one access module; at the period's end the renewal charges the
 * saved token (one renewal order per period, one payment attempt per try, never twice however many
 * runs race for it); a failed renewal gives 3 days of grace retried daily, then access lapses; the
 * learner cancels (access until the period ends, no renewal); someone else's membership cannot be
 * cancelled; my shopping lists the plan with its next renewal.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { testDatabases } from '../db/testing';
import type { DbHandle } from '../db/client';
import * as s from '../db/schema';
import { loadCatalog, type CatalogSnapshot } from '../catalog';
import { loadViewer } from '../access';
import type { ChargeRequest, ChargeStatus, PaymentGateway } from './gateway';
import { SandboxGateway } from './sandbox';
import { validateCheckoutForm } from './payment';
import { CheckoutKeys } from './checkout-keys.server';
import { CheckoutService } from './checkout.server';
import { cancelMembership, listMemberships, renewDueMemberships, renewMembership } from './memberships.server';

const databases = await testDatabases();
const BOUGHT = new Date('2026-11-25T12:00:00Z');
const PERIOD_END = new Date('2026-12-25T12:00:00Z');
const DAY = 24 * 60 * 60 * 1000;
const at = (ms: number) => new Date(PERIOD_END.getTime() + ms);

/** The sandbox, with the answer of the next charges forced when a test asks (a card that stops paying). */
class ScriptedGateway implements PaymentGateway {
  readonly name = 'sandbox' as const;
  readonly inner = new SandboxGateway({ now: () => BOUGHT, latencyMs: 2 });
  charges: ChargeRequest[] = [];
  answer: ChargeStatus | null = null;
  tokenize: PaymentGateway['tokenize'] = (card) => this.inner.tokenize(card);
  charge: PaymentGateway['charge'] = async (r) => {
    this.charges.push(r);
    const real = await this.inner.charge(r);
    if (this.answer === null || this.answer === 'approved') return real;
    return this.answer === 'processing-error' ? { status: 'processing-error', retryable: true } : { status: this.answer, chargeId: `ch_forced_${this.charges.length}` };
  };
  lookup: PaymentGateway['lookup'] = (r) => this.inner.lookup(r);
  refund: PaymentGateway['refund'] = (r) => this.inner.refund(r);
}

describe.each(databases)('memberships on $name', ({ create }) => {
  let handle: DbHandle;
  let catalog: CatalogSnapshot;
  const keys = new CheckoutKeys(new Uint8Array(32).fill(9));
  let people = 0;

  const newPerson = async () => {
    people++;
    const [u] = await handle.db.insert(s.users).values({ email: `member.${people}.${Math.random().toString(36).slice(2)}@example.com`, firstName: 'Socia', lastName: `Prueba${people}` }).returning();
    const [c] = await handle.db.insert(s.contacts).values({ userId: u!.id, firstName: 'Socia', lastName: `Prueba${people}`, email: u!.email }).returning();
    return { userId: u!.id, contactId: c!.id };
  };
  /** Buys plan `planId` through the checkout with the approved test card; returns the membership row. */
  const buyPlan = async (who: { userId: number; contactId: number }, gateway: PaymentGateway, planId = 1) => {
    const form = validateCheckoutForm(
      { cardholderName: 'Ana Pérez', cardNumber: '4242 4242 4242 4242', expiryMonth: '12', expiryYear: '2030', cvv: '123', birthYear: '1990', identificationType: '1', identificationNumber: 'AB123', country: 'US', acceptsTerms: 'on', idempotencyKey: keys.issue(who.userId) },
      BOUGHT,
    );
    if (!form.success) throw new Error(JSON.stringify(form.errors));
    const service = new CheckoutService({ db: handle.db, gateway, keys, now: () => BOUGHT, waitMs: 20_000 });
    const out = await service.checkout({ userId: who.userId, contactId: who.contactId, catalog, cartCookie: JSON.stringify([{ kind: 'plan', id: planId }]), form: form.data, couponCode: null, locale: 'en' });
    expect(out.kind).toBe('paid');
    const [m] = await handle.db.select().from(s.memberships).where(eq(s.memberships.userId, who.userId));
    return m!;
  };
  const membership = async (id: number) => (await handle.db.select().from(s.memberships).where(eq(s.memberships.id, id)))[0]!;
  const categoriesAt = async (who: { userId: number; contactId: number }, now: Date) => [...(await loadViewer(handle.db, { kind: 'learner', ...who }, now)).membershipCategories].sort();
  const renewalOrders = async (userId: number) =>
    handle.db
      .select()
      .from(s.orders)
      .where(and(eq(s.orders.userId, userId)))
      .then((rows) => rows.filter((o) => o.idempotencyKey.startsWith('renewal-')));

  beforeAll(async () => {
    handle = await create({ seed: true });
    catalog = await loadCatalog(handle.db);
  });
  afterAll(async () => handle?.close());

  it('buying a plan makes it active for its period, with the saved token and card, and opens its categories', async () => {
    const me = await newPerson();
    const m = await buyPlan(me, new ScriptedGateway());
    expect(m).toMatchObject({ planId: 1, period: 'month', priceCents: 999, cardBrand: 'visa', cardLast4: '4242', gateway: 'sandbox', cancelledAt: null, graceUntil: null });
    expect(m.endsAt).toEqual(PERIOD_END);
    expect(m.gatewayToken).toMatch(/^tok_sandbox_/);
    expect(m.gatewayToken).not.toContain('4242424242424242');
    expect(await categoriesAt(me, BOUGHT)).toEqual([2, 3]);
    expect(await categoriesAt(me, at(1))).toEqual([]);
    const [shown] = await listMemberships(handle.db, me.userId, BOUGHT);
    expect(shown).toMatchObject({ state: 'active', nextRenewal: PERIOD_END, cancellable: true, card: { brand: 'visa', last4: '4242' }, name: { en: 'Basic' } });
  });

  it('at the period’s end the renewal charges the saved token once, however many runs race for it, and adds a period', async () => {
    const me = await newPerson();
    const gateway = new ScriptedGateway();
    const m = await buyPlan(me, gateway);
    gateway.charges = [];
    expect((await renewDueMemberships(handle.db, gateway, at(-1))).map((r) => r.membershipId)).not.toContain(m.id);
    const runs = await Promise.all(Array.from({ length: 8 }, () => renewMembership(handle.db, gateway, m.id, at(1000))));
    expect(runs.filter((r) => r !== null)).toEqual([{ membershipId: m.id, userId: me.userId, outcome: 'renewed' }]);
    expect(gateway.charges).toEqual([expect.objectContaining({ amountCents: 999, token: m.gatewayToken })]);
    const renewed = await membership(m.id);
    expect(renewed.endsAt).toEqual(new Date('2027-01-25T12:00:00Z'));
    expect(renewed.renewals).toBe(1);
    const [order] = await renewalOrders(me.userId);
    expect(order).toMatchObject({ status: 'paid', totalCents: 999, cardLast4: '4242', language: 'en' });
    const items = await handle.db.select().from(s.orderItems).where(eq(s.orderItems.orderId, order!.id));
    expect(items).toEqual([expect.objectContaining({ productKind: 'plan', productId: 1, priceCents: 999, titleEn: 'Basic' })]);
    expect(await categoriesAt(me, at(2 * DAY))).toEqual([2, 3]);
    // Nothing more is due until the new period ends.
    expect(await renewMembership(handle.db, gateway, m.id, at(3 * DAY))).toBeNull();
  });

  it.each(['declined', 'insufficient-funds', 'processing-error'] as const)('a %s renewal gives 3 days of grace, retried daily, then access lapses', async (answer) => {
    const me = await newPerson();
    const gateway = new ScriptedGateway();
    const m = await buyPlan(me, gateway);
    gateway.answer = answer;
    expect(await renewMembership(handle.db, gateway, m.id, at(0))).toMatchObject({ outcome: 'grace' });
    const grace = await membership(m.id);
    expect(grace.graceUntil).toEqual(at(3 * DAY));
    expect(grace.nextTryAt).toEqual(at(DAY));
    expect(await categoriesAt(me, at(2 * DAY))).toEqual([2, 3]);
    const [shown] = await listMemberships(handle.db, me.userId, at(DAY / 2));
    expect(shown).toMatchObject({ state: 'grace', accessUntil: at(3 * DAY), cancellable: false });
    // Not retried before the next day.
    expect(await renewMembership(handle.db, gateway, m.id, at(DAY / 2))).toBeNull();
    expect(await renewMembership(handle.db, gateway, m.id, at(DAY))).toMatchObject({ outcome: 'grace' });
    expect(await renewMembership(handle.db, gateway, m.id, at(2 * DAY))).toMatchObject({ outcome: 'lapsed' });
    expect(await renewMembership(handle.db, gateway, m.id, at(3 * DAY))).toBeNull();
    expect(await categoriesAt(me, at(3 * DAY))).toEqual([]);
    const [order] = await renewalOrders(me.userId);
    expect(order).toMatchObject({ status: 'failed', failureReason: answer });
    const attempts = await handle.db.select().from(s.paymentAttempts).where(eq(s.paymentAttempts.orderId, order!.id));
    expect(attempts.map((a) => a.status)).toEqual([answer, answer, answer]);
    expect((await listMemberships(handle.db, me.userId, at(3 * DAY)))[0]).toMatchObject({ state: 'lapsed', nextRenewal: null, cancellable: false });
  });

  it('a card that pays again during the grace renews the membership from the end of the paid period', async () => {
    const me = await newPerson();
    const gateway = new ScriptedGateway();
    const m = await buyPlan(me, gateway);
    gateway.answer = 'declined';
    await renewMembership(handle.db, gateway, m.id, at(0));
    gateway.answer = null;
    expect(await renewMembership(handle.db, gateway, m.id, at(DAY))).toMatchObject({ outcome: 'renewed' });
    expect(await membership(m.id)).toMatchObject({ endsAt: new Date('2027-01-25T12:00:00Z'), graceUntil: null, nextTryAt: null });
    const [order] = await renewalOrders(me.userId);
    expect(order).toMatchObject({ status: 'paid' });
  });

  it('cancelling keeps access until the period ends and stops the renewal; someone else cannot cancel it', async () => {
    const me = await newPerson();
    const other = await newPerson();
    const gateway = new ScriptedGateway();
    const m = await buyPlan(me, gateway);
    expect(await cancelMembership(handle.db, other.userId, m.id, BOUGHT)).toBeNull();
    expect(await cancelMembership(handle.db, me.userId, 2_147_483_647, BOUGHT)).toBeNull();
    expect((await membership(m.id)).cancelledAt).toBeNull();
    const cancelled = await cancelMembership(handle.db, me.userId, m.id, new Date(BOUGHT.getTime() + DAY));
    expect(cancelled?.cancelledAt).toEqual(new Date(BOUGHT.getTime() + DAY));
    // Twice: the first date stays.
    expect((await cancelMembership(handle.db, me.userId, m.id, new Date(BOUGHT.getTime() + 2 * DAY)))?.cancelledAt).toEqual(new Date(BOUGHT.getTime() + DAY));
    expect((await listMemberships(handle.db, me.userId, BOUGHT))[0]).toMatchObject({ state: 'cancelled', nextRenewal: null, cancellable: false });
    expect(await categoriesAt(me, at(-1))).toEqual([2, 3]);
    gateway.charges = [];
    expect(await renewMembership(handle.db, gateway, m.id, at(1))).toBeNull();
    // The job (other people's renewals may be due too) never touches it.
    expect((await renewDueMemberships(handle.db, gateway, at(1))).map((r) => r.membershipId)).not.toContain(m.id);
    expect(gateway.charges.map((c) => c.token)).not.toContain(m.gatewayToken);
    expect(await categoriesAt(me, at(1))).toEqual([]);
  });

  it('buying the plan again while it is held adds a period to the same membership', async () => {
    const me = await newPerson();
    const gateway = new ScriptedGateway();
    const m = await buyPlan(me, gateway);
    await buyPlan(me, gateway);
    const rows = await handle.db.select().from(s.memberships).where(eq(s.memberships.userId, me.userId));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.id).toBe(m.id);
    expect(rows[0]!.endsAt).toEqual(new Date('2027-01-25T12:00:00Z'));
  });
});
