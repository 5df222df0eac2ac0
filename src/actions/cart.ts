/**
 * Cart actions: thin calls into the commerce rules; the cart itself lives in the `cart` cookie. Each
 * answer (and the cookie it writes) holds only the products the viewer may see.
 */
import { ActionError, type ActionAPIContext } from 'astro:actions';
import { action } from './kit';
import { z } from '~/lib/zod';
import { LOCALES } from '~/i18n';
import { catalogContext } from '~/lib/app.server';
import type { Viewer } from '~/lib/access';
import type { CatalogSnapshot } from '~/lib/catalog';
import {
  addToCart,
  canAddToCart,
  CART_COOKIE,
  cartCookieOptions,
  MAX_PRODUCT_ID,
  miniCartSummary,
  parseCart,
  PRODUCT_KINDS,
  removeFromCart,
  serializeCart,
  visibleItems,
  type CartItem,
} from '~/lib/commerce';

const form = z.object({
  kind: z.enum(PRODUCT_KINDS),
  id: z.coerce.number().int().positive().max(MAX_PRODUCT_ID),
  /** The page's language, so messages match it (the action's own URL has none). */
  lang: z.enum(LOCALES).default('es'),
});

function save(ctx: ActionAPIContext, items: CartItem[]) {
  ctx.cookies.set(CART_COOKIE, serializeCart(items), cartCookieOptions(ctx.locals.runtime.config.production && ctx.url.protocol === 'https:'));
}

/** The cart the cookie holds, without what the viewer may not see (a forged or stale cookie loses it). */
function currentCart(ctx: ActionAPIContext, catalog: CatalogSnapshot, viewer: Viewer): CartItem[] {
  return visibleItems(parseCart(ctx.cookies.get(CART_COOKIE)?.value), catalog, viewer);
}

export const cart = {
  /**
   * The cart priced for the header's mini cart: names and prices come from the catalogue, never from
   * the cookie. A cookie naming what the viewer may not see is rewritten without it, as the cart page does.
   */
  view: action('cart.view', {
    input: z.object({ lang: z.enum(LOCALES).default('es') }),
    handler: async ({ lang }, { ctx }) => {
      const { catalog, viewer } = await catalogContext(ctx.locals);
      const stored = parseCart(ctx.cookies.get(CART_COOKIE)?.value);
      const items = visibleItems(stored, catalog, viewer);
      if (items.length !== stored.length) save(ctx, items);
      return miniCartSummary(items, catalog, viewer, lang);
    },
  }),
  /** Adds a product the viewer may buy; a product already in the cart is ignored. */
  add: action('cart.add', {
    accept: 'form',
    input: form.extend({ intent: z.enum(['add', 'buy']).default('add') }),
    handler: async ({ kind, id }, { ctx, t }) => {
      const { catalog, viewer } = await catalogContext(ctx.locals);
      const verdict = canAddToCart({ kind, id }, catalog, viewer);
      if (verdict === 'unknown') throw new ActionError({ code: 'NOT_FOUND', message: t.cart.unknownProduct });
      if (verdict === 'not-for-sale') throw new ActionError({ code: 'BAD_REQUEST', message: t.cart.notForSale });
      const { items, added } = addToCart(currentCart(ctx, catalog, viewer), { kind, id });
      save(ctx, items);
      return { items, added, message: added ? t.cart.added : t.cart.alreadyIn };
    },
  }),
  /** Removes a product from the cart. */
  remove: action('cart.remove', {
    accept: 'form',
    input: form,
    handler: async ({ kind, id }, { ctx, t }) => {
      const { catalog, viewer } = await catalogContext(ctx.locals);
      const items = removeFromCart(currentCart(ctx, catalog, viewer), { kind, id });
      save(ctx, items);
      return { items, message: t.cart.removed };
    },
  }),
};
