/** Course suggestions for the header's autocomplete: GET /api/search?q=…&lang=es|en&limit=1–20. */
import type { APIRoute } from 'astro';
import { messages } from '~/i18n';
import { parseSearchParams, responseLocale, searchCourses } from '~/lib/search';

export const prerender = false;

export const GET: APIRoute = async ({ url, locals }) => {
  const parsed = parseSearchParams(url.searchParams);
  if (!parsed.ok) {
    const t = messages(responseLocale(url.searchParams.get('lang')));
    return json({ error: t.search.errors[parsed.issue] }, 400, 'no-store');
  }
  const { q, lang, limit } = parsed.value;
  const { store } = locals.runtime;
  const { db } = store;
  const identity = locals.identity;
  const viewer = await store.viewer(identity);
  const results = await searchCourses(db, { q, locale: lang, viewer, limit });
  // Someone signed in may see courses they bought: never keep their answer in a shared cache.
  return json({ results }, 200, identity ? 'no-store' : 'public, max-age=60');
};

function json(body: unknown, status: number, cacheControl: string): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': cacheControl, Vary: 'Cookie' },
  });
}
