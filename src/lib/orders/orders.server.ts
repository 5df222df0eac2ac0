/** The back office's orders, read: the list (search, filters, totals, pages) and one order with everything about it. */
import { and, count, desc, eq, gte, ilike, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { ibos, orderItems, orderRefundLines, orderRefunds, orders, paymentAttempts, users, type Order, type OrderItem, type OrderRefund, type PaymentAttempt } from '../db/schema';
import { ORDERS_PAGE_SIZE, pageOf, readSearch, type OrderFilter, type ProductKind } from './orders';

/** One line of the list. */
export interface OrderLine {
  id: number;
  createdAt: Date;
  status: Order['status'];
  userId: number;
  buyerEmail: string;
  buyerName: string;
  totalCents: number;
  refundedCents: number;
  couponCode: string | null;
  iboCode: string | null;
  kinds: ProductKind[];
}

/** A page of the list, with the totals of every order the filter selects. */
export interface OrdersPage {
  lines: OrderLine[];
  total: number;
  /** What the selected orders charged (paid or refunded since), and what was refunded of them. */
  paidCents: number;
  refundedCents: number;
  page: number;
  pages: number;
}

const refundedOf = sql<number>`coalesce((select sum(${orderRefunds.amountCents}) from ${orderRefunds} where ${orderRefunds.orderId} = ${orders.id} and ${orderRefunds.status} = 'refunded'), 0)::int`;

/** The conditions of a filter (its date range already checked by `orderRange`). */
function conditionsOf(filter: OrderFilter, range: { since: Date | null; until: Date | null }): SQL[] {
  const c: SQL[] = [];
  const search = readSearch(filter.q);
  if (search.orderId !== null) c.push(eq(orders.id, search.orderId));
  if (search.email !== null) c.push(ilike(users.email, `%${search.email.replace(/[\\%_]/g, (m) => `\\${m}`)}%`));
  if (filter.status) c.push(eq(orders.status, filter.status));
  if (range.since) c.push(gte(orders.createdAt, range.since));
  if (range.until) c.push(lt(orders.createdAt, range.until));
  if (filter.kind) c.push(sql`exists (select 1 from ${orderItems} where ${orderItems.orderId} = ${orders.id} and ${orderItems.productKind} = ${filter.kind})`);
  if (filter.coupon) c.push(eq(orders.couponCode, filter.coupon));
  if (filter.ibo) c.push(sql`${orders.referringIboId} in (select ${ibos.id} from ${ibos} where upper(${ibos.code}) = upper(${filter.ibo}))`);
  return c;
}

/** The orders `filter` selects, newest first, page `filter.page`, with their totals. */
export async function loadOrders(db: Db, filter: OrderFilter, range: { since: Date | null; until: Date | null }): Promise<OrdersPage> {
  const conditions = conditionsOf(filter, range);
  const where = conditions.length ? and(...conditions) : undefined;
  const [sums] = await db
    .select({
      n: count(),
      paid: sql<number>`coalesce(sum(${orders.totalCents}) filter (where ${orders.status} in ('paid', 'refunded')), 0)::bigint`,
    })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .where(where);
  const [back] = await db
    .select({ refunded: sql<number>`coalesce(sum(${orderRefunds.amountCents}), 0)::bigint` })
    .from(orderRefunds)
    .innerJoin(orders, eq(orders.id, orderRefunds.orderId))
    .innerJoin(users, eq(users.id, orders.userId))
    .where(and(eq(orderRefunds.status, 'refunded'), where));
  const total = Number(sums?.n ?? 0);
  const { page, pages } = pageOf(total, filter.page);
  const rows = await db
    .select({ o: orders, email: users.email, firstName: users.firstName, lastName: users.lastName, iboCode: ibos.code, refunded: refundedOf })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .leftJoin(ibos, eq(ibos.id, orders.referringIboId))
    .where(where)
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(ORDERS_PAGE_SIZE)
    .offset((page - 1) * ORDERS_PAGE_SIZE);
  const kinds =
    rows.length === 0
      ? []
      : await db
          .selectDistinct({ orderId: orderItems.orderId, kind: orderItems.productKind })
          .from(orderItems)
          .where(
            inArray(
              orderItems.orderId,
              rows.map((r) => r.o.id),
            ),
          );
  const lines = rows.map((r) => ({
    id: r.o.id,
    createdAt: r.o.createdAt,
    status: r.o.status,
    userId: r.o.userId,
    buyerEmail: r.email,
    buyerName: `${r.firstName} ${r.lastName}`.trim(),
    totalCents: r.o.totalCents,
    refundedCents: Number(r.refunded),
    couponCode: r.o.couponCode,
    iboCode: r.iboCode,
    kinds: kinds.filter((k) => k.orderId === r.o.id).map((k) => k.kind),
  }));
  return { lines, total, paidCents: Number(sums?.paid ?? 0), refundedCents: Number(back?.refunded ?? 0), page, pages };
}

/** One order as the back office shows it. */
export interface OrderDetail {
  order: Order;
  buyer: { id: number; email: string; name: string; locale: 'es' | 'en' | null };
  ibo: { id: number; code: string; companyName: string } | null;
  items: (OrderItem & { refundId: number | null; refundStatus: OrderRefund['status'] | null })[];
  attempts: PaymentAttempt[];
  refunds: (OrderRefund & { actorName: string | null })[];
  refundedCents: number;
}

/** One order with its lines, payment attempts, refunds, buyer and referring IBO; null when there is none. */
export async function loadOrder(db: Db, id: number): Promise<OrderDetail | null> {
  const [row] = await db
    .select({ o: orders, u: { id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName, locale: users.locale }, ibo: { id: ibos.id, code: ibos.code, companyName: ibos.companyName } })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .leftJoin(ibos, eq(ibos.id, orders.referringIboId))
    .where(eq(orders.id, id));
  if (!row) return null;
  const [items, attempts, refunds, lines] = await Promise.all([
    db.select().from(orderItems).where(eq(orderItems.orderId, id)).orderBy(orderItems.id),
    db.select().from(paymentAttempts).where(eq(paymentAttempts.orderId, id)).orderBy(paymentAttempts.attemptNumber),
    db
      .select({ r: orderRefunds, firstName: users.firstName, lastName: users.lastName })
      .from(orderRefunds)
      .leftJoin(users, eq(users.id, orderRefunds.actorId))
      .where(eq(orderRefunds.orderId, id))
      .orderBy(orderRefunds.createdAt, orderRefunds.id),
    db
      .select({ itemId: orderRefundLines.orderItemId, refundId: orderRefundLines.refundId, status: orderRefunds.status })
      .from(orderRefundLines)
      .innerJoin(orderRefunds, eq(orderRefunds.id, orderRefundLines.refundId))
      .where(eq(orderRefunds.orderId, id)),
  ]);
  return {
    order: row.o,
    buyer: { id: row.u.id, email: row.u.email, name: `${row.u.firstName} ${row.u.lastName}`.trim(), locale: row.u.locale },
    ibo: row.ibo?.id ? row.ibo : null,
    items: items.map((i) => {
      const l = lines.find((x) => x.itemId === i.id);
      return { ...i, refundId: l?.refundId ?? null, refundStatus: l?.status ?? null };
    }),
    attempts,
    refunds: refunds.map((r) => ({ ...r.r, actorName: r.firstName === null ? null : `${r.firstName} ${r.lastName ?? ''}`.trim() })),
    refundedCents: refunds.filter((r) => r.r.status === 'refunded').reduce((a, r) => a + r.r.amountCents, 0),
  };
}
