/**
 * Reading orders: a person's orders for my shopping and the order page, a stored coupon, the IBO a
 * buyer came through, and the buyer's name for the receipt. Placing and paying one is in
 * `checkout.server.ts`.
 */
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { coupons, orderItems, orders, referrals, users, type Order, type OrderItem } from '../db/schema';
import type { Coupon } from './coupon';

/** A stored coupon as the pure rules read it, with its uses so far; null when there is none with that code. */
export async function readCoupon(db: Db, code: string): Promise<{ coupon: Coupon; uses: number } | null> {
  const [row] = await db.select().from(coupons).where(eq(coupons.code, code)).limit(1);
  if (!row) return null;
  const base = { code: row.code, startsAt: row.startsAt, expiresAt: row.expiresAt, maxUses: row.maxUses, minimumTotalCents: row.minimumTotalCents };
  const coupon: Coupon = row.kind === 'percent' ? { ...base, kind: 'percent', percent: row.percent ?? 0 } : { ...base, kind: 'fixed', amountCents: row.amountCents ?? 0 };
  return { coupon, uses: row.uses };
}

/** The IBO a buyer came through last: this browser's referral record, else the latest one attributed to the account. */
export async function referringIbo(db: Db, visitorId: string | undefined, userId: number): Promise<number | null> {
  if (visitorId && visitorId.length <= 100) {
    const [own] = await db.select({ ibo: referrals.lastIboId }).from(referrals).where(eq(referrals.visitorId, visitorId)).limit(1);
    if (own) return own.ibo;
  }
  const [latest] = await db.select({ ibo: referrals.lastIboId }).from(referrals).where(eq(referrals.userId, userId)).orderBy(desc(referrals.lastAt)).limit(1);
  return latest?.ibo ?? null;
}

/** An order with its items, as my shopping and the order page show it. */
export interface OrderWithItems extends Order {
  items: OrderItem[];
}

/** A person's orders, newest first, with their items. */
export async function ordersOf(db: Db, userId: number): Promise<OrderWithItems[]> {
  const list = await db.select().from(orders).where(eq(orders.userId, userId)).orderBy(desc(orders.createdAt), desc(orders.id));
  if (list.length === 0) return [];
  const items = await db
    .select()
    .from(orderItems)
    .where(inArray(orderItems.orderId, list.map((o) => o.id)))
    .orderBy(orderItems.id);
  return list.map((o) => ({ ...o, items: items.filter((i) => i.orderId === o.id) }));
}

/** One of a person's orders with its items; null for someone else's order or no order at all (the page answers 404). */
export async function ownOrder(db: Db, userId: number, orderId: number | null): Promise<OrderWithItems | null> {
  if (orderId === null) return null;
  const [order] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.userId, userId)))
    .limit(1);
  if (!order) return null;
  const items = await db.select().from(orderItems).where(eq(orderItems.orderId, order.id)).orderBy(orderItems.id);
  return { ...order, items };
}

/** A person's e-mail and name, for the receipt. */
export async function buyerOf(db: Db, userId: number): Promise<{ email: string; name: string; locale: 'es' | 'en' | null } | null> {
  const [u] = await db.select({ email: users.email, firstName: users.firstName, lastName: users.lastName, locale: users.locale }).from(users).where(eq(users.id, userId));
  return u ? { email: u.email, name: `${u.firstName} ${u.lastName}`.trim(), locale: u.locale } : null;
}
