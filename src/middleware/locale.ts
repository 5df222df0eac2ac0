/** Step: the language of the page asked for, and its messages, into `locals.locale` and `locals.t`. */
import type { APIContext, MiddlewareHandler } from 'astro';
import { requestLocale } from '~/lib/http/locale';
import { splitLocale } from '~/lib/paths';
import { DEFAULT_LOCALE, messages, type Locale } from '~/i18n';

/**
 * The language of the address the browser asked for (`originPathname`: an English page is rendered
 * from the Spanish page file, rewritten, and still speaks English).
 */
export const locale: MiddlewareHandler = (ctx, next) => {
  ctx.locals.locale = splitLocale(ctx.originPathname).locale;
  ctx.locals.t = messages(ctx.locals.locale);
  return next();
};

/** The language of an answer that has no page: the address's, else the page the request came from, else the browser's. */
export function answerLanguage(ctx: APIContext): Locale {
  const own = splitLocale(ctx.url.pathname).locale;
  if (own !== DEFAULT_LOCALE) return own;
  const referer = ctx.request.headers.get('referer');
  if (referer && URL.canParse(referer) && new URL(referer).origin === ctx.url.origin) {
    const from = splitLocale(new URL(referer).pathname).locale;
    if (from !== DEFAULT_LOCALE) return from;
  }
  return requestLocale(ctx.url, ctx.request.headers);
}
