/**
 * The browser's side of course search: the one request to the search endpoint, plus the pure
 * helpers the autocomplete needs. Islands import this module, never `./index` (server code) nor
 * `./search` (the endpoint's zod schema).
 */
import { paths } from '~/lib/paths';
import type { Locale } from '~/i18n';
import type { SearchResult } from './query';

export {
  DEBOUNCE_MS,
  MAX_QUERY_LENGTH,
  MIN_QUERY_LENGTH,
  highlight,
  isSearchable,
  normalizeQuery,
  resultsAnnouncement,
  type HighlightPart,
  type SearchLabels,
  type SearchResult,
} from './query';

/** Why suggestions could not be fetched (an aborted request is not a failure: it throws AbortError). */
export class SearchUnavailableError extends Error {
  constructor(readonly status: number) {
    super(`Search answered ${status}`);
    this.name = 'SearchUnavailableError';
  }
}

/**
 * Asks the server for suggestions. Pass the signal of an AbortController to cancel a stale request:
 * the promise then rejects with a DOMException named AbortError.
 */
export async function fetchSuggestions(q: string, lang: Locale, signal?: AbortSignal): Promise<SearchResult[]> {
  const url = `${paths.searchApi}?${new URLSearchParams({ q, lang }).toString()}`;
  const response = await fetch(url, { ...(signal ? { signal } : {}), headers: { Accept: 'application/json' }, credentials: 'same-origin' });
  if (!response.ok) throw new SearchUnavailableError(response.status);
  const body = (await response.json()) as { results?: SearchResult[] };
  return Array.isArray(body.results) ? body.results : [];
}
