/**
 * What the commerce pages show one person: the checkout (`/purchase-detail`: summary, coupon, the
 * payment form's lists and a fresh idempotency key), my shopping (orders and what they unlocked) and
 * one order (`/myshopping-detail/{id}`). Someone else's order, or an id that is not one, is `null`.
 */
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { identificationTypes } from '../db/schema';
import type { Locale } from '~/i18n/locales';
import type { CatalogSnapshot } from '../catalog/catalog';
import type { Viewer } from '../access/access';
import { formatCents } from './money';
import { checkoutLines, couponCodeOf, couponRefusal, orderAmounts, orderNumber, parseOrderId, type CheckoutRefusal } from './checkout';
import { mayDownloadBook } from './book';
import { ordersOf, ownOrder, readCoupon, type OrderWithItems } from './orders.server';
import type { CheckoutKeys } from './checkout-keys.server';
import { lookUpCoupon, type LimitKey } from './limits.server';
import type { RateLimiter } from '../http/rate-limit.server';

/** An identification type of the payment form, in the page's language. */
export interface IdentificationOption {
  id: number;
  name: string;
}

/** The identification types the payment form offers, in order. */
export async function identificationOptions(db: Db, locale: Locale): Promise<IdentificationOption[]> {
  const rows = await db.select().from(identificationTypes).orderBy(asc(identificationTypes.position), asc(identificationTypes.id));
  return rows.map((r) => ({ id: r.id, name: locale === 'en' ? r.nameEn : r.nameEs }));
}

/** Whether an identification type exists (the part of the form's rules that reads the database). */
export async function identificationTypeExists(db: Db, id: number): Promise<boolean> {
  const [row] = await db.select({ id: identificationTypes.id }).from(identificationTypes).where(eq(identificationTypes.id, id)).limit(1);
  return row !== undefined;
}

/** A line of the summary. */
export interface SummaryLine {
  kind: 'course' | 'book' | 'plan';
  id: number;
  title: string;
  amount: string;
}

/**
 * The coupon part of the summary: the code as typed, and its discount or why it does not apply
 * (`coupon-limited`: too many unknown codes tried, not looked up; `retryAfterSeconds` says how long to wait).
 */
export interface SummaryCoupon {
  code: string;
  discount: string | null;
  refusal: CheckoutRefusal | 'coupon-limited' | null;
  retryAfterSeconds?: number;
}

/** The checkout page. */
export type CheckoutPage =
  | { kind: 'empty' }
  /** The cart cannot be checked out as it is (the cart page shows and cleans it). */
  | { kind: 'refused'; reason: CheckoutRefusal }
  | {
      kind: 'ready';
      lines: SummaryLine[];
      subtotal: string;
      total: string;
      coupon: SummaryCoupon | null;
      /** The code the payment form carries (only a coupon that applies). */
      appliedCoupon: string | null;
      identificationTypes: IdentificationOption[];
      /** A new idempotency key for this view of the checkout. */
      idempotencyKey: string;
    };

/**
 * Loads the checkout page for a person: their cart priced by the server, the coupon typed (`rawCoupon`)
 * and a fresh key. With `limits` (the page passes the person's coupon-guess limits), a code that does
 * not exist counts against them, and once they are used up no code is looked up.
 */
export async function loadCheckoutPage(
  db: Db,
  catalog: CatalogSnapshot,
  viewer: Viewer,
  userId: number,
  cartCookie: string | undefined,
  rawCoupon: string | null,
  locale: Locale,
  keys: CheckoutKeys,
  now: Date,
  limits?: { limiter: RateLimiter; keys: LimitKey[] },
): Promise<CheckoutPage> {
  const cart = checkoutLines(cartCookie, catalog, viewer);
  if (!cart.ok) return cart.reason === 'empty-cart' ? { kind: 'empty' } : { kind: 'refused', reason: cart.reason };
  const lines = cart.lines.map((l) => ({ kind: l.kind, id: l.id, title: locale === 'en' ? l.titleEn : l.titleEs, amount: formatCents(l.cents, locale) }));
  const base = orderAmounts(cart.lines, null, now);
  if (!base.ok) throw new Error('a cart without a coupon is always priced');
  let amounts = base.amounts;
  let coupon: SummaryCoupon | null = null;
  let appliedCoupon: string | null = null;
  const code = couponCodeOf(rawCoupon);
  if (code === undefined) coupon = { code: (rawCoupon ?? '').trim().slice(0, 40), discount: null, refusal: 'coupon-unknown' };
  else if (code !== null) {
    const found = limits ? await lookUpCoupon(limits.limiter, limits.keys, () => readCoupon(db, code)) : null;
    const stored = found ? (found.kind === 'found' ? found.coupon : null) : await readCoupon(db, code);
    const priced = stored ? orderAmounts(cart.lines, stored, now) : null;
    if (found?.kind === 'limited') coupon = { code, discount: null, refusal: 'coupon-limited', retryAfterSeconds: found.retryAfterSeconds };
    else if (!priced) coupon = { code, discount: null, refusal: 'coupon-unknown' };
    else if (!priced.ok) coupon = { code, discount: null, refusal: couponRefusal(priced.reason) };
    else {
      amounts = priced.amounts;
      appliedCoupon = code;
      coupon = { code, discount: formatCents(amounts.discountCents, locale), refusal: null };
    }
  }
  return {
    kind: 'ready',
    lines,
    subtotal: formatCents(amounts.subtotalCents, locale),
    total: formatCents(amounts.totalCents, locale),
    coupon,
    appliedCoupon,
    identificationTypes: await identificationOptions(db, locale),
    idempotencyKey: keys.issue(userId),
  };
}

/** An order as my shopping lists it. */
export interface OrderSummary {
  id: number;
  number: string;
  date: Date;
  status: OrderWithItems['status'];
  total: string;
  /** `downloadable`: a book of a paid order, whose PDF my shopping offers. */
  items: { kind: 'course' | 'book' | 'plan'; id: number; title: string; downloadable: boolean }[];
}

/** A person's orders, newest first, in the page's language. */
export async function loadMyOrders(db: Db, userId: number, locale: Locale): Promise<OrderSummary[]> {
  return (await ordersOf(db, userId)).map((o) => summaryOf(o, locale));
}

function summaryOf(o: OrderWithItems, locale: Locale): OrderSummary {
  return {
    id: o.id,
    number: orderNumber(o.id),
    date: o.paidAt ?? o.createdAt,
    status: o.status,
    total: formatCents(o.totalCents, locale),
    items: o.items.map((i) => ({ kind: i.productKind, id: i.productId, title: locale === 'en' ? i.titleEn : i.titleEs, downloadable: mayDownloadBook(o.status, i.productKind) })),
  };
}

/** One of the person's orders as its page shows it, or `null` (someone else's, or not an order id): the page answers 404. */
export async function loadOrderPage(db: Db, userId: number, rawId: string | undefined): Promise<OrderWithItems | null> {
  return ownOrder(db, userId, parseOrderId(rawId));
}
