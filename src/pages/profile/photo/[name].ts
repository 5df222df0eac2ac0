/**
 * A profile photo, to its owner only: the square WebP the server made of their upload (never the
 * upload itself), with its own content type and `nosniff`. Its address changes with its bytes, so the
 * browser keeps it for good; shared caches never do. 404 for anyone else's photo, a name that is not
 * one of ours or a file that is gone; the middleware sends visitors to the login page.
 */
import type { APIRoute } from 'astro';
import { messages, toLocale } from '~/i18n';
import { parsePhotoName, PHOTO_HEADERS, readPhoto } from '~/lib/identity';

export const prerender = false;

const answer = async ({ params, url, locals }: Parameters<APIRoute>[0], method: 'GET' | 'HEAD'): Promise<Response> => {
  const locale = toLocale(url.searchParams.get('lang') ?? undefined);
  const photo = parsePhotoName(params.name);
  const userId = locals.identity?.userId ?? null;
  const bytes = photo && photo.userId === userId ? await readPhoto(locals.runtime.storage, photo.name) : null;
  if (!bytes) {
    return new Response(messages(locale).notFound.message, {
      status: 404,
      headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Language': locale, 'Cache-Control': 'private, no-store', 'X-Content-Type-Options': 'nosniff' },
    });
  }
  return new Response(method === 'HEAD' ? null : new Uint8Array(bytes), { headers: { ...PHOTO_HEADERS, 'Content-Length': String(bytes.length) } });
};

export const GET: APIRoute = (ctx) => answer(ctx, 'GET');
export const HEAD: APIRoute = (ctx) => answer(ctx, 'HEAD');
