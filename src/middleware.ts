/** Request middleware for pages rendered on demand: identity, the shared-page cache, fallback status. */
import { defineMiddleware } from 'astro:middleware';
import { catalogVersion } from '~/lib/catalog';
import { cacheableRequest, pageKey, SESSION_COOKIE, sharedPageCache } from '~/lib/http/page-cache';
import { getDb } from '~/lib/db';
import { readSession } from '~/lib/identity/session.server';
import { isProtectedPath, loginUrl } from '~/lib/identity/account';
import { splitLocale } from '~/lib/paths';
import { requestLocale } from '~/lib/http/locale';
import { DEFAULT_LOCALE, messages } from '~/i18n';

const pages = sharedPageCache();

/** True when a state-changing request comes from another site (CSRF): its Origin names another host. */
export function crossSiteMutation(method: string, headers: Headers, host: string): boolean {
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return false;
  const origin = headers.get('origin');
  if (origin) {
    try {
      return new URL(origin).host !== host;
    } catch {
      return true;
    }
  }
  return headers.get('sec-fetch-site') === 'cross-site';
}

export const onRequest = defineMiddleware(async (ctx, next) => {
  ctx.locals.identity = null;
  ctx.locals.session = null;
  if (crossSiteMutation(ctx.request.method, ctx.request.headers, ctx.url.host)) {
    const path = splitLocale(ctx.url.pathname);
    const locale = path.locale !== DEFAULT_LOCALE ? path.locale : requestLocale(ctx.url, ctx.request.headers);
    return new Response(messages(locale).crossSite, { status: 403, headers: { 'content-type': 'text/plain; charset=utf-8', 'content-language': locale } });
  }
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
  // Personal pages need a logged-in user: anyone else goes to the login page, which brings them back.
  if (!ctx.isPrerendered && !ctx.locals.session?.user) {
    const { locale, path } = splitLocale(ctx.url.pathname);
    if (isProtectedPath(path)) return ctx.redirect(loginUrl(locale, ctx.url.pathname + ctx.url.search), ctx.request.method === 'GET' ? 302 : 303);
  }
  // English pages reach this middleware twice: as /en/… (which finds no page file) and again rewritten
  // to the Spanish route (i18n fallback). The cache is always keyed by the address the browser asked
  // for (`originPathname`), so one language's page is never served for the other.
  const cacheable = !ctx.isPrerendered && cacheableRequest(ctx.request.method, ctx.url, ctx.cookies.has(SESSION_COOKIE));
  const key = pageKey(new URL(ctx.originPathname + ctx.url.search, ctx.url));
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
  } else if (response.status !== 200 && response.statusText === 'OK') {
    // A page that set `Astro.response.status` keeps the default reason phrase ("403 OK"): drop it so
    // the server sends the status's own ("403 Forbidden").
    response = new Response(response.body, { status: response.status, headers: response.headers });
  }
  // A page that declared itself the same for every visitor (`locals.sharedPage`) is kept.
  const html = response.headers.get('content-type')?.startsWith('text/html');
  const setsCookies = response.headers.has('set-cookie') || [...ctx.cookies.headers()].length > 0;
  if (cacheable && ctx.locals.sharedPage && html && (response.status === 200 || response.status === 404) && !setsCookies) {
    const body = await response.text();
    const headers = [...response.headers.entries()];
    pages.set(key, version, { status: response.status, headers, body });
    return new Response(ctx.request.method === 'HEAD' ? null : body, { status: response.status, headers: [...headers, ['x-page-cache', 'miss']] });
  }
  return response;
});
