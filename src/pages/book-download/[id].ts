/**
 * A book the logged-in person bought (a paid order of theirs), as a PDF generated for them in the
 * language `lang` names and downloaded as an attachment; books are never files under `public/`.
 * 404 (in that language) for a book they do not own, an order that is not paid (or was refunded) or an
 * id that is not a book's; the middleware sends visitors and IBO sessions to the login page.
 */
import type { APIRoute } from 'astro';
import { bookDownload } from '~/lib/commerce/book.server';
import { messages, toLocale } from '~/i18n';

export const prerender = false;

export const GET: APIRoute = async ({ params, url, locals }) => {
  const locale = toLocale(url.searchParams.get('lang') ?? undefined);
  const t = messages(locale);
  const userId = locals.identity?.userId ?? null;
  const book = userId === null ? null : await bookDownload(locals.runtime.db, userId, params.id, locale, t.commerce.book, t.meta.siteName);
  const headers = { 'Content-Language': locale, 'Cache-Control': 'private, no-store', 'X-Content-Type-Options': 'nosniff' };
  if (!book) return new Response(t.notFound.message, { status: 404, headers: { ...headers, 'Content-Type': 'text/plain; charset=utf-8' } });
  return new Response(new Uint8Array(book.pdf), {
    headers: { ...headers, 'Content-Type': 'application/pdf', 'Content-Disposition': `attachment; filename="${book.fileName}"` },
  });
};
