/** Request middleware for pages rendered on demand. */
import { defineMiddleware } from 'astro:middleware';

export const onRequest = defineMiddleware(async (ctx, next) => {
  ctx.locals.identity = null;
  const response = await next();
  // English pages are the Spanish page files rendered through i18n `fallbackType: 'rewrite'`.
  // Astro marks such a rewrite 302 without a Location header; it is a normal page, so answer 200.
  if (response.status === 302 && !response.headers.has('location')) {
    return new Response(response.body, { status: 200, headers: response.headers });
  }
  return response;
});
