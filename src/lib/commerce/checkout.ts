/**
 * What a checkout is made of, before any money moves: the cart cookie read strictly (a forged or stale
 * cookie is refused with the reason, never silently repaired, since the buyer must pay for exactly what
 * they saw), each line priced from the catalogue in cents (a price sent by the browser is never read),
 * the coupon's effect, and how orders are numbered and why a checkout is refused. Pure.
 */
import { canAddToCart, parseCart, CART_MAX_ITEMS, type CartItem } from './cart';
import { priceToCents, sumCents } from './money';
import { applyCoupon, normalizeCouponCode, type Coupon, type CouponRefusal } from './coupon';
import type { CatalogSnapshot } from '../catalog/catalog';
import type { Viewer } from '../access/access';

/** A line of an order as it will be stored: the product, its code, its titles and its price in cents. */
export interface CheckoutLine extends CartItem {
  productCode: string;
  titleEs: string;
  titleEn: string;
  cents: number;
}

/** Why a cart cannot be checked out. */
export type CartRefusal = 'empty-cart' | 'malformed-cart' | 'unknown-product' | 'not-for-sale';

/**
 * Reads the cart cookie for a checkout: the lines to charge, or why not. Unlike the cart page (which
 * quietly drops what the viewer may not see), a checkout refuses a cookie that is malformed, names a
 * product that does not exist or that the viewer may not know of (`unknown-product`), or one they may
 * not buy (a free course, one already bought: `not-for-sale`).
 */
export function checkoutLines(rawCookie: string | undefined, catalog: CatalogSnapshot, viewer: Viewer): { ok: true; lines: CheckoutLine[] } | { ok: false; reason: CartRefusal } {
  const items = parseCart(rawCookie);
  if (items.length === 0) return { ok: false, reason: rawCookie && !isEmptyList(rawCookie) ? 'malformed-cart' : 'empty-cart' };
  // `parseCart` drops duplicates; a cookie that held any is not one the site wrote.
  if (items.length !== countEntries(rawCookie)) return { ok: false, reason: 'malformed-cart' };
  const lines: CheckoutLine[] = [];
  for (const item of items) {
    const verdict = canAddToCart(item, catalog, viewer);
    if (verdict !== 'ok') return { ok: false, reason: verdict === 'unknown' ? 'unknown-product' : 'not-for-sale' };
    const line = lineOf(item, catalog);
    if (!line) return { ok: false, reason: 'unknown-product' };
    lines.push(line);
  }
  return { ok: true, lines };
}

function isEmptyList(raw: string): boolean {
  try {
    const v: unknown = JSON.parse(raw);
    return Array.isArray(v) && v.length === 0;
  } catch {
    return false;
  }
}

function countEntries(raw: string | undefined): number {
  try {
    const v: unknown = JSON.parse(raw ?? '');
    return Array.isArray(v) ? Math.min(v.length, CART_MAX_ITEMS + 1) : -1;
  } catch {
    return -1;
  }
}

/** A product priced from the catalogue (null when it is missing or has no price to charge). */
function lineOf(item: CartItem, s: CatalogSnapshot): CheckoutLine | null {
  const product =
    item.kind === 'course'
      ? s.byId.get(item.id)
      : item.kind === 'book'
        ? s.books.find((b) => b.id === item.id)
        : s.plans.find((p) => p.id === item.id);
  if (!product) return null;
  const titles = 'titleEs' in product ? { titleEs: product.titleEs, titleEn: product.titleEn } : { titleEs: product.nameEs, titleEn: product.nameEn };
  const cents = priceToCents(product.price);
  return cents > 0 ? { ...item, productCode: product.code, ...titles, cents } : null;
}

/** The amounts of an order: the lines' sum, the coupon's discount and what is charged. */
export interface OrderAmounts {
  subtotalCents: number;
  discountCents: number;
  totalCents: number;
}

/** The amounts of `lines` with `coupon` (already read from the database) at `now`: or the coupon's refusal. */
export function orderAmounts(
  lines: readonly { cents: number }[],
  coupon: { coupon: Coupon; uses: number } | null,
  now: Date,
): { ok: true; amounts: OrderAmounts } | { ok: false; reason: CouponRefusal } {
  const subtotalCents = sumCents(lines.map((l) => l.cents));
  if (!coupon) return { ok: true, amounts: { subtotalCents, discountCents: 0, totalCents: subtotalCents } };
  const applied = applyCoupon(subtotalCents, coupon.coupon, now, coupon.uses);
  if (!applied.ok) return applied;
  return { ok: true, amounts: { subtotalCents, discountCents: applied.discountCents, totalCents: applied.totalCents } };
}

/** The coupon code typed in the summary, as stored; `null` for none; `undefined` for one that cannot be a code. */
export function couponCodeOf(raw: unknown): string | null | undefined {
  if (typeof raw !== 'string' || raw.trim() === '') return null;
  return normalizeCouponCode(raw) ?? undefined;
}

/** An order's number as people read it: "A-000042". */
export function orderNumber(id: number): string {
  return `A-${String(id).padStart(6, '0')}`;
}

/** Reads an order id from a route parameter ("42"), or null for anything else. */
export function parseOrderId(raw: string | undefined): number | null {
  if (!raw || !/^[1-9][0-9]{0,9}$/.test(raw)) return null;
  const n = Number(raw);
  return n <= 2_147_483_647 ? n : null;
}

/** Every reason a checkout is refused before a charge (no order, no charge). */
export const CHECKOUT_REFUSALS = [
  'forged-key',
  /** The checkout page was open over a day: its key places no order (a fresh form comes with the refusal). */
  'expired-key',
  'reused-key',
  'empty-cart',
  'malformed-cart',
  'unknown-product',
  'not-for-sale',
  'already-bought',
  'in-progress',
  'coupon-unknown',
  'coupon-not-yet',
  'coupon-expired',
  'coupon-spent',
  'coupon-not-applicable',
  'invalid-card',
  'expired-card',
] as const;
export type CheckoutRefusal = (typeof CHECKOUT_REFUSALS)[number];

/** The refusal of a coupon as a checkout refusal. */
export function couponRefusal(reason: CouponRefusal): CheckoutRefusal {
  return `coupon-${reason}`;
}

/** The HTTP status of each refusal: 400 for what the request got wrong, 409 for what the state forbids. */
export function refusalStatus(reason: CheckoutRefusal): 400 | 409 {
  return reason === 'already-bought' || reason === 'in-progress' || reason === 'reused-key' || reason === 'coupon-spent' || reason === 'not-for-sale' ? 409 : 400;
}

/** Why a payment did not go through: the card was declined, it lacked funds, or the processor failed (try again). */
export type PaymentFailure = 'declined' | 'insufficient-funds' | 'processing-error';
