/** robots.txt with the sitemap's absolute address (on the one public origin). */
import type { APIRoute } from 'astro';
import { robotsTxt } from '~/lib/seo/sitemap';

export const prerender = false;

export const GET: APIRoute = ({ url, locals }) =>
  new Response(robotsTxt(locals.runtime.siteOrigin(url)), { headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=3600' } });
