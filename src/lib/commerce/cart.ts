/**
 * The cart: a short list of products kept in a cookie, where adding a course already present is
 * ignored. Pure: parsing, adding, removing, pricing. Amounts are summed
 * in cents so that totals are exact.
 */
import type { Locale } from '~/i18n';
import { formatPrice, pick, type CatalogSnapshot } from '../catalog/catalog';
import { isListed, showBuyButtons, type Viewer } from '../access/access';

/** The cookie holding the cart. Not HttpOnly: it holds no secret and the page reads its count. */
export const CART_COOKIE = 'cart';
/** Most products a cart holds. */
export const CART_MAX_ITEMS = 50;

/** The kinds of product the cart holds. */
export const PRODUCT_KINDS = ['course', 'book', 'plan'] as const;
/** Largest product id (the database's integer range). */
export const MAX_PRODUCT_ID = 2_147_483_647;

/** A product in the cart. */
export interface CartItem {
  kind: (typeof PRODUCT_KINDS)[number];
  id: number;
}

function isCartItem(v: unknown): v is CartItem {
  if (typeof v !== 'object' || v === null) return false;
  const { kind, id } = v as Record<string, unknown>;
  return (PRODUCT_KINDS as readonly unknown[]).includes(kind) && Number.isInteger(id) && (id as number) > 0 && (id as number) <= MAX_PRODUCT_ID;
}

/**
 * Reads the cookie's value; anything malformed is an empty cart (a forged cookie breaks nothing).
 * Hand-checked rather than with zod, because the browser runs it too and should not load zod for it.
 */
export function parseCart(raw: string | undefined | null): CartItem[] {
  if (!raw) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!Array.isArray(parsed) || parsed.length > CART_MAX_ITEMS || !parsed.every(isCartItem)) return [];
    return parsed
      .map(({ kind, id }) => ({ kind, id }))
      .filter((item, i, all) => all.findIndex((o) => o.kind === item.kind && o.id === item.id) === i);
  } catch {
    return [];
  }
}

/** Options of the cart cookie: the whole site, 30 days, readable by the page (its count), Secure over HTTPS. */
export function cartCookieOptions(secure: boolean) {
  return { path: '/', sameSite: 'lax' as const, httpOnly: false, secure, maxAge: 60 * 60 * 24 * 30 };
}

/** The cookie's value for a cart. */
export function serializeCart(items: readonly CartItem[]): string {
  return JSON.stringify(items.map(({ kind, id }) => ({ kind, id })));
}

/** Adds a product; one already present (or a full cart) leaves the cart as it was. */
export function addToCart(items: readonly CartItem[], item: CartItem): { items: CartItem[]; added: boolean } {
  if (items.some((i) => i.kind === item.kind && i.id === item.id) || items.length >= CART_MAX_ITEMS) return { items: [...items], added: false };
  return { items: [...items, item], added: true };
}

/** Removes a product if present. */
export function removeFromCart(items: readonly CartItem[], item: CartItem): CartItem[] {
  return items.filter((i) => !(i.kind === item.kind && i.id === item.id));
}

/** The cart once an order is paid: without what the order bought (anything added since stays). */
export function withoutBought(items: readonly CartItem[], bought: readonly CartItem[]): CartItem[] {
  return bought.reduce<CartItem[]>((left, item) => removeFromCart(left, item), [...items]);
}

/** A priced line of the cart page. */
export interface CartLine extends CartItem {
  name: string;
  image: string;
  price: number;
  cents: number;
}

/**
 * The products of a cart the viewer may see, by the access rules (`canAddToCart`, which asks
 * `isListed`): a cookie naming a buyer-only course the viewer has not bought, a test course or an
 * unknown id loses it, as if it had never been there.
 */
export function visibleItems(items: readonly CartItem[], s: CatalogSnapshot, viewer: Viewer): CartItem[] {
  return items.filter((item) => canAddToCart(item, s, viewer) !== 'unknown');
}

/** Prices the cart from the catalogue, for the viewer: only products they may see (`visibleItems`). */
export function priceCart(items: readonly CartItem[], s: CatalogSnapshot, viewer: Viewer, locale: Locale): { lines: CartLine[]; totalCents: number; total: string } {
  const lines: CartLine[] = [];
  for (const item of visibleItems(items, s, viewer)) {
    if (item.kind === 'course') {
      const c = s.byId.get(item.id);
      if (c && !c.isTest && !c.hidden) lines.push({ ...item, name: pick(c, 'name', locale), image: c.thumbnail, price: c.price, cents: Math.round(c.price * 100) });
    } else if (item.kind === 'book') {
      const b = s.books.find((x) => x.id === item.id);
      if (b) lines.push({ ...item, name: pick(b, 'title', locale), image: b.cover, price: b.price, cents: Math.round(b.price * 100) });
    } else {
      const p = s.plans.find((x) => x.id === item.id);
      if (p) lines.push({ ...item, name: pick(p, 'name', locale), image: '/images/og-default.png', price: p.price, cents: Math.round(p.price * 100) });
    }
  }
  const totalCents = lines.reduce((sum, l) => sum + l.cents, 0);
  return { lines, totalCents, total: formatPrice(totalCents / 100, locale) };
}

/**
 * Whether the viewer may put a product in the cart: a course must be listed for them, paid and not
 * bought yet; books and plans must exist. Returns the reason when not.
 */
export function canAddToCart(item: CartItem, s: CatalogSnapshot, viewer: Viewer): 'ok' | 'unknown' | 'not-for-sale' {
  if (item.kind === 'course') {
    const c = s.byId.get(item.id);
    if (!c || !isListed(c, viewer)) return 'unknown';
    return showBuyButtons(c, viewer) ? 'ok' : 'not-for-sale';
  }
  const exists = item.kind === 'book' ? s.books.some((b) => b.id === item.id) : s.plans.some((p) => p.id === item.id);
  return exists ? 'ok' : 'unknown';
}
