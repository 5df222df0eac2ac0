/**
 * IBO commissions on PGlite and PostgreSQL: the ledger the database writes with each payment and refund
 * (earned at the rate in force when the order was paid, cancelled or reversed by a refund), the rates'
 * history, payouts (approved only, net of reversals, once per form, never to a suspended IBO) and the
 * IBO's reads, which never show one IBO anything of another.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { testDatabases } from '../db/testing';
import type { DbHandle } from '../db/client';
import * as s from '../db/schema';
import { auditOf } from '../privacy/audit.server';
import { keptFiguresDrift } from '../testing/kept-figures';
import { iboRef } from '../ibos/ibos';
import { commissionCents, COMMISSION_HOLD_DAYS, rateRef } from './commissions';
import { loadCommissionRates, iboCommissionTotals, iboSales, iboStatement, payableIbos, recordPayout, setCommissionRate } from './commissions.server';

const databases = await testDatabases();
const DAY = 86_400_000;
const NOW = new Date('2026-11-27T12:00:00Z');
const ago = (days: number) => new Date(NOW.getTime() - days * DAY);

describe.each(databases)('IBO commissions on $name', ({ create }) => {
  let handle: DbHandle;
  let adminId = 0;
  let horizonte = 0;
  let mundo = 0;
  let rutas = 0;
  let n = 0;

  /** A paid order referred by `ibo`: a course of 30.00 and a book of 10.00 with `discount` off, paid at `paidAt`. */
  const order = async (ibo: number | null, paidAt: Date, discount = 0) => {
    n++;
    const [u] = await handle.db.insert(s.users).values({ email: `comision.${n}.${Math.random().toString(36).slice(2)}@example.com`, firstName: 'Com', lastName: `Prador${n}` }).returning();
    const [o] = await handle.db
      .insert(s.orders)
      .values({ userId: u!.id, status: 'paid', subtotalCents: 4000, discountCents: discount, totalCents: 4000 - discount, idempotencyKey: `commission-test-${n}-${Math.random()}`, paidAt, createdAt: paidAt, referringIboId: ibo })
      .returning();
    const items = await handle.db
      .insert(s.orderItems)
      .values([
        { orderId: o!.id, productKind: 'course' as const, productId: 6, productCode: 'C6', titleEs: 'Curso seis', titleEn: 'Course six', priceCents: 3000 },
        { orderId: o!.id, productKind: 'book' as const, productId: 2, productCode: 'B2', titleEs: 'Libro dos', titleEn: 'Book two', priceCents: 1000 },
      ])
      .returning();
    return { orderId: o!.id, course: items[0]!.id, book: items[1]!.id };
  };
  /** A confirmed refund of `lines` (item id → cents) of an order, finished at `at`. */
  const refund = async (orderId: number, lines: Record<number, number>, at: Date, whole = false) => {
    const amount = Object.values(lines).reduce((a, b) => a + b, 0);
    const [r] = await handle.db
      .insert(s.orderRefunds)
      .values({ orderId, requestKey: `k-${Math.random()}`, idempotencyKey: `refund-${orderId}-${Math.random()}`, gateway: 'sandbox', chargeId: 'ch', amountCents: amount, reason: 'test', status: 'refunded', createdAt: at, finishedAt: at })
      .returning();
    await handle.db.insert(s.orderRefundLines).values(Object.entries(lines).map(([item, cents]) => ({ refundId: r!.id, orderItemId: Number(item), amountCents: cents })));
    if (whole) await handle.db.update(s.orders).set({ status: 'refunded' }).where(eq(s.orders.id, orderId));
  };
  const entries = async (orderId: number) =>
    (await handle.db.select().from(s.commissions).where(eq(s.commissions.orderId, orderId)).orderBy(s.commissions.id)).map((c) => ({ line: c.lineId, ibo: c.iboId, kind: c.kind, cents: c.amountCents, rate: c.rateBp, paid: c.payoutId !== null }));
  const iboId = async (code: string) => (await handle.db.select({ id: s.ibos.id }).from(s.ibos).where(eq(s.ibos.code, code)))[0]!.id;
  const key = () => `payout-key-${Math.random().toString(36).slice(2, 14)}`;

  beforeAll(async () => {
    handle = await create({ seed: true });
    adminId = (await handle.db.select({ id: s.users.id }).from(s.users).where(eq(s.users.email, 'admin@academia.example')))[0]!.id;
    // An IBO of its own (the demo's HORIZONTE01 has commissions of its own already).
    const [owner] = await handle.db.insert(s.users).values({ email: 'comision01@example.com', firstName: 'Comisión', lastName: 'Prueba' }).returning({ id: s.users.id });
    await handle.db.insert(s.ibos).values({ userId: owner!.id, code: 'COMISION01', companyName: 'Comisiones de Prueba' });
    horizonte = await iboId('COMISION01');
    mundo = await iboId('MUNDO2026');
    rutas = await iboId('RUTAS99');
  });
  afterAll(async () => handle?.close());

  it('starts with the default rates, in force from the start', async () => {
    const { rates } = await loadCommissionRates(handle.db, NOW);
    expect(rates.map((r) => [r.kind, r.rateBp])).toEqual([
      ['course', 2000],
      ['book', 1000],
      ['plan', 1500],
    ]);
  });

  it("earns each referred line's commission on what it earned after the coupon, at the rate in force when it was paid, in the payment's transaction", async () => {
    // 300 off spread by price: the course earned 2775, the book 925.
    const o = await order(horizonte, ago(5), 300);
    expect(await entries(o.orderId)).toEqual([
      { line: o.course, ibo: horizonte, kind: 'earned', cents: commissionCents(2775, 2000), rate: 2000, paid: false },
      { line: o.book, ibo: horizonte, kind: 'earned', cents: commissionCents(925, 1000), rate: 1000, paid: false },
    ]);
    expect(commissionCents(925, 1000)).toBe(93);
    // No IBO, no commission.
    const plain = await order(null, ago(5));
    expect(await entries(plain.orderId)).toEqual([]);
  });

  it('keeps the rate of the payment: a new rate applies to orders paid after it was set only; the same rate again writes nothing', async () => {
    const before = await order(mundo, ago(3));
    expect(await setCommissionRate(handle.db, adminId, 'course', 2500, ago(2))).toEqual({ unchanged: false });
    expect(await setCommissionRate(handle.db, adminId, 'course', 2500, ago(2))).toEqual({ unchanged: true });
    const after = await order(mundo, ago(1));
    expect((await entries(before.orderId))[0]).toMatchObject({ rate: 2000, cents: 600 });
    expect((await entries(after.orderId))[0]).toMatchObject({ rate: 2500, cents: 750 });
    // A refund of the earlier order later still reads its own rate.
    await refund(before.orderId, { [before.course]: 1500 }, ago(0.5));
    expect((await entries(before.orderId)).filter((e) => e.line === before.course).map((e) => [e.kind, e.cents])).toEqual([
      ['earned', 600],
      ['cancelled', -300],
    ]);
    const { rates, history } = await loadCommissionRates(handle.db, NOW);
    expect(rates[0]).toMatchObject({ kind: 'course', rateBp: 2500 });
    expect(history[0]).toMatchObject({ kind: 'course', rateBp: 2500, actorId: adminId });
    const audit = await auditOf(handle.db, rateRef('course'), 'commissions.rateSet');
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ before: { rateBp: 2000 }, after: { rateBp: 2500 } });
    // The table refuses a rate out of range whatever the caller.
    await expect(handle.db.insert(s.commissionRates).values({ productKind: 'book', rateBp: 10_001, effectiveFrom: NOW })).rejects.toThrow();
    await expect(handle.db.insert(s.commissionRates).values({ productKind: 'book', rateBp: -1, effectiveFrom: NOW })).rejects.toThrow();
    await setCommissionRate(handle.db, adminId, 'course', 2000, ago(0.4));
  });

  it('cancels a pending commission refunded whole, lowers one refunded in part, in the refund\'s transaction', async () => {
    const o = await order(horizonte, ago(4));
    await refund(o.orderId, { [o.course]: 3000, [o.book]: 1000 }, ago(3.5), true);
    expect((await entries(o.orderId)).map((e) => [e.kind, e.cents])).toEqual([
      ['earned', 600],
      ['earned', 100],
      ['cancelled', -600],
      ['cancelled', -100],
    ]);
    const sales = await iboSales(handle.db, horizonte, { from: ago(4.5), to: ago(3.5) }, NOW);
    expect(sales.sales.find((x) => x.orderId === o.orderId)?.lines.map((l) => [l.state, l.commissionCents, l.refundedCents])).toEqual([
      ['cancelled', 0, 3000],
      ['cancelled', 0, 1000],
    ]);
  });

  it('pays an IBO its approved commissions only, once per form, net of reversals; a refund after the payout is reversed and netted by the next', async () => {
    const old = await order(horizonte, ago(COMMISSION_HOLD_DAYS + 10));
    const young = await order(horizonte, ago(1));
    const totalsBefore = await iboCommissionTotals(handle.db, horizonte, NOW);
    expect(totalsBefore.approved).toBeGreaterThanOrEqual(700);
    expect(totalsBefore.pending).toBeGreaterThan(0);
    const payable = (await payableIbos(handle.db, NOW)).find((p) => p.id === horizonte)!;
    expect(payable).toMatchObject({ code: 'COMISION01', approved: totalsBefore.approved, pending: totalsBefore.pending, payable: totalsBefore.payable });

    const form = { key: key(), reference: 'TRF-001' };
    const paid = await recordPayout(handle.db, adminId, horizonte, form, NOW);
    expect(paid).toMatchObject({ status: 'ok', repeated: false, payout: { amountCents: totalsBefore.payable, iboId: horizonte, reference: 'TRF-001' } });
    // The same form again: the same payout, nothing more.
    expect(await recordPayout(handle.db, adminId, horizonte, form, NOW)).toMatchObject({ status: 'ok', repeated: true, payout: { id: paid.status === 'ok' ? paid.payout.id : 0 } });
    expect((await entries(old.orderId)).every((e) => e.paid)).toBe(true);
    expect((await entries(young.orderId)).some((e) => e.paid)).toBe(false);
    expect(await iboCommissionTotals(handle.db, horizonte, NOW)).toMatchObject({ approved: 0, reversed: 0, payable: 0, pending: totalsBefore.pending, paid: totalsBefore.payable });
    // Nothing approved left: refused, nothing written.
    expect(await recordPayout(handle.db, adminId, horizonte, { key: key(), reference: '' }, NOW)).toEqual({ status: 'refused', refusal: 'nothingDue' });
    // Another IBO's form key is not this payout.
    expect(await recordPayout(handle.db, adminId, mundo, form, NOW)).toEqual({ status: 'refused', refusal: 'keyUsed' });

    // The paid course is refunded: a reversal, owed back, netted by the next payout with a newer approved line.
    await refund(old.orderId, { [old.course]: 3000 }, ago(0.5));
    expect((await entries(old.orderId)).map((e) => [e.kind, e.cents, e.paid])).toEqual([
      ['earned', 600, true],
      ['earned', 100, true],
      ['reversed', -600, false],
    ]);
    const sales = await iboSales(handle.db, horizonte, { from: ago(COMMISSION_HOLD_DAYS + 11), to: ago(COMMISSION_HOLD_DAYS + 9) }, NOW);
    expect(sales.sales[0]!.lines.map((l) => l.state)).toEqual(['reversed', 'paid']);
    expect(await iboCommissionTotals(handle.db, horizonte, NOW)).toMatchObject({ approved: 0, reversed: -600, payable: -600 });
    expect(await recordPayout(handle.db, adminId, horizonte, { key: key(), reference: '' }, NOW)).toEqual({ status: 'refused', refusal: 'nothingDue' });
    const later = new Date(NOW.getTime() + COMMISSION_HOLD_DAYS * DAY);
    const second = await recordPayout(handle.db, adminId, horizonte, { key: key(), reference: 'TRF-002' }, later);
    expect(second).toMatchObject({ status: 'ok', payout: { amountCents: totalsBefore.pending - 600 } });
    expect(await iboCommissionTotals(handle.db, horizonte, later)).toMatchObject({ pending: 0, approved: 0, reversed: 0, payable: 0 });
    expect(await auditOf(handle.db, iboRef(horizonte), 'commissions.payout')).toHaveLength(2);
  });

  it('pays once when the same form is sent twice at once, and once when two forms race', async () => {
    await order(mundo, ago(COMMISSION_HOLD_DAYS + 20));
    const due = (await iboCommissionTotals(handle.db, mundo, NOW)).payable;
    expect(due).toBeGreaterThan(0);
    const same = { key: key(), reference: '' };
    const [a, b, c] = await Promise.all([recordPayout(handle.db, adminId, mundo, same, NOW), recordPayout(handle.db, adminId, mundo, same, NOW), recordPayout(handle.db, adminId, mundo, { key: key(), reference: '' }, NOW)]);
    const outcomes = [a, b, c].map((o) => (o.status === 'ok' ? (o.repeated ? 'repeated' : `paid ${o.payout.amountCents}`) : o.status === 'refused' ? o.refusal : o.status));
    expect(outcomes.filter((o) => o === `paid ${due}`)).toHaveLength(1);
    expect(outcomes.filter((o) => o.startsWith('paid'))).toHaveLength(1);
    expect(await handle.db.select().from(s.commissionPayouts).where(eq(s.commissionPayouts.iboId, mundo))).toHaveLength(1);
    expect((await iboCommissionTotals(handle.db, mundo, NOW)).payable).toBe(0);
  });

  it("never pays a suspended IBO (its commissions stay approved) nor an unknown one", async () => {
    await order(rutas, ago(COMMISSION_HOLD_DAYS + 5));
    expect((await iboCommissionTotals(handle.db, rutas, NOW)).approved).toBe(700);
    expect(await recordPayout(handle.db, adminId, rutas, { key: key(), reference: '' }, NOW)).toEqual({ status: 'refused', refusal: 'suspended' });
    expect(await recordPayout(handle.db, adminId, 2_147_483_647, { key: key(), reference: '' }, NOW)).toEqual({ status: 'unknown' });
    expect((await iboCommissionTotals(handle.db, rutas, NOW)).approved).toBe(700);
    expect(await handle.db.select().from(s.commissionPayouts).where(eq(s.commissionPayouts.iboId, rutas))).toEqual([]);
  });

  it("states a month: what was earned, cancelled, reversed and paid in it, what was owed before and after; another IBO's month shows nothing of it", async () => {
    const month = NOW.toISOString().slice(0, 7);
    const st = (await iboStatement(handle.db, horizonte, month))!;
    expect(st.ibo).toMatchObject({ id: horizonte, code: 'COMISION01' });
    expect(st.totals.closing).toBe(st.totals.opening + st.totals.earned + st.totals.cancelled + st.totals.reversed - st.totals.paid);
    expect(st.lines.filter((l) => l.kind === 'payout').map((l) => l.ref)).toContain('TRF-001');
    expect(st.lines.some((l) => l.kind === 'reversed' && l.amountCents === -600)).toBe(true);
    expect(st.lines.some((l) => l.kind === 'cancelled')).toBe(true);
    const mine = new Set((await handle.db.select({ o: s.commissions.orderId }).from(s.commissions).where(eq(s.commissions.iboId, horizonte))).map((r) => r.o));
    const theirs = (await iboStatement(handle.db, mundo, month))!;
    expect(theirs.lines.filter((l) => l.kind !== 'payout').every((l) => !mine.has(Number(l.ref.slice(2))))).toBe(true);
    expect(theirs.lines.some((l) => l.ref === 'TRF-001')).toBe(false);
    const theirSales = await iboSales(handle.db, mundo, {}, NOW);
    expect(theirSales.sales.every((x) => !mine.has(x.orderId))).toBe(true);
    expect(await iboStatement(handle.db, 2_147_483_647, month)).toBeNull();
    // An empty month: nothing but the balance carried.
    const empty = (await iboStatement(handle.db, horizonte, '2001-01'))!;
    expect(empty).toMatchObject({ lines: [], totals: { opening: 0, earned: 0, paid: 0, closing: 0 } });
  });

  it('pages the sales newest first', async () => {
    const all = await iboSales(handle.db, horizonte, {}, NOW);
    expect(all.total).toBeGreaterThanOrEqual(4);
    const times = all.sales.map((x) => x.paidAt.getTime());
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect((await iboSales(handle.db, horizonte, { page: 999 }, NOW)).page).toBe(all.pages);
  });

  it('rounds in SQL as the pure rule does, and a rebuild of the revenue lines changes no commission', async () => {
    const before = await handle.db.select().from(s.commissions).orderBy(s.commissions.id);
    expect(await keptFiguresDrift(handle.db)).toEqual([]);
    await handle.db.execute(sql`select revenue_lines_rebuild()`);
    expect(await handle.db.select().from(s.commissions).orderBy(s.commissions.id)).toEqual(before);
    const nets = [1, 5, 49, 50, 51, 1995, 1999, 12_345, 99_999];
    const rates = [0, 1, 333, 1250, 4999, 5000, 9999, 10_000];
    const rows = (await handle.db.execute(sql.raw(`select n, r, (n::bigint * r + 5000) / 10000 as c from unnest(array[${nets}]) n, unnest(array[${rates}]) r`))) as unknown as { rows: { n: number; r: number; c: unknown }[] };
    for (const row of rows.rows) expect(Number(row.c), `${row.n} × ${row.r}`).toBe(commissionCents(Number(row.n), Number(row.r)));
  });
});
