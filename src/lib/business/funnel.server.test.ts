/**
 * An IBO's funnel figures on the seeded database, in a year after the seed (so only the rows written
 * here count): visits, prospects, sign-ups, buyers and revenue net of refunds, per bucket and for the
 * period, the period before read apart, and nothing of another IBO's links counted.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../db/testing';
import type { DbHandle } from '../db/client';
import * as s from '../db/schema';
import { countAffiliateVisit } from '../identity/ibo.server';
import { makeIbos } from '../testing/ibos';
import { readBusinessPeriod } from './funnel';
import { iboFunnel } from './funnel.server';

const databases = await testDatabases();
const at = (text: string) => new Date(`2032-${text}Z`);

describe.each(databases)("an IBO's funnel ($name)", (database) => {
  let handle: DbHandle;
  let mine: number;
  let other: number;

  beforeAll(async () => {
    handle = await database.create({ seed: true });
    const db = handle.db;
    const made = await makeIbos(db, [{ code: 'FUNNEL01' }, { code: 'FUNNEL02' }]);
    [mine, other] = [made.FUNNEL01!, made.FUNNEL02!];
    // Visits: 3 on March 2, 1 on March 4 (and one the period before); the other IBO's don't count.
    for (const day of ['03-02T08:00:00', '03-02T09:00:00', '03-02T23:59:59', '03-04T00:00:00', '02-25T12:00:00']) await countAffiliateVisit(db, mine, at(day));
    await countAffiliateVisit(db, other, at('03-02T08:00:00'));
    // Prospects the IBO registered: two in the period, one before it.
    await db.insert(s.contacts).values([
      { firstName: 'P', lastName: 'Uno', email: 'funnel-p1@example.com', iboId: mine, createdAt: at('03-02T10:00:00') },
      { firstName: 'P', lastName: 'Dos', email: 'funnel-p2@example.com', iboId: mine, createdAt: at('03-03T10:00:00') },
      { firstName: 'P', lastName: 'Tres', email: 'funnel-p3@example.com', iboId: mine, createdAt: at('02-27T10:00:00') },
      { firstName: 'P', lastName: 'Otro', email: 'funnel-p4@example.com', iboId: other, createdAt: at('03-02T10:00:00') },
    ]);
    // Sign-ups through the link: two in the period (one buys twice), one through the other IBO's link.
    const people = await db
      .insert(s.users)
      .values([
        { email: 'funnel-u1@example.com', firstName: 'U', lastName: 'Uno', referredByIboId: mine, createdAt: at('03-02T11:00:00') },
        { email: 'funnel-u2@example.com', firstName: 'U', lastName: 'Dos', referredByIboId: mine, createdAt: at('03-04T11:00:00') },
        { email: 'funnel-u3@example.com', firstName: 'U', lastName: 'Tres', referredByIboId: other, createdAt: at('03-02T11:00:00') },
      ])
      .returning({ id: s.users.id });
    const order = async (userId: number, ibo: number, paid: string, cents: number, key: string) => {
      const [o] = await db.insert(s.orders).values({ userId, idempotencyKey: key, status: 'pending', subtotalCents: cents, discountCents: 0, totalCents: cents, referringIboId: ibo }).returning({ id: s.orders.id });
      const [line] = await db.insert(s.orderItems).values({ orderId: o!.id, productKind: 'book', productId: 1, productCode: 'B1', titleEs: 'Libro', titleEn: 'Book', priceCents: cents }).returning({ id: s.orderItems.id });
      await db.update(s.orders).set({ status: 'paid', paidAt: at(paid) }).where(eq(s.orders.id, o!.id));
      return { order: o!.id, line: line!.id };
    };
    const first = await order(people[0]!.id, mine, '03-02T12:00:00', 5_000, 'funnel-1');
    await order(people[0]!.id, mine, '03-03T12:00:00', 2_500, 'funnel-2');
    await order(people[1]!.id, mine, '03-04T12:00:00', 1_000, 'funnel-3');
    await order(people[2]!.id, other, '03-02T12:00:00', 9_900, 'funnel-4');
    // 2,000 of the first order refunded: revenue is net of it.
    const [refund] = await db
      .insert(s.orderRefunds)
      .values({ orderId: first.order, requestKey: 'funnel-refund', idempotencyKey: 'funnel-refund', gateway: 'sandbox', chargeId: 'ch_funnel', amountCents: 2_000, reason: 'Prueba' })
      .returning({ id: s.orderRefunds.id });
    await db.insert(s.orderRefundLines).values({ refundId: refund!.id, orderItemId: first.line, amountCents: 2_000 });
    await db.update(s.orderRefunds).set({ status: 'refunded' }).where(eq(s.orderRefunds.id, refund!.id));
  });
  afterAll(async () => {
    await handle.close();
  });

  const periodOf = (query: string, ibo: number) => {
    const r = readBusinessPeriod(new URLSearchParams(query), at('12-31T00:00:00'), ibo);
    if (!r.ok) throw new Error(r.error);
    return r;
  };

  it('counts the period by day and in all, and the period before apart', async () => {
    const { period, previous } = periodOf('from=2032-03-01&to=2032-03-07', mine);
    const f = await iboFunnel(handle.db, mine, period, previous);
    expect(f.totals).toEqual({ visits: 4, prospects: 2, registered: 2, buyers: 2, revenue: 6_500 });
    expect(f.previous).toEqual({ visits: 1, prospects: 1, registered: 0, buyers: 0, revenue: 0 });
    expect(f.series.map((b) => b.bucket)).toEqual(['2032-03-01', '2032-03-02', '2032-03-03', '2032-03-04', '2032-03-05', '2032-03-06', '2032-03-07']);
    expect(f.series[1]).toEqual({ bucket: '2032-03-02', visits: 3, prospects: 1, registered: 1, buyers: 1, revenue: 3_000 });
    expect(f.series[2]).toEqual({ bucket: '2032-03-03', visits: 0, prospects: 1, registered: 0, buyers: 1, revenue: 2_500 });
    expect(f.series[3]).toEqual({ bucket: '2032-03-04', visits: 1, prospects: 0, registered: 1, buyers: 1, revenue: 1_000 });
    // Buyers per bucket add up to more than the period's: one person bought on two days.
    expect(f.series.reduce((n, b) => n + b.buyers, 0)).toBe(3);
  });

  it("counts only the IBO's own links, and nothing in a quiet period", async () => {
    const { period, previous } = periodOf('from=2032-03-01&to=2032-03-07', other);
    expect((await iboFunnel(handle.db, other, period, previous)).totals).toEqual({ visits: 1, prospects: 1, registered: 1, buyers: 1, revenue: 9_900 });
    const quiet = periodOf('from=2032-06-01&to=2032-06-30', mine);
    const f = await iboFunnel(handle.db, mine, quiet.period, quiet.previous);
    expect(f.totals).toEqual({ visits: 0, prospects: 0, registered: 0, buyers: 0, revenue: 0 });
    expect(f.series).toHaveLength(30);
  });

  it('cuts a long period into weeks, visits included', async () => {
    const { period, previous } = periodOf('from=2032-01-01&to=2032-06-30', mine);
    const f = await iboFunnel(handle.db, mine, period, previous);
    expect(period.bucket).toBe('week');
    // Monday March 1 2032 starts the week of every figure written in March.
    expect(f.series.find((b) => b.bucket === '2032-03-01')).toEqual({ bucket: '2032-03-01', visits: 4, prospects: 2, registered: 2, buyers: 2, revenue: 6_500 });
    expect(f.series.reduce((n, b) => n + b.visits, 0)).toBe(5);
  });
});
