/** Step: every answer says it varies with the request's cookies (`Vary: Cookie`), so no shared cache mixes a visitor's copy with a cookie holder's. */
import type { MiddlewareHandler } from 'astro';
import { varyOnCookie } from '~/lib/http/response-headers';

export const varyOnCookies: MiddlewareHandler = async (_ctx, next) => varyOnCookie(await next());
