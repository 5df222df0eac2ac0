/**
 * Course search rules that need no I/O: the query rules of `./query` (normalisation, 3-character
 * minimum, highlighting), plus what the search endpoint accepts and the autocomplete's texts.
 */
import { z } from '../zod';
import { LOCALES, type Locale, type Messages } from '~/i18n';
import { DEFAULT_LIMIT, MAX_LIMIT, MAX_RAW_QUERY_LENGTH, type SearchLabels } from './query';

export * from './query';

/** Why a search request was refused: the field at fault. */
export type SearchInputIssue = 'q' | 'lang' | 'limit';

/** The search endpoint's query string: `q`, `lang` (es | en, default es) and an optional `limit` 1–20. */
export const searchQuerySchema = z.object({
  q: z.string().max(MAX_RAW_QUERY_LENGTH).default(''),
  lang: z.enum(LOCALES).default('es'),
  limit: z.coerce.number().int().min(1).max(MAX_LIMIT).default(DEFAULT_LIMIT),
});

/** A valid search request. */
export type SearchQuery = z.infer<typeof searchQuerySchema>;

/**
 * Reads the endpoint's query string. Only the first value of each parameter counts; an empty `limit`
 * or `lang` counts as absent. On failure, says which field was wrong (the first one).
 */
export function parseSearchParams(params: URLSearchParams): { ok: true; value: SearchQuery } | { ok: false; issue: SearchInputIssue } {
  const read = (name: string) => {
    const v = params.get(name);
    return v === null || (name !== 'q' && v === '') ? undefined : v;
  };
  const result = searchQuerySchema.safeParse({ q: read('q'), lang: read('lang'), limit: read('limit') });
  if (result.success) return { ok: true, value: result.data };
  const field = result.error.issues[0]?.path[0];
  return { ok: false, issue: field === 'lang' || field === 'limit' ? field : 'q' };
}

/** The locale a request is answered in, even when its `lang` is not valid. */
export function responseLocale(lang: string | null): Locale {
  return lang === 'en' ? 'en' : 'es';
}

/** The autocomplete's texts in the catalogue's language (the search box itself keeps the header's `nav` texts). */
export function searchLabels(t: Messages): SearchLabels {
  const s = t.search;
  return {
    label: t.nav.searchLabel,
    placeholder: t.nav.searchPlaceholder,
    submit: t.nav.searchButton,
    suggestions: s.suggestions,
    searching: s.searching,
    results: s.results,
    noResults: s.noResults,
    minChars: s.minChars,
    unavailable: s.unavailable,
  };
}
