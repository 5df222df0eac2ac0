/**
 * Coupons as finance staff manage them: the list (newest first, with uses so far), one coupon's uses
 * (the orders that redeemed it: number, date, buyer, total, discount, status; paged), created and
 * edited from the form (`coupon-form.ts` reads it), expired at once. Every change is one transaction
 * with its audit event (before and after).
 *
 * An order keeps the discount it was given (`orders.discountCents`, `coupon_redemptions`): editing a
 * coupon changes only later checkouts. Its code cannot change once an order used it, so every order
 * still names the coupon it used. A limit of uses below the uses so far is refused in the same
 * statement that writes it, so a checkout taking a use at that moment never ends above the limit.
 */
import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { couponRedemptions, coupons, orders, users, type CouponRow } from '../db/schema';
import { displayName } from '../forms/characters';
import { recordAudit, userRef } from '../privacy/audit.server';
import { isUniqueViolation } from './checkout.server';
import { couponFacts, type CouponDraft } from './coupon-form';
import { readProductId } from './products';
import { noStep, type Step } from '../faults/step';

/** Uses of a coupon per page of its uses. */
export const COUPON_USES_PAGE_SIZE = 20;

/** One order that redeemed a coupon, as finance reads it. */
export interface CouponUse {
  orderId: number;
  at: Date;
  buyer: { id: number; name: string; email: string };
  totalCents: number;
  discountCents: number;
  status: 'pending' | 'paid' | 'failed' | 'refunded';
}

/** A page of a coupon's uses. */
export interface CouponUsesPage {
  uses: CouponUse[];
  total: number;
  page: number;
  pages: number;
}

/** Every coupon, newest first. */
export function listCoupons(db: Db): Promise<CouponRow[]> {
  return db.select().from(coupons).orderBy(desc(coupons.createdAt), desc(coupons.id));
}

/** One coupon, or null. */
export async function findCoupon(db: Db, id: number): Promise<CouponRow | null> {
  const [row] = await db.select().from(coupons).where(eq(coupons.id, id)).limit(1);
  return row ?? null;
}

/** The orders that redeemed coupon `couponId` (`coupon_redemptions`), newest first, page `asked` (clamped to the last). */
export async function couponUses(db: Db, couponId: number, asked = 1): Promise<CouponUsesPage> {
  const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(couponRedemptions).where(eq(couponRedemptions.couponId, couponId));
  const pages = Math.max(1, Math.ceil(n / COUPON_USES_PAGE_SIZE));
  const page = Math.min(Math.max(1, asked), pages);
  const rows = await db
    .select({ orderId: couponRedemptions.orderId, at: couponRedemptions.createdAt, discountCents: couponRedemptions.discountCents, totalCents: orders.totalCents, status: orders.status, userId: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName })
    .from(couponRedemptions)
    .innerJoin(orders, eq(orders.id, couponRedemptions.orderId))
    .innerJoin(users, eq(users.id, couponRedemptions.userId))
    .where(eq(couponRedemptions.couponId, couponId))
    .orderBy(desc(couponRedemptions.createdAt), desc(couponRedemptions.orderId))
    .limit(COUPON_USES_PAGE_SIZE)
    .offset((page - 1) * COUPON_USES_PAGE_SIZE);
  const uses = rows.map((r) => ({
    orderId: r.orderId,
    at: r.at,
    buyer: { id: r.userId, name: displayName(`${r.firstName} ${r.lastName}`.trim()), email: r.email },
    totalCents: r.totalCents,
    discountCents: r.discountCents,
    status: r.status,
  }));
  return { uses, total: n, page, pages };
}

/** The coupons page: the list and, with `?coupon=N`, that coupon and a page of its uses ('unknown' for no such coupon). */
export async function loadCouponsPage(db: Db, rawId: string | null, usesPage = 1): Promise<{ coupons: CouponRow[]; editing: { coupon: CouponRow; uses: CouponUsesPage } | null | 'unknown' }> {
  const list = await listCoupons(db);
  if (rawId === null) return { coupons: list, editing: null };
  const id = readProductId(rawId);
  const coupon = id.ok && id.value !== null ? list.find((c) => c.id === id.value) : undefined;
  if (!coupon) return { coupons: list, editing: 'unknown' };
  return { coupons: list, editing: { coupon, uses: await couponUses(db, coupon.id, usesPage) } };
}

