/** Step: every request has an id (the production server gives one; `astro dev` and the build do not) and the runtime. */
import type { MiddlewareHandler } from 'astro';
import { newRequestId } from '~/lib/http/errors.server';

export const requestId: MiddlewareHandler = (ctx, next) => {
  ctx.locals.requestId ??= newRequestId();
  // The server (server/app.ts, or `astro dev`'s integration) hands every request the process's runtime.
  if (!ctx.locals.runtime) throw new Error('locals.runtime is missing: serve the site with `npm start` or `npm run dev`');
  return next();
};
