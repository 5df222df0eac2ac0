/** Step: personal pages need a logged-in user; anyone else goes to the login page, which brings them back. */
import type { MiddlewareHandler } from 'astro';
import { isProtectedPath, loginUrl } from '~/lib/identity/account';
import { splitLocale } from '~/lib/paths';

export const protectedPaths: MiddlewareHandler = (ctx, next) => {
  if (!ctx.locals.session?.user) {
    const { locale, path } = splitLocale(ctx.url.pathname);
    if (isProtectedPath(path)) return ctx.redirect(loginUrl(locale, ctx.url.pathname + ctx.url.search), ctx.request.method === 'GET' ? 302 : 303);
  }
  return next();
};