export type SaveCouponOutcome =
  | { status: 'ok'; coupon: CouponRow; created: boolean }
  | { status: 'unknown' }
  | { status: 'taken'; code: string }
  | { status: 'codeLocked'; code: string }
  | { status: 'belowUses'; uses: number };

/** Called as a write reaches each step (`coupon-written`, `audit-written`): the fault tests die there. */
export type CouponStep = Step<'coupon-written' | 'audit-written'>;

/** Creates a coupon (`id` null) or edits one, with its audit event in the same transaction. */
export async function saveCoupon(db: Db, actorId: number, id: number | null, draft: CouponDraft, now = new Date(), step: CouponStep = noStep): Promise<SaveCouponOutcome> {
  const values = { code: draft.code, kind: draft.kind, percent: draft.percent, amountCents: draft.amountCents, startsAt: draft.startsAt, expiresAt: draft.endsAt, maxUses: draft.maxUses };
  try {
    return await db.transaction(async (tx): Promise<SaveCouponOutcome> => {
      const [clash] = await tx.select({ id: coupons.id }).from(coupons).where(eq(coupons.code, draft.code)).limit(1);
      if (clash && clash.id !== id) return { status: 'taken', code: draft.code };
      if (id === null) {
        const [row] = await tx.insert(coupons).values({ ...values, createdAt: now }).returning();
        await step('coupon-written');
        await recordAudit(tx, { action: 'coupons.created', actor: userRef(actorId), subject: `coupon:${row!.id}`, after: couponFacts(row!), at: now });
        await step('audit-written');
        return { status: 'ok', coupon: row!, created: true };
      }
      // Locked for the rest of the transaction: a checkout's use waits, then counts against the new limit.
      const [before] = await tx.select().from(coupons).where(eq(coupons.id, id)).for('update');
      if (!before) return { status: 'unknown' };
      if (before.code !== draft.code) {
        const [used] = await tx.select({ id: orders.id }).from(orders).where(eq(orders.couponCode, before.code)).limit(1);
        if (used || before.uses > 0) return { status: 'codeLocked', code: before.code };
      }
      const [row] = await tx
        .update(coupons)
        .set(values)
        .where(and(eq(coupons.id, id), sql`(${draft.maxUses}::integer is null or ${coupons.uses} <= ${draft.maxUses}::integer)`))
        .returning();
      if (!row) return { status: 'belowUses', uses: before.uses };
      await step('coupon-written');
      await recordAudit(tx, { action: 'coupons.updated', actor: userRef(actorId), subject: `coupon:${id}`, before: couponFacts(before), after: couponFacts(row), at: now });
      await step('audit-written');
      return { status: 'ok', coupon: row, created: false };
    });
  } catch (err) {
    // Two staff creating the same code at once: the unique index decides.
    if (isUniqueViolation(err)) return { status: 'taken', code: draft.code };
    throw err;
  }
}

export type ExpireCouponOutcome = { status: 'expired'; coupon: CouponRow } | { status: 'alreadyExpired'; coupon: CouponRow } | { status: 'unknown' };

/** Ends a coupon now (its end date becomes `now`); one already ended is left as it is. */
export async function expireCoupon(db: Db, actorId: number, id: number, now = new Date(), step: CouponStep = noStep): Promise<ExpireCouponOutcome> {
  return db.transaction(async (tx): Promise<ExpireCouponOutcome> => {
    const [before] = await tx.select().from(coupons).where(eq(coupons.id, id)).for('update');
    if (!before) return { status: 'unknown' };
    if (before.expiresAt && before.expiresAt.getTime() <= now.getTime()) return { status: 'alreadyExpired', coupon: before };
    // A start still to come moves to now too, so the window stays a window.
    const startsAt = before.startsAt && before.startsAt.getTime() > now.getTime() ? now : before.startsAt;
    const [row] = await tx.update(coupons).set({ expiresAt: now, startsAt }).where(eq(coupons.id, id)).returning();
    await step('coupon-written');
    await recordAudit(tx, { action: 'coupons.expired', actor: userRef(actorId), subject: `coupon:${id}`, before: couponFacts(before), after: couponFacts(row!), at: now });
    await step('audit-written');
    return { status: 'expired', coupon: row! };
  });
}
