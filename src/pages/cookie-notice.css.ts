/**
 * The stylesheet a browser without JavaScript loads (inside `<noscript>`) to hide the cookie notice
 * once it closed it: the rule when its `notice=seen` cookie is there, nothing otherwise. The page's
 * HTML stays the same for everyone; only this small answer depends on the browser's cookie, so it is
 * never kept by shared caches and revalidated by the browser on every page.
 */
import type { APIRoute } from 'astro';
import { NOTICE_HIDDEN_CSS, noticeSeen } from '~/lib/http/site-cookies';

export const prerender = false;

export const GET: APIRoute = ({ request }) =>
  new Response(noticeSeen(request.headers.get('cookie')) ? NOTICE_HIDDEN_CSS : '', {
    headers: { 'Content-Type': 'text/css; charset=utf-8', 'Cache-Control': 'private, no-cache', Vary: 'Cookie', 'X-Content-Type-Options': 'nosniff' },
  });
