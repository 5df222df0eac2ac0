/**
 * What a crash leaves in the money path, settled (PGlite, and PostgreSQL when it answers). A process
 * "dies" here by never hearing its gateway's answer: its charge promise never settles, so the order it
 * placed stays as the dead process left it. Another process (another CheckoutService and gateway on the
 * same database, as after a restart or on another worker) then reconciles: the sandbox's charges are in
 * the database, so it finds them by the attempt's idempotency key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { testDatabases } from '../db/testing';
import type { DbHandle } from '../db/client';
import * as s from '../db/schema';
import { loadCatalog, type CatalogSnapshot } from '../catalog';
import { loadViewer } from '../access';
import { createLogger } from '../http/log.server';
import { createScheduler } from '../jobs';
import type { ChargeRequest, PaymentGateway } from './gateway';
import { SandboxGateway } from './sandbox';
import { DatabaseSandboxLedger } from './sandbox-ledger.server';
import { validateCheckoutForm } from './payment';
import { CheckoutKeys } from './checkout-keys.server';
import { CheckoutService, type CheckoutRequest } from './checkout.server';
import { ABANDONED_AFTER_MS, reconcilePayments, RECONCILE_AFTER_MS, registerPaymentReconciler } from './reconcile.server';
import { renewDueMemberships, renewMembership } from './memberships.server';

const databases = await testDatabases();
const NOW = new Date('2026-11-25T12:00:00Z');
const after = (ms: number) => new Date(NOW.getTime() + ms);
const CARD = { approved: '4242 4242 4242 4242', declined: '4000 0000 0000 0002' };
const keys = new CheckoutKeys(new Uint8Array(32).fill(5));

/** The sandbox on the database's ledger: one per "process". */
const sandbox = (handle: DbHandle, now = () => NOW) => new SandboxGateway({ ledger: new DatabaseSandboxLedger(handle.db), now });

/**
 * A process that dies while charging: `before` — its request never reached the gateway; `after` — the
 * gateway made the charge, and the process died before hearing the answer. Either way the promise never settles.
 */
class DyingGateway implements PaymentGateway {
  readonly name = 'sandbox' as const;
  constructor(
    readonly inner: SandboxGateway,
    readonly when: 'before' | 'after',
  ) {}
  tokenize: PaymentGateway['tokenize'] = (card) => this.inner.tokenize(card);
  charge = async (r: ChargeRequest): Promise<never> => {
    if (this.when === 'after') await this.inner.charge(r);
    return new Promise<never>(() => undefined);
  };
  lookup: PaymentGateway['lookup'] = (r) => this.inner.lookup(r);
  refund: PaymentGateway['refund'] = (r) => this.inner.refund(r);
}

