/** robots.txt with the sitemap's absolute address. */
import type { APIRoute } from 'astro';
import { robotsTxt } from '~/lib/seo/sitemap';

export const prerender = false;

export const GET: APIRoute = ({ site, url }) =>
  new Response(robotsTxt((site ?? url).origin), { headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=3600' } });
