/** Unexpected errors to the log, each once (the error page renders through the middleware again). */
import type { APIContext } from 'astro';
import { logServerError } from '~/lib/http/errors.server';

const logged = new WeakSet<object>();

/** Logs `error` with the request's id, method and path, unless it was logged already. */
export function logOnce(ctx: APIContext, error: unknown, where: string): void {
  if (typeof error === 'object' && error !== null) {
    if (logged.has(error)) return;
    logged.add(error);
  }
  (ctx.locals.logError ?? logServerError)({ requestId: ctx.locals.requestId ?? '-', method: ctx.request.method, path: ctx.url.pathname, error, where });
}
