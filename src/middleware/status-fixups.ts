/** Step: the status and headers of a rendered answer, settled before it is kept or sent. */
import type { MiddlewareHandler } from 'astro';
import { isPrivateCacheControl } from '~/lib/http/page-cache';
import { privately, varyOnCookie, withHeader } from '~/lib/http/response-headers';

export const statusFixups: MiddlewareHandler = async (ctx, next) => {
  let response = await next();
  // English pages are the Spanish page files rendered through i18n `fallbackType: 'rewrite'`.
  // Astro marks such a rewrite 302 without a Location header; it is a normal page, so answer 200.
  if (response.status === 302 && !response.headers.has('location')) {
    response = new Response(response.body, { status: 200, headers: response.headers });
  } else if (response.status === 500 && response.headers.has('retry-after')) {
    // The server-error page found the database out of reach (it says "busy" and sets Retry-After) but
    // cannot choose its own status (Astro gives the error page 500): nothing was wrong with the request.
    response = new Response(response.body, { status: 503, headers: response.headers });
  } else if (response.status !== 200 && response.statusText === 'OK') {
    // A page that set `Astro.response.status` keeps the default reason phrase ("403 OK"): drop it so
    // the server sends the status's own ("403 Forbidden").
    response = new Response(response.body, { status: response.status, headers: response.headers });
  }
  // A form refused with 429 (no JavaScript) gets its page with the Retry-After a script's call gets.
  if (response.status === 429 && ctx.locals.retryAfterSeconds !== undefined && !response.headers.has('retry-after')) response = withHeader(response, 'retry-after', String(ctx.locals.retryAfterSeconds));
  response = varyOnCookie(response);
  // Anything answered to a request with cookies (a session, a cart, a referral…) may have been made
  // from them: it stays out of shared caches (a page kept for its whole audience is answered with the
  // kept page's own headers: the page-cache step).
  if ((ctx.request.headers.has('cookie') || ctx.locals.session) && !isPrivateCacheControl(response.headers.get('cache-control'))) {
    return privately(response);
  }
  return response;
};
