/**
 * The receipt of one of the logged-in person's paid orders, as a PDF in the language `lang` names,
 * downloaded as an attachment. 404 (in that language) for someone else's order, an unpaid one or an
 * id that is not an order's; the middleware sends visitors and IBO sessions to the login page.
 */
import type { APIRoute } from 'astro';
import { loadOrderPage } from '~/lib/commerce/pages.server';
import { buyerOf } from '~/lib/commerce/orders.server';
import { receiptFacts, receiptFileName } from '~/lib/commerce/receipt';
import { receiptPdf } from '~/lib/commerce/receipt.server';
import { messages, toLocale } from '~/i18n';

export const prerender = false;

export const GET: APIRoute = async ({ params, url, locals }) => {
  const locale = toLocale(url.searchParams.get('lang') ?? undefined);
  const t = messages(locale);
  const userId = locals.identity?.userId ?? null;
  const { db } = locals.runtime;
  const order = userId === null ? null : await loadOrderPage(db, userId, params.id);
  const buyer = order && order.status !== 'pending' && order.status !== 'failed' ? await buyerOf(db, order.userId) : null;
  if (!order || !buyer) return new Response(t.notFound.message, { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Language': locale, 'Cache-Control': 'private, no-store' } });
  const facts = receiptFacts(order, buyer, locale, t.commerce, t.meta.siteName);
  return new Response(new Uint8Array(await receiptPdf(facts)), {
    headers: {
      'Content-Type': 'application/pdf',
      'Content-Disposition': `attachment; filename="${receiptFileName(facts)}"`,
      'Content-Language': locale,
      'Cache-Control': 'private, no-store',
    },
  });
};
