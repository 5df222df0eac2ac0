/**
 * Refunds from the back office on PGlite and PostgreSQL: a line refunded through the sandbox takes back
 * its access in the same transaction as the refund's record, a double submit is one refund, two staff
 * refunding at once make one, and each refusal writes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { testDatabases } from '../db/testing';
import type { DbHandle } from '../db/client';
import * as s from '../db/schema';
import { auditOf } from '../privacy/audit.server';
import type { PaymentGateway, RefundRequest } from '../commerce/gateway';
import { SandboxGateway } from '../commerce/sandbox';
import { DatabaseSandboxLedger } from '../commerce/sandbox-ledger.server';
import { ownedBook } from '../commerce/book.server';
import { orderRef, readOrderFilter } from './orders';
import { loadOrder, loadOrders } from './orders.server';
import { orderNumber } from '../commerce/checkout';
import { reconcileRefunds, refundOrder, refundReported, REFUND_RECONCILE_AFTER_MS } from './refunds.server';

const databases = await testDatabases();
const NOW = new Date('2026-11-25T12:00:00Z');

describe.each(databases)('refunds on $name', ({ create }) => {
  let handle: DbHandle;
  let gateway: SandboxGateway;
  let n = 0;
  let adminId = 0;

  /** A paid order of course 6, course 12 and book 2 (with a coupon's 300 off), charged through the sandbox. */
  const paidOrder = async (status: 'paid' | 'pending' = 'paid') => {
    n++;
    const [u] = await handle.db.insert(s.users).values({ email: `refund.${n}.${Math.random().toString(36).slice(2)}@example.com`, firstName: 'Devo', lastName: `Lución${n}` }).returning();
    const [o] = await handle.db
      .insert(s.orders)
      .values({ userId: u!.id, status, subtotalCents: 6000, discountCents: 300, totalCents: 5700, idempotencyKey: `refund-test-${n}`, paidAt: status === 'paid' ? NOW : null, createdAt: NOW })
      .returning();
    const items = await handle.db
      .insert(s.orderItems)
      .values([
        { orderId: o!.id, productKind: 'course' as const, productId: 6, productCode: 'C6', titleEs: 'Curso 6', titleEn: 'Course 6', priceCents: 3000 },
        { orderId: o!.id, productKind: 'course' as const, productId: 12, productCode: 'C12', titleEs: 'Curso 12', titleEn: 'Course 12', priceCents: 2000 },
        { orderId: o!.id, productKind: 'book' as const, productId: 2, productCode: 'B2', titleEs: 'Libro 2', titleEn: 'Book 2', priceCents: 1000 },
      ])
      .returning();
    if (status === 'paid') {
      const token = (await gateway.tokenize({ number: '4242 4242 4242 4242', expiryMonth: 12, expiryYear: 2030, cvv: '123' })) as { token: string };
      const charged = await gateway.charge({ amountCents: 5700, currency: 'USD', token: token.token, idempotencyKey: `order-${o!.id}-attempt-1` });
      if (charged.status !== 'approved') throw new Error('not charged');
      await handle.db.insert(s.paymentAttempts).values({ orderId: o!.id, attemptNumber: 1, gateway: 'sandbox', idempotencyKey: `order-${o!.id}-attempt-1`, chargeId: charged.chargeId, status: 'approved', amountCents: 5700 });
      await handle.db.insert(s.purchaseAccess).values([6, 12].map((courseId) => ({ userId: u!.id, courseId, orderId: o!.id })));
    }
    return { userId: u!.id, orderId: o!.id, items: items.map((i) => i.id) };
  };
  const access = async (userId: number) => (await handle.db.select().from(s.purchaseAccess).where(eq(s.purchaseAccess.userId, userId))).map((a) => a.courseId).sort((a, b) => a - b);
  const refundsOf = (orderId: number) => handle.db.select().from(s.orderRefunds).where(eq(s.orderRefunds.orderId, orderId));
  const ledgerRefunds = async (orderId: number) => (await handle.db.select().from(s.sandboxRefunds)).filter((r) => r.idempotencyKey.startsWith(`refund-${orderId}-`));
  const key = () => `form-key-${n}-${Math.random().toString(36).slice(2, 14)}`;

  beforeAll(async () => {
    handle = await create({ seed: true });
    gateway = new SandboxGateway({ ledger: new DatabaseSandboxLedger(handle.db), now: () => NOW });
    const [admin] = await handle.db.select({ id: s.users.id }).from(s.users).where(eq(s.users.email, 'admin@academia.example'));
    adminId = admin!.id;
  });
  afterAll(async () => handle?.close());

  it('refunds one line through the gateway: its share, its access taken back, the rest kept, one audit record', async () => {
    const o = await paidOrder();
    const r = await refundOrder(handle.db, gateway, { orderId: o.orderId, actorId: adminId, lines: [o.items[1]!], reason: 'Asked by the buyer', requestKey: key() }, { now: () => NOW });
    expect(r).toMatchObject({ status: 'refunded', repeated: false, refund: { amountCents: 1900, status: 'refunded' } });
    expect(await access(o.userId)).toEqual([6]);
    const [order] = await handle.db.select().from(s.orders).where(eq(s.orders.id, o.orderId));
    expect(order!.status).toBe('paid');
    expect(await ledgerRefunds(o.orderId)).toHaveLength(1);
    const audit = await auditOf(handle.db, orderRef(o.orderId), 'orders.refund');
    expect(audit).toHaveLength(1);
    expect(audit[0]!.after).toMatchObject({ amountCents: 1900, reason: 'Asked by the buyer', removed: { courses: [12], plans: [] } });

    // The rest: the order becomes refunded, the book is no longer owned, the charge fully refunded.
    expect(await ownedBook(handle.db, o.userId, 2)).not.toBeNull();
    const rest = await refundOrder(handle.db, gateway, { orderId: o.orderId, actorId: adminId, lines: 'all', reason: 'Everything', requestKey: key() }, { now: () => NOW });
    expect(rest).toMatchObject({ status: 'refunded', refund: { amountCents: 3800 } });
    expect(await access(o.userId)).toEqual([]);
    expect(await ownedBook(handle.db, o.userId, 2)).toBeNull();
    const [after] = await handle.db.select().from(s.orders).where(eq(s.orders.id, o.orderId));
    expect(after!.status).toBe('refunded');
    const [charge] = await handle.db.select().from(s.sandboxCharges).where(eq(s.sandboxCharges.idempotencyKey, `order-${o.orderId}-attempt-1`));
    expect(charge!.refundedCents).toBe(5700);
  });

  it('refuses, writing nothing: a line refunded already, a refunded order, a pending order, an unknown order, an unknown line', async () => {
    const o = await paidOrder();
    await refundOrder(handle.db, gateway, { orderId: o.orderId, actorId: adminId, lines: [o.items[0]!], reason: 'First', requestKey: key() });
    const before = (await refundsOf(o.orderId)).length;
    expect(await refundOrder(handle.db, gateway, { orderId: o.orderId, actorId: adminId, lines: [o.items[0]!], reason: 'Again', requestKey: key() })).toEqual({ status: 'refused', reason: 'alreadyRefunded' });
    expect(await refundOrder(handle.db, gateway, { orderId: o.orderId, actorId: adminId, lines: [999_999], reason: 'Bad', requestKey: key() })).toEqual({ status: 'refused', reason: 'unknownLine' });
    expect(await refundsOf(o.orderId)).toHaveLength(before);
    const pending = await paidOrder('pending');
    expect(await refundOrder(handle.db, gateway, { orderId: pending.orderId, actorId: adminId, lines: 'all', reason: 'Bad', requestKey: key() })).toEqual({ status: 'refused', reason: 'notPaid' });
    expect(await refundsOf(pending.orderId)).toHaveLength(0);
    expect(await refundOrder(handle.db, gateway, { orderId: 2_000_000_000, actorId: adminId, lines: 'all', reason: 'Bad', requestKey: key() })).toEqual({ status: 'refused', reason: 'unknown' });
    expect(await auditOf(handle.db, orderRef(o.orderId), 'orders.refund')).toHaveLength(1);
  });

  it('a double submit of one form is one refund; two refunds of one order at once: exactly one is made', async () => {
    const o = await paidOrder();
    const k = key();
    const twice = await Promise.all([0, 1].map(() => refundOrder(handle.db, gateway, { orderId: o.orderId, actorId: adminId, lines: [o.items[0]!], reason: 'Double', requestKey: k })));
    expect(twice.map((t) => t.status)).toEqual(['refunded', 'refunded']);
    expect(await refundsOf(o.orderId)).toHaveLength(1);

    const racers = await Promise.all([key(), key(), key()].map((rk) => refundOrder(handle.db, gateway, { orderId: o.orderId, actorId: adminId, lines: 'all', reason: 'Race', requestKey: rk })));
    expect(racers.filter((r) => r.status === 'refunded')).toHaveLength(1);
    for (const r of racers.filter((x) => x.status !== 'refunded')) expect(['inProgress', 'alreadyRefunded']).toContain((r as { reason: string }).reason);
    expect((await refundsOf(o.orderId)).filter((r) => r.status === 'refunded')).toHaveLength(2);
    expect(await ledgerRefunds(o.orderId)).toHaveLength(2);
    expect(await auditOf(handle.db, orderRef(o.orderId), 'orders.refund')).toHaveLength(2);
  });

  it('a refund whose process died before the answer is finished by the reconciler with its stored key: one refund at the gateway', async () => {
    const o = await paidOrder();
    // The gateway makes the refund, and the process dies before hearing of it.
    const dying: PaymentGateway = { name: 'sandbox', tokenize: (c) => gateway.tokenize(c), charge: (r) => gateway.charge(r), lookup: (r) => gateway.lookup(r), refund: async (r: RefundRequest) => (await gateway.refund(r), new Promise<never>(() => undefined)) };
    void refundOrder(handle.db, dying, { orderId: o.orderId, actorId: adminId, lines: [o.items[0]!], reason: 'Crash', requestKey: key() }, { now: () => NOW });
    await expect.poll(async () => (await ledgerRefunds(o.orderId)).length).toBe(1);
    expect((await refundsOf(o.orderId))[0]!.status).toBe('requested');
    expect(await access(o.userId)).toEqual([6, 12]);
    // Another order's refund meanwhile is refused: one refund in flight per order.
    expect(await refundOrder(handle.db, gateway, { orderId: o.orderId, actorId: adminId, lines: [o.items[1]!], reason: 'Meanwhile', requestKey: key() })).toEqual({ status: 'refused', reason: 'inProgress' });
    const early = await reconcileRefunds(handle.db, gateway, new Date(NOW.getTime() + 1000));
    expect(early.refunded).toBe(0);
    const report = await reconcileRefunds(handle.db, gateway, new Date(NOW.getTime() + REFUND_RECONCILE_AFTER_MS + 5000));
    expect(report).toMatchObject({ refunded: 1, errors: 0 });
    expect(await access(o.userId)).toEqual([12]);
    expect(await ledgerRefunds(o.orderId)).toHaveLength(1);
    expect(await auditOf(handle.db, orderRef(o.orderId), 'orders.refund')).toHaveLength(1);
    // The webhook's word arriving after it changes nothing.
    const [done] = await refundsOf(o.orderId);
    expect(await refundReported(handle.db, { refundId: done!.gatewayRefundId!, refundKey: done!.idempotencyKey, status: 'succeeded' }, NOW)).toEqual({ done: 'unchanged', userId: null });
  });

  it('a refund the gateway leaves pending is finished by its webhook event; a failed one releases its lines', async () => {
    const o = await paidOrder();
    const pendingGw: PaymentGateway = { ...gateway, name: 'stripe', tokenize: (c) => gateway.tokenize(c), charge: (r) => gateway.charge(r), lookup: (r) => gateway.lookup(r), refund: () => Promise.resolve({ status: 'pending', refundId: `re_pending_${n}`, amountCents: 2850 }) };
    expect(await refundOrder(handle.db, pendingGw, { orderId: o.orderId, actorId: adminId, lines: [o.items[0]!], reason: 'Slow', requestKey: key() })).toMatchObject({ status: 'pending' });
    expect(await access(o.userId)).toEqual([6, 12]);
    expect(await refundReported(handle.db, { refundId: `re_pending_${n}`, refundKey: null, status: 'succeeded' }, NOW)).toMatchObject({ done: 'refunded', userId: o.userId });
    expect(await access(o.userId)).toEqual([12]);

    const refusing: PaymentGateway = { ...pendingGw, refund: () => Promise.resolve({ status: 'refused', reason: 'not-approved' }) };
    expect(await refundOrder(handle.db, refusing, { orderId: o.orderId, actorId: adminId, lines: [o.items[1]!], reason: 'No', requestKey: key() })).toEqual({ status: 'refused', reason: 'gatewayRefused' });
    expect(await access(o.userId)).toEqual([12]);
    // Its line is free again: refunded through the sandbox now.
    expect(await refundOrder(handle.db, gateway, { orderId: o.orderId, actorId: adminId, lines: [o.items[1]!], reason: 'Yes', requestKey: key() })).toMatchObject({ status: 'refunded' });
    expect(await auditOf(handle.db, orderRef(o.orderId), 'orders.refundFailed')).toHaveLength(1);
  });
  it('the list finds an order by e-mail or number, filters by type, totals what was charged and refunded; the order shows its refund', async () => {
    const o = await paidOrder();
    await refundOrder(handle.db, gateway, { orderId: o.orderId, actorId: adminId, lines: [o.items[0]!], reason: 'Listed', requestKey: key() });
    const [u] = await handle.db.select({ email: s.users.email }).from(s.users).where(eq(s.users.id, o.userId));
    const all = { since: null, until: null };
    const byEmail = await loadOrders(handle.db, readOrderFilter(new URLSearchParams({ q: u!.email.toUpperCase() })), all);
    expect(byEmail).toMatchObject({ total: 1, paidCents: 5700, refundedCents: 2850 });
    expect(byEmail.lines[0]).toMatchObject({ id: o.orderId, status: 'paid', refundedCents: 2850 });
    expect(byEmail.lines[0]!.kinds.sort()).toEqual(['book', 'course']);
    expect((await loadOrders(handle.db, readOrderFilter(new URLSearchParams({ q: orderNumber(o.orderId) })), all)).total).toBe(1);
    expect((await loadOrders(handle.db, readOrderFilter(new URLSearchParams({ q: u!.email, kind: 'plan' })), all)).total).toBe(0);
    expect((await loadOrders(handle.db, readOrderFilter(new URLSearchParams({ q: u!.email, status: 'refunded' })), all)).total).toBe(0);
    const detail = await loadOrder(handle.db, o.orderId);
    expect(detail!.items.map((i) => i.refundedAt !== null)).toEqual([true, false, false]);
    expect(detail!.refunds).toHaveLength(1);
    expect(detail!.attempts[0]!.chargeId).toMatch(/^ch_sandbox_/);
    expect(detail!.refundedCents).toBe(2850);
    expect(await loadOrder(handle.db, 2_000_000_000)).toBeNull();
  });
});
