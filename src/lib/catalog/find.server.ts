/** The catalogue page's search: the full results for a header search submitted with Enter. */
import type { Db } from '../db/client';
import type { Viewer } from '../access/access';
import type { Locale } from '~/i18n';
import { cleanQuery, isSearchable, MAX_LIMIT, MAX_QUERY_LENGTH, searchCourses } from '../search';
import type { CatalogSnapshot } from './catalog';

/** What the page shows for `?q=`: the query as typed (shortened), the matching course ids in rank order. */
export interface FoundCourses {
  /** The query to echo, or `null` when none was given. */
  q: string | null;
  /** Matching course ids, best first; `null` when there was no query (list everything). */
  ids: number[] | null;
  /** The query has fewer than 3 characters (the search minimum). */
  tooShort: boolean;
}

/** Runs the search behind `/courses?q=…`; an absent or blank query lists the whole catalogue. */
export async function findCourses(db: Db, catalog: CatalogSnapshot, viewer: Viewer, locale: Locale, raw: string | null): Promise<FoundCourses> {
  // Control characters (a NUL sent as %00) are spaces here: searched and shown without them.
  const q = cleanQuery(raw ?? '').slice(0, MAX_QUERY_LENGTH);
  if (q === '') return { q: null, ids: null, tooShort: false };
  if (!isSearchable(q)) return { q, ids: [], tooShort: true };
  const results = await searchCourses(db, { q, locale, viewer, limit: MAX_LIMIT });
  return { q, ids: results.map((r) => r.id).filter((id) => catalog.byId.has(id)), tooShort: false };
}
