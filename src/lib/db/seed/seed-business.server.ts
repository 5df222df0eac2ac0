/**
 * Seeds HORIZONTE01's business (`people.business`): the IBO it sponsored, visits through its link, its
 * prospects at every stage and the people who came through its link with their choice to share. Runs
 * after the accounts and their progress; every write keeps what an earlier seed left (re-seeding never
 * moves a person's progress or a visit count back).
 */
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import * as s from '../schema';
import * as people from './people';
import type { Tx } from './seed-kit.server';

const DAY = 86_400_000;

export async function seedBusiness(tx: Tx, userId: Map<string, number>, lessons: readonly { courseId: number; id: number }[]) {
  const b = people.business;
  const ibos = new Map((await tx.select({ id: s.ibos.id, code: s.ibos.code }).from(s.ibos)).map((r) => [r.code, r.id]));
  const iboId = ibos.get(b.ibo)!;
  for (const link of b.sponsored) {
    await tx.update(s.ibos).set({ sponsorIboId: ibos.get(link.sponsor)! }).where(and(eq(s.ibos.code, link.code), isNull(s.ibos.sponsorIboId)));
  }
  // Visits through its link: a few a day, more at the weekends, over the last days.
  const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
  await tx
    .insert(s.affiliateVisits)
    .values(Array.from({ length: b.visitDays }, (_, i) => ({ iboId, day: new Date(today - i * DAY).toISOString().slice(0, 10), visits: 2 + ((i * 7) % 5) + (new Date(today - i * DAY).getUTCDay() % 6 === 0 ? 4 : 0) })))
    .onConflictDoNothing();
  await tx
    .insert(s.affiliateVisits)
    .values(Array.from({ length: b.teamVisits.days }, (_, i) => ({ iboId: ibos.get(b.teamVisits.code)!, day: new Date(today - i * DAY).toISOString().slice(0, 10), visits: 1 + (i % 3) })))
    .onConflictDoNothing();
  // Prospects it registered without an account; one began a course and has not come back.
  for (const p of b.prospects) {
    const [made] = await tx
      .insert(s.contacts)
      .values({ firstName: p.firstName, lastName: p.lastName, email: p.email, iboId, createdAt: new Date(Date.now() - p.daysAgo * DAY) })
      .onConflictDoNothing()
      .returning({ id: s.contacts.id });
    if (made && 'stuckOnCourse' in p) {
      const first = lessons.find((l) => l.courseId === p.stuckOnCourse)!;
      const at = new Date(Date.now() - p.stuckDaysAgo * DAY);
      await tx.insert(s.tracking).values({ contactId: made.id, courseId: p.stuckOnCourse, subtopicId: first.id, lastPosition: '30.00', furthestPosition: '30.00', playedSeconds: '30', createdAt: at, updatedAt: at }).onConflictDoNothing();
    }
  }
  // The accounts it registered as prospects, and those who came through its link (with their choice).
  const registered = b.registered.map((email) => userId.get(email)!);
  await tx
    .update(s.contacts)
    .set({ iboId, createdAt: new Date(Date.now() - 35 * DAY) })
    .where(and(inArray(s.contacts.userId, registered), isNull(s.contacts.iboId)));
  for (const p of b.signedUp) {
    await tx
      .update(s.users)
      .set({ referredByIboId: iboId, iboSharing: p.sharing, createdAt: sql`least(${s.users.createdAt}, ${new Date(Date.now() - p.daysAgo * DAY).toISOString()}::timestamptz)` })
      .where(and(eq(s.users.id, userId.get(p.email)!), isNull(s.users.referredByIboId)));
  }
  await seedCommissionStates(tx, iboId);
}

/**
 * A commission in every state: the payout of the orders paid more than 60 days ago (55 days ago), then
 * whole refunds of one paid order (its commission reversed) and one within the refund window (cancelled).
 * The ledger's entries are the database's own (`commissions_refresh`), as for any payment and refund.
 */
async function seedCommissionStates(tx: Tx, iboId: number) {
  const c = people.business.commissions;
  const [done] = await tx.select({ id: s.commissionPayouts.id }).from(s.commissionPayouts).where(eq(s.commissionPayouts.requestKey, c.payout.key));
  if (done) return;
  const paidAt = new Date(Date.now() - c.payout.daysAgo * DAY);
  const covered = await tx
    .select({ id: s.commissions.id, amount: s.commissions.amountCents })
    .from(s.commissions)
    .where(and(eq(s.commissions.iboId, iboId), isNull(s.commissions.payoutId), sql`${s.commissions.linePaidAt} < ${new Date(Date.now() - c.payout.ordersOlderThanDays * DAY).toISOString()}::timestamptz`));
  if (covered.length === 0) return;
  const [payout] = await tx
    .insert(s.commissionPayouts)
    .values({ iboId, amountCents: covered.reduce((a, e) => a + e.amount, 0), entries: covered.length, requestKey: c.payout.key, reference: c.payout.reference, paidAt })
    .returning({ id: s.commissionPayouts.id });
  await tx.update(s.commissions).set({ payoutId: payout!.id }).where(inArray(s.commissions.id, covered.map((e) => e.id)));
  for (const r of c.refunds) {
    const [order] = await tx
      .select({ id: s.orders.id, total: s.orders.totalCents })
      .from(s.orders)
      .where(eq(s.orders.idempotencyKey, `seed:${r.email}:${r.kind}-${r.productId}`));
    if (!order) continue;
    const at = new Date(Date.now() - r.daysAgo * DAY);
    const [refund] = await tx
      .insert(s.orderRefunds)
      .values({ orderId: order.id, requestKey: `seed-refund-${order.id}`, idempotencyKey: `seed-refund-${order.id}`, gateway: 'sandbox', chargeId: `ch_sandbox_seed-${order.id}`, amountCents: order.total, reason: 'Demo', status: 'refunded', createdAt: at, finishedAt: at })
      .returning({ id: s.orderRefunds.id });
    const lines = await tx.select({ id: s.orderItems.id, cents: s.orderItems.priceCents }).from(s.orderItems).where(eq(s.orderItems.orderId, order.id));
    await tx.insert(s.orderRefundLines).values(lines.map((l) => ({ refundId: refund!.id, orderItemId: l.id, amountCents: l.cents })));
    await tx.update(s.orders).set({ status: 'refunded' }).where(eq(s.orders.id, order.id));
  }
}
