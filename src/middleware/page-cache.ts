/**
 * Step: a page kept for this reader answers without rendering; a page rendered now is kept when it
 * declared it may be (`locals.sharedPage`, `locals.ownPage`). English pages reach the middleware twice:
 * as /en/… and again rewritten to the Spanish route; the cache is always keyed by the address the
 * browser asked for (`originPathname`), under the public origin the page's absolute URLs are built
 * with, so one language's page is never served for the other and no Host header can choose what is kept.
 * A person's request for a page of theirs already being rendered waits for that render and looks again
 * (many requests at once render a heavy page once, not once each); one that still finds nothing renders.
 */
import type { MiddlewareHandler } from 'astro';
import { answer, answerResponse, cacheableRequest, keep, lookUp } from '~/lib/http/page-cache';
import { passOf } from './pass';

export const pageCache: MiddlewareHandler = async (ctx, next) => {
  if (!cacheableRequest(ctx.request.method, ctx.url) || passOf(ctx).droppedCookie) return next();
  const { runtime } = ctx.locals;
  const find = () => lookUp(runtime, { url: new URL(ctx.originPathname + ctx.url.search, runtime.siteOrigin(ctx.url)), session: ctx.locals.session, cookies: ctx.request.headers.get('cookie') });
  let lookup = await find();
  // The same person's page being rendered now: wait for it, then look again (it is checked as any kept page).
  const rendering = lookup.hit || !lookup.owner ? undefined : runtime.ownRenders.get(lookup.ownKey);
  if (rendering) {
    await rendering;
    lookup = await find();
  }
  const request = { method: ctx.request.method, ifNoneMatch: ctx.request.headers.get('if-none-match'), personal: lookup.personal };
  ctx.locals.pageCacheResult?.(lookup.hit ? 'hit' : 'miss');
  if (lookup.hit) return answerResponse(answer(request, lookup.hit, 'hit'));
  const own = lookup.owner && !runtime.ownRenders.has(lookup.ownKey) ? lookup.ownKey : null;
  let rendered = () => {};
  if (own !== null) runtime.ownRenders.set(own, new Promise<void>((resolve) => (rendered = resolve)));
  try {
    const response = await next();
    const setsCookies = response.headers.has('set-cookie') || [...ctx.cookies.headers()].length > 0;
    const kept = await keep(runtime, lookup, request, response, { sharedPage: ctx.locals.sharedPage, ownPage: ctx.locals.ownPage, businessPage: ctx.locals.businessPage, pageVaries: ctx.locals.pageVaries, setsCookies });
    return kept ? answerResponse(kept) : response;
  } finally {
    if (own !== null) {
      runtime.ownRenders.delete(own);
      rendered();
    }
  }
};
