/** Step: a change (POST and the like) sent from another site is refused with a localized 403 (CSRF). */
import type { MiddlewareHandler } from 'astro';
import { requestOrigin, type HeaderBag } from '~/lib/http/origin';
import { crossSiteMutation } from '~/lib/http/csrf';
import { requestLocale } from '~/lib/http/locale';
import { splitLocale } from '~/lib/paths';
import { DEFAULT_LOCALE, messages } from '~/i18n';

function headerBag(headers: Headers): HeaderBag {
  return Object.fromEntries(headers.entries());
}

export const sameSite: MiddlewareHandler = (ctx, next) => {
  // The production server says which origin the request was addressed to; `astro dev` reads the headers.
  const expected = ctx.locals.requestOrigin !== undefined ? ctx.locals.requestOrigin : requestOrigin(headerBag(ctx.request.headers), ctx.url.protocol === 'https:', false);
  if (crossSiteMutation(ctx.request.method, ctx.request.headers, expected)) {
    const path = splitLocale(ctx.url.pathname);
    const locale = path.locale !== DEFAULT_LOCALE ? path.locale : requestLocale(ctx.url, ctx.request.headers);
    return new Response(messages(locale).crossSite, { status: 403, headers: { 'content-type': 'text/plain; charset=utf-8', 'content-language': locale } });
  }
  return next();
};
