/** sitemap.xml: every public page and every course a visitor may see, in both languages, on the one public origin. */
import type { APIRoute } from 'astro';
import { getEventSlugs, getPostSlugs } from '~/lib/content';
import { catalogContext } from '~/lib/app.server';
import { listCards } from '~/lib/catalog';
import { paths, PUBLIC_PAGES } from '~/lib/paths';
import { sitemapXml } from '~/lib/seo/sitemap';

export const prerender = false;

export const GET: APIRoute = async ({ url, locals }) => {
  const { catalog, viewer } = await catalogContext({ runtime: locals.runtime, identity: null });
  const courses = listCards(catalog, viewer, 'es').map((c) => paths.course(c.id));
  const posts = (await getPostSlugs()).map((s) => paths.blogPost(s));
  const events = (await getEventSlugs()).map((s) => paths.eventDetails(s));
  const body = sitemapXml(locals.runtime.siteOrigin(url), [...PUBLIC_PAGES, ...courses, ...posts, ...events]);
  return new Response(body, { headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=3600' } });
};
