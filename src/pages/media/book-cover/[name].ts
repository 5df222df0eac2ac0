/**
 * A book cover staff uploaded: the 400×600 WebP the server made of it (never the upload), from storage,
 * to anyone (covers are on the public books page, as the demo covers under `public/` are). Its address
 * changes with its bytes, so it is kept for good. 404 for a name that is not one of ours or a file that
 * is gone.
 */
import type { APIRoute } from 'astro';
import { Readable } from 'node:stream';
import { messages, toLocale } from '~/i18n';
import { parseCoverName } from '~/lib/commerce/products';
import { readCover } from '~/lib/commerce/products.server';

export const prerender = false;

const answer = async ({ params, url, locals }: Parameters<APIRoute>[0], method: 'GET' | 'HEAD'): Promise<Response> => {
  const name = parseCoverName(params.name);
  const cover = name ? await readCover(locals.runtime.storage, name) : null;
  if (!cover) {
    const locale = toLocale(url.searchParams.get('lang') ?? undefined);
    return new Response(messages(locale).notFound.message, {
      status: 404,
      headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Language': locale, 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' },
    });
  }
  const headers = { 'Content-Type': 'image/webp', 'Content-Length': String(cover.sizeBytes), 'Cache-Control': 'public, max-age=31536000, immutable', 'X-Content-Type-Options': 'nosniff' };
  if (method === 'HEAD') {
    (cover.body as Readable).destroy?.();
    return new Response(null, { headers });
  }
  return new Response(Readable.toWeb(Readable.from(cover.body)) as ReadableStream<Uint8Array>, { headers });
};

export const GET: APIRoute = (ctx) => answer(ctx, 'GET');
export const HEAD: APIRoute = (ctx) => answer(ctx, 'HEAD');
