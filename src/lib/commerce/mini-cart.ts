/**
 * The header's mini cart, its pure part: what the server answers the panel (each product's name and
 * price from the catalogue, never from the cookie) and the small rules the island follows.
 */
import type { Locale } from '~/i18n';
import { plural, type Plural } from '~/i18n/plural';
import { formatPrice, type CatalogSnapshot } from '../catalog/catalog';
import type { Viewer } from '../access/access';
import { priceCart, serializeCart, type CartItem } from './cart';

/** A line of the panel: the product, its name and its price as the reader's language writes it. */
export interface MiniCartLine extends CartItem {
  name: string;
  price: string;
}

/** The panel's content: the products the server holds for the cart (the badge follows them), the priced lines and the total. */
export interface MiniCartSummary {
  items: CartItem[];
  lines: MiniCartLine[];
  total: string;
  totalCents: number;
}

/** Prices a cart for the panel, only with what the viewer may see (`priceCart`). */
export function miniCartSummary(items: readonly CartItem[], s: CatalogSnapshot, viewer: Viewer, locale: Locale): MiniCartSummary {
  const priced = priceCart(items, s, viewer, locale);
  return {
    items: priced.lines.map(({ kind, id }) => ({ kind, id })),
    lines: priced.lines.map(({ kind, id, name, price }) => ({ kind, id, name, price: formatPrice(price, locale) })),
    total: priced.total,
    totalCents: priced.totalCents,
  };
}

/** A cart's identity: two carts with the same products in the same order have the same key. */
export function cartKey(items: readonly CartItem[]): string {
  return serializeCart(items);
}

/** Whether a line stands for a product still in the cart. */
export function inCart(items: readonly CartItem[], line: CartItem): boolean {
  return items.some((i) => i.kind === line.kind && i.id === line.id);
}

/**
 * Where focus goes after the line at `removedIndex` of `count` lines was removed: the remove button
 * now at that place (the next product), else the one before it, or `null` when the cart is empty (the
 * panel's title then takes focus), so a keyboard user never lands on the page's start.
 */
export function focusAfterRemoval(count: number, removedIndex: number): number | null {
  const left = count - 1;
  if (left <= 0) return null;
  return Math.min(Math.max(removedIndex, 0), left - 1);
}

/** The disclosure button's name for `count` products. */
export function cartButtonLabel(locale: Locale, t: { button: Plural }, count: number): string {
  return plural(locale, t.button, count);
}
