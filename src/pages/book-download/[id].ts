/**
 * A book the logged-in person bought (a paid order of theirs), downloaded as an attachment: the PDF
 * staff uploaded (from storage, with the buyer's licence line stamped on every page when it can be), else one generated for them in the language `lang` names; books are
 * never files under `public/`.
 * 404 (in that language) for a book they do not own, an order that is not paid (or was refunded) or an
 * id that is not a book's; the middleware sends visitors and IBO sessions to the login page.
 */
import type { APIRoute } from 'astro';
import { Readable } from 'node:stream';
import { bookFile } from '~/lib/commerce/book.server';
import { messages, toLocale } from '~/i18n';

export const prerender = false;

export const GET: APIRoute = async ({ params, url, locals }) => {
  const locale = toLocale(url.searchParams.get('lang') ?? undefined);
  const t = messages(locale);
  const userId = locals.identity?.userId ?? null;
  const book = userId === null ? null : await bookFile(locals.runtime.db, locals.runtime.storage, userId, params.id, locale, t.commerce.book, t.meta.siteName);
  const headers = { 'Content-Language': locale, 'Cache-Control': 'private, no-store', 'X-Content-Type-Options': 'nosniff' };
  if (!book) return new Response(t.notFound.message, { status: 404, headers: { ...headers, 'Content-Type': 'text/plain; charset=utf-8' } });
  const file = { ...headers, 'Content-Type': 'application/pdf', 'Content-Disposition': `attachment; filename="${book.fileName}"` };
  if (book.kind === 'stream') {
    const body = Readable.toWeb(Readable.from(book.body)) as ReadableStream<Uint8Array>;
    return new Response(body, { headers: { ...file, 'Content-Length': String(book.sizeBytes) } });
  }
  return new Response(new Uint8Array(book.pdf), { headers: file });
};