describe.each(databases)('reconciling payments on $name', ({ create }) => {
  let handle: DbHandle;
  let catalog: CatalogSnapshot;
  let people = 0;

  const newPerson = async () => {
    people++;
    const [u] = await handle.db.insert(s.users).values({ email: `reconcile.${people}.${Math.random().toString(36).slice(2)}@example.com`, firstName: 'Cobro', lastName: `Prueba${people}` }).returning();
    const [c] = await handle.db.insert(s.contacts).values({ userId: u!.id, firstName: 'Cobro', lastName: `Prueba${people}`, email: u!.email }).returning();
    return { userId: u!.id, contactId: c!.id };
  };
  const request = (who: { userId: number; contactId: number }, card = CARD.approved, cartItems = [{ kind: 'course', id: 6 }], couponCode: string | null = null): CheckoutRequest => {
    const form = validateCheckoutForm(
      { cardholderName: 'Ana Pérez', cardNumber: card, expiryMonth: '12', expiryYear: '2030', cvv: '123', birthYear: '1990', identificationType: '1', identificationNumber: 'AB123', country: 'US', acceptsTerms: 'on', idempotencyKey: keys.issue(who.userId) },
      NOW,
    );
    if (!form.success) throw new Error(JSON.stringify(form.errors));
    return { userId: who.userId, contactId: who.contactId, catalog, cartCookie: JSON.stringify(cartItems), form: form.data, couponCode, locale: 'es' };
  };
  const service = (gateway: PaymentGateway, now = () => NOW) => new CheckoutService({ db: handle.db, gateway, keys, now, waitMs: 2_000 });
  /** Starts a checkout in a process that dies while charging; resolves once its attempt is recorded `started`. */
  const dieWhileCharging = async (req: CheckoutRequest, when: 'before' | 'after') => {
    void service(new DyingGateway(sandbox(handle), when)).checkout(req);
    let order: s.Order | undefined;
    await expect
      .poll(async () => {
        [order] = await handle.db.select().from(s.orders).where(and(eq(s.orders.userId, req.userId), eq(s.orders.idempotencyKey, req.form.idempotencyKey)));
        if (!order) return 'no order';
        const ledger = await handle.db.select().from(s.sandboxCharges).where(eq(s.sandboxCharges.idempotencyKey, `order-${order.id}-attempt-1`));
        return when === 'after' ? ledger.length : 1;
      })
      .toBe(1);
    return order!;
  };
  const orderOf = async (id: number) => (await handle.db.select().from(s.orders).where(eq(s.orders.id, id)))[0]!;
  const attemptsOf = async (orderId: number) => handle.db.select().from(s.paymentAttempts).where(eq(s.paymentAttempts.orderId, orderId)).orderBy(s.paymentAttempts.attemptNumber);
  const accessOf = async (userId: number) => handle.db.select().from(s.purchaseAccess).where(eq(s.purchaseAccess.userId, userId));
  const chargesOf = async (orderId: number) => (await handle.db.select().from(s.sandboxCharges)).filter((c) => c.idempotencyKey.startsWith(`order-${orderId}-`) && c.status !== 'void');

  beforeAll(async () => {
    handle = await create({ seed: true });
    catalog = await loadCatalog(handle.db);
  });
  afterAll(async () => handle?.close());

  it('the database ledger: two processes given one key make one charge; a key asked about unused is closed for good', async () => {
    const a = sandbox(handle);
    const b = sandbox(handle);
    const token = (await a.tokenize({ number: CARD.approved, expiryMonth: 12, expiryYear: 2030, cvv: '123' })) as { token: string };
    const req = { amountCents: 1999, currency: 'USD' as const, token: token.token, idempotencyKey: `ledger-${people}-1` };
    const answers = await Promise.all([a.charge(req), b.charge(req), a.charge(req), b.charge(req)]);
    expect(new Set(answers.map((x) => JSON.stringify(x))).size).toBe(1);
    expect(answers[0]!.status).toBe('approved');
    expect(a.chargeCount + b.chargeCount).toBeGreaterThanOrEqual(1);
    expect((await handle.db.select().from(s.sandboxCharges).where(eq(s.sandboxCharges.idempotencyKey, req.idempotencyKey))).length).toBe(1);
    // Found by another process after the first is gone.
    expect(await sandbox(handle).lookup({ idempotencyKey: req.idempotencyKey, startedAt: NOW, now: NOW })).toEqual(answers[0]);
    // Never charged: `none`, and a charge arriving late under that key takes nothing.
    const unused = { ...req, idempotencyKey: `ledger-${people}-2` };
    expect(await b.lookup({ idempotencyKey: unused.idempotencyKey, startedAt: NOW, now: NOW })).toEqual({ status: 'none' });
    expect(await a.charge(unused)).toEqual({ status: 'processing-error', retryable: true });
    expect((await handle.db.select().from(s.sandboxCharges).where(eq(s.sandboxCharges.idempotencyKey, unused.idempotencyKey)))[0]).toMatchObject({ status: 'void', chargeId: null });
    // Refunds are kept there too: once, whichever process asks.
    const charged = answers[0]!;
    if (charged.status !== 'approved') throw new Error('not approved');
    const r1 = await a.refund({ chargeId: charged.chargeId, idempotencyKey: 'refund-x' });
    expect(r1).toMatchObject({ status: 'refunded', amountCents: 1999 });
    expect(await b.refund({ chargeId: charged.chargeId, idempotencyKey: 'refund-x' })).toEqual(r1);
    expect(await b.refund({ chargeId: charged.chargeId, idempotencyKey: 'refund-y' })).toEqual({ status: 'refused', reason: 'already-refunded' });
  });

  it('a charge made before the process died: the order is paid with its access by the reconciler, once the window has passed', async () => {
    const me = await newPerson();
    const order = await dieWhileCharging(request(me), 'after');
    expect(await orderOf(order.id)).toMatchObject({ status: 'pending' });
    const gateway = sandbox(handle);
    // Within the window the attempt may still be in someone's hands: left alone.
    expect((await reconcilePayments(handle.db, gateway, after(RECONCILE_AFTER_MS - 1000))).asked).toBe(0);
    const report = await reconcilePayments(handle.db, gateway, after(RECONCILE_AFTER_MS + 1000));
    expect(report).toMatchObject({ paid: 1, errors: 0 });
    expect(report.changedUsers).toContain(me.userId);
    expect(await orderOf(order.id)).toMatchObject({ status: 'paid' });
    expect(await accessOf(me.userId)).toEqual([expect.objectContaining({ courseId: 6, orderId: order.id })]);
    expect((await attemptsOf(order.id)).map((a) => a.status)).toEqual(['approved']);
    expect(await chargesOf(order.id)).toHaveLength(1);
    // Nothing left to do on the next run.
    expect(await reconcilePayments(handle.db, gateway, after(RECONCILE_AFTER_MS + 60_000))).toMatchObject({ asked: 0, paid: 0 });
  });

  it('a charge that never reached the gateway: the key is closed, the buyer’s retry pays once; unattended, the order is abandoned and its coupon given back', async () => {
    const me = await newPerson();
    const req = request(me, CARD.approved, [{ kind: 'course', id: 6 }], 'BIENVENIDA10');
    const order = await dieWhileCharging(req, 'before');
    const usesBefore = (await handle.db.select().from(s.coupons).where(eq(s.coupons.code, 'BIENVENIDA10')))[0]!.uses;
    // The buyer posts the same form again after the window: answered at once, paid, charged once.
    const again = await service(sandbox(handle), () => after(RECONCILE_AFTER_MS + 1000)).checkout(req);
    expect(again).toMatchObject({ kind: 'paid', order: { id: order.id, status: 'paid' } });
    expect((await attemptsOf(order.id)).map((a) => a.status)).toEqual(['void', 'approved']);
    expect(await chargesOf(order.id)).toHaveLength(1);

    // Another buyer never comes back: the attempt is closed, then the order abandoned.
    const gone = await newPerson();
    const left = await dieWhileCharging(request(gone, CARD.approved, [{ kind: 'course', id: 6 }], 'BIENVENIDA10'), 'before');
    const gateway = sandbox(handle);
    expect(await reconcilePayments(handle.db, gateway, after(RECONCILE_AFTER_MS + 1000))).toMatchObject({ voided: 1, paid: 0 });
    expect(await orderOf(left.id)).toMatchObject({ status: 'pending' });
    expect(await reconcilePayments(handle.db, gateway, after(ABANDONED_AFTER_MS + 1000))).toMatchObject({ abandoned: 1 });
    expect(await orderOf(left.id)).toMatchObject({ status: 'failed', failureReason: 'abandoned' });
    expect((await handle.db.select().from(s.coupons).where(eq(s.coupons.code, 'BIENVENIDA10')))[0]!.uses).toBe(usesBefore);
    expect(await accessOf(gone.userId)).toEqual([]);
    expect(await chargesOf(left.id)).toEqual([]);
  });

  it('a charge found after the buyer bought the same course again: the late charge is refunded, access stays with the order that paid', async () => {
    const me = await newPerson();
    const stuck = await dieWhileCharging(request(me), 'after');
    // Ten minutes later the buyer checks out again (the first order no longer blocks) and pays.
    const second = await service(sandbox(handle), () => after(11 * 60_000)).checkout(request(me));
    expect(second.kind).toBe('paid');
    if (second.kind !== 'paid') return;
    const report = await reconcilePayments(handle.db, sandbox(handle), after(12 * 60_000));
    expect(report).toMatchObject({ refunded: 1, paid: 0, errors: 0 });
    expect(await orderOf(stuck.id)).toMatchObject({ status: 'refunded' });
    const [charge] = await chargesOf(stuck.id);
    expect(charge).toMatchObject({ status: 'approved', refundKey: `refund-${charge!.chargeId}` });
    expect(await accessOf(me.userId)).toEqual([expect.objectContaining({ courseId: 6, orderId: second.order.id })]);
  });

  it('a declined charge found after the crash fails the order; a reconciler run that fails on one order settles the others', async () => {
    const declinedBuyer = await newPerson();
    const declined = await dieWhileCharging(request(declinedBuyer, CARD.declined), 'after');
    const brokenBuyer = await newPerson();
    const broken = await dieWhileCharging(request(brokenBuyer), 'after');
    const paidBuyer = await newPerson();
    const paid = await dieWhileCharging(request(paidBuyer), 'after');
    const inner = sandbox(handle);
    const flaky: PaymentGateway = { name: 'sandbox', tokenize: (c) => inner.tokenize(c), charge: (r) => inner.charge(r), refund: (r) => inner.refund(r), lookup: (r) => (r.idempotencyKey === `order-${broken.id}-attempt-1` ? Promise.reject(new Error('gateway unreachable')) : inner.lookup(r)) };
    const report = await reconcilePayments(handle.db, flaky, after(RECONCILE_AFTER_MS + 1000), createLogger('silent'));
    expect(report).toMatchObject({ failed: 1, paid: 1, errors: 1 });
    expect(await orderOf(declined.id)).toMatchObject({ status: 'failed', failureReason: 'declined' });
    expect(await orderOf(paid.id)).toMatchObject({ status: 'paid' });
    expect(await orderOf(broken.id)).toMatchObject({ status: 'pending' });
    // The next run (the gateway back) settles it.
    expect(await reconcilePayments(handle.db, inner, after(RECONCILE_AFTER_MS + 61_000))).toMatchObject({ paid: 1, errors: 0 });
    expect(await orderOf(broken.id)).toMatchObject({ status: 'paid' });
  });

  it('runs from the scheduler once per minute across processes, and tells every process whose access changed', async () => {
    const me = await newPerson();
    const order = await dieWhileCharging(request(me), 'after');
    const changed: number[] = [];
    const schedulers = [0, 1].map((i) => createScheduler({ db: handle.db, logger: createLogger('silent'), workerId: `reconciler-${i}-${people}` }));
    for (const scheduler of schedulers) registerPaymentReconciler(scheduler, handle.db, sandbox(handle), (userId) => void changed.push(userId));
    const at = after(RECONCILE_AFTER_MS + 5 * 60_000);
    const runs = await Promise.all(schedulers.map((sch) => sch.runDue(at)));
    expect(runs.filter((r) => r.recurring.includes('payment-reconciler'))).toHaveLength(1);
    expect(await orderOf(order.id)).toMatchObject({ status: 'paid' });
    expect(changed.filter((id) => id === me.userId)).toHaveLength(1);
    expect(await loadViewer(handle.db, { kind: 'learner', ...me }, at).then((v) => [...v.purchased])).toContain(6);
  });

  it('renewals: a try whose process died is asked about before another is made, the member keeps access meanwhile, and one stuck membership blocks no other', async () => {
    const periodEnd = after(30 * 24 * 3_600_000);
    const buyPlan = async () => {
      const who = await newPerson();
      const out = await service(sandbox(handle)).checkout(request(who, CARD.approved, [{ kind: 'plan', id: 1 }]));
      if (out.kind !== 'paid') throw new Error(out.kind);
      const [m] = await handle.db.select().from(s.memberships).where(eq(s.memberships.userId, who.userId));
      expect(m!.endsAt).toEqual(periodEnd);
      return { who, m: m! };
    };
    const charged = await buyPlan(); // its renewal charge was made, the process died before recording it
    const unsent = await buyPlan(); // its renewal charge never left
    const others = [await buyPlan(), await buyPlan()];
    const at = new Date(periodEnd.getTime() + 60_000);
    for (const [{ m }, when] of [
      [charged, 'after'],
      [unsent, 'before'],
    ] as const) {
      void renewMembership(handle.db, new DyingGateway(sandbox(handle), when), m.id, at).catch(() => undefined);
      await expect.poll(async () => (await handle.db.select().from(s.paymentAttempts).innerJoin(s.orders, eq(s.orders.id, s.paymentAttempts.orderId)).where(and(eq(s.orders.userId, m.userId), eq(s.paymentAttempts.status, 'started')))).length).toBe(1);
    }
    // While in doubt the members keep their plan's courses (grace), though the period has ended.
    const later = new Date(at.getTime() + 2 * 3_600_000);
    for (const { who } of [charged, unsent]) expect((await loadViewer(handle.db, { kind: 'learner', ...who }, later)).membershipCategories.size).toBeGreaterThan(0);
    // The next run (after the dead run's claim lapsed) renews every due membership exactly once.
    const gateway = sandbox(handle);
    const results = await renewDueMemberships(handle.db, gateway, new Date(at.getTime() + 11 * 60_000));
    expect(results.map((r) => r.outcome)).toEqual(['renewed', 'renewed', 'renewed', 'renewed']);
    for (const { m } of [charged, unsent, ...others]) {
      const [after] = await handle.db.select().from(s.memberships).where(eq(s.memberships.id, m.id));
      expect(after).toMatchObject({ renewals: 1, graceUntil: null });
      const orders = (await handle.db.select().from(s.orders).where(eq(s.orders.userId, m.userId))).filter((o) => o.idempotencyKey.startsWith('renewal-'));
      expect(orders).toHaveLength(1);
      expect(orders[0]).toMatchObject({ status: 'paid' });
      const approved = (await handle.db.select().from(s.sandboxCharges)).filter((c) => c.idempotencyKey.startsWith(orders[0]!.idempotencyKey) && c.status === 'approved');
      expect(approved).toHaveLength(1);
    }
    expect((await attemptsOf((await handle.db.select().from(s.orders).where(eq(s.orders.userId, charged.m.userId))).find((o) => o.idempotencyKey.startsWith('renewal-'))!.id)).map((a) => a.status)).toEqual(['approved']);
    expect((await attemptsOf((await handle.db.select().from(s.orders).where(eq(s.orders.userId, unsent.m.userId))).find((o) => o.idempotencyKey.startsWith('renewal-'))!.id)).map((a) => a.status)).toEqual(['void', 'approved']);
  });
});
