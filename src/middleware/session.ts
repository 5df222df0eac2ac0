/** Step: who the request belongs to, from the session cookie (`locals.session`, `locals.identity`); a forged, expired or revoked cookie is dropped. */
import type { MiddlewareHandler } from 'astro';
import { SESSION_COOKIE } from '~/lib/http/page-cache';
import { passOf } from './pass';

export const session: MiddlewareHandler = async (ctx, next) => {
  ctx.locals.identity = null;
  ctx.locals.session = null;
  const token = ctx.cookies.get(SESSION_COOKIE)?.value;
  if (token) {
    // The server-error page is shown even when the session cannot be checked (the database out of
    // reach may be why the request failed): without the person, and without dropping their cookie.
    const found = await ctx.locals.runtime.sessions.read(token).catch((err: unknown) => {
      if (ctx.routePattern === '/500') return undefined;
      throw err;
    });
    if (found) {
      ctx.locals.session = found;
      ctx.locals.identity = found.identity;
    } else if (found === null) {
      // A forged, expired or revoked cookie: drop it so the browser stops sending it.
      ctx.cookies.delete(SESSION_COOKIE, { path: '/' });
      passOf(ctx).droppedCookie = true;
    }
  }
  return next();
};
