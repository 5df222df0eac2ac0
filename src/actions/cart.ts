/** Cart actions: thin calls into the commerce rules; the cart itself lives in the `cart` cookie. */
import { ActionError, defineAction, type ActionAPIContext } from 'astro:actions';
import { z } from '~/lib/zod';
import { messages, LOCALES } from '~/i18n';
import { catalogContext } from '~/lib/app.server';
import { addToCart, canAddToCart, CART_COOKIE, MAX_PRODUCT_ID, parseCart, PRODUCT_KINDS, removeFromCart, serializeCart, type CartItem } from '~/lib/commerce';

const form = z.object({
  kind: z.enum(PRODUCT_KINDS),
  id: z.coerce.number().int().positive().max(MAX_PRODUCT_ID),
  /** The page's language, so messages match it (the action's own URL has none). */
  lang: z.enum(LOCALES).default('es'),
});

function save(ctx: ActionAPIContext, items: CartItem[]) {
  ctx.cookies.set(CART_COOKIE, serializeCart(items), {
    path: '/',
    sameSite: 'lax',
    httpOnly: false,
    secure: import.meta.env.PROD && ctx.url.protocol === 'https:',
    maxAge: 60 * 60 * 24 * 30,
  });
}

export const cart = {
  /** Adds a product the viewer may buy; a product already in the cart is ignored (spec). */
  add: defineAction({
    accept: 'form',
    input: form.extend({ intent: z.enum(['add', 'buy']).default('add') }),
    handler: async ({ kind, id, lang }, ctx) => {
      const t = messages(lang);
      const { catalog, viewer } = await catalogContext(ctx.locals.identity);
      const verdict = canAddToCart({ kind, id }, catalog, viewer);
      if (verdict === 'unknown') throw new ActionError({ code: 'NOT_FOUND', message: t.cart.unknownProduct });
      if (verdict === 'not-for-sale') throw new ActionError({ code: 'BAD_REQUEST', message: t.cart.notForSale });
      const { items, added } = addToCart(parseCart(ctx.cookies.get(CART_COOKIE)?.value), { kind, id });
      save(ctx, items);
      return { items, added, message: added ? t.cart.added : t.cart.alreadyIn };
    },
  }),
  /** Removes a product from the cart. */
  remove: defineAction({
    accept: 'form',
    input: form,
    handler: async ({ kind, id, lang }, ctx) => {
      const items = removeFromCart(parseCart(ctx.cookies.get(CART_COOKIE)?.value), { kind, id });
      save(ctx, items);
      return { items, message: messages(lang).cart.removed };
    },
  }),
};
