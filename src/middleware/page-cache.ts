/**
 * Step: a page kept for this reader answers without rendering; a page rendered now is kept when it
 * declared it may be (`locals.sharedPage`, `locals.ownPage`). English pages reach the middleware twice:
 * as /en/… and again rewritten to the Spanish route; the cache is always keyed by the address the
 * browser asked for (`originPathname`), under the public origin the page's absolute URLs are built
 * with, so one language's page is never served for the other and no Host header can choose what is kept.
 */
import type { MiddlewareHandler } from 'astro';
import { answer, answerResponse, cacheableRequest, keep, lookUp } from '~/lib/http/page-cache';
import { passOf } from './pass';

export const pageCache: MiddlewareHandler = async (ctx, next) => {
  if (!cacheableRequest(ctx.request.method, ctx.url) || passOf(ctx).droppedCookie) return next();
  const { runtime } = ctx.locals;
  const lookup = await lookUp(runtime, { url: new URL(ctx.originPathname + ctx.url.search, runtime.siteOrigin(ctx.url)), session: ctx.locals.session, cookies: ctx.request.headers.get('cookie') });
  const request = { method: ctx.request.method, ifNoneMatch: ctx.request.headers.get('if-none-match'), personal: lookup.personal };
  ctx.locals.pageCacheResult?.(lookup.hit ? 'hit' : 'miss');
  if (lookup.hit) return answerResponse(answer(request, lookup.hit, 'hit'));
  const response = await next();
  const setsCookies = response.headers.has('set-cookie') || [...ctx.cookies.headers()].length > 0;
  const kept = await keep(runtime, lookup, request, response, { sharedPage: ctx.locals.sharedPage, ownPage: ctx.locals.ownPage, businessPage: ctx.locals.businessPage, pageVaries: ctx.locals.pageVaries, setsCookies });
  return kept ? answerResponse(kept) : response;
};
