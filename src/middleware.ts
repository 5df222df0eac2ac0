/** Request middleware for pages rendered on demand: identity, the shared-page cache, fallback status. */
import { defineMiddleware } from 'astro:middleware';
import { catalogVersion } from '~/lib/catalog';
import { cacheableRequest, pageKey, SESSION_COOKIE, sharedPageCache } from '~/lib/http/page-cache';
import { getDb } from '~/lib/db';
import { readSession } from '~/lib/identity/session.server';

const pages = sharedPageCache();

export const onRequest = defineMiddleware(async (ctx, next) => {
  ctx.locals.identity = null;
  ctx.locals.session = null;
  const token = ctx.isPrerendered ? undefined : ctx.cookies.get(SESSION_COOKIE)?.value;
  if (token) {
    const session = await readSession((await getDb()).db, token);
    if (session) {
      ctx.locals.session = session;
      ctx.locals.identity = session.identity;
    } else {
      // A forged, expired or revoked cookie: drop it so the browser stops sending it.
      ctx.cookies.delete(SESSION_COOKIE, { path: '/' });
    }
  }
  const cacheable = !ctx.isPrerendered && cacheableRequest(ctx.request.method, ctx.url, ctx.cookies.has(SESSION_COOKIE));
  const key = pageKey(ctx.url);
  if (cacheable) {
    const hit = pages.get(key, catalogVersion());
    if (hit) return new Response(ctx.request.method === 'HEAD' ? null : hit.body, { status: hit.status, headers: [...hit.headers, ['x-page-cache', 'hit']] });
  }
  const version = catalogVersion();
  let response = await next();
  // English pages are the Spanish page files rendered through i18n `fallbackType: 'rewrite'`.
  // Astro marks such a rewrite 302 without a Location header; it is a normal page, so answer 200.
  if (response.status === 302 && !response.headers.has('location')) {
    response = new Response(response.body, { status: 200, headers: response.headers });
  }
  // A page that declared itself the same for every visitor (`locals.sharedPage`) is kept.
  const html = response.headers.get('content-type')?.startsWith('text/html');
  if (cacheable && ctx.locals.sharedPage && html && (response.status === 200 || response.status === 404) && !response.headers.has('set-cookie')) {
    const body = await response.text();
    const headers = [...response.headers.entries()];
    pages.set(key, version, { status: response.status, headers, body });
    return new Response(ctx.request.method === 'HEAD' ? null : body, { status: response.status, headers: [...headers, ['x-page-cache', 'miss']] });
  }
  return response;
});
