/**
 * Query rules the server and the browser share: normalisation, the 3-character minimum, highlighting,
 * the live-region text. Kept apart from the zod schema (`search.ts`) so the header island does not
 * ship a validation library to every page.
 */
import { format } from '~/i18n/format';
import type { Locale } from '~/i18n/locales';
import { plural, type Plural } from '~/i18n/plural';

/** Fewest characters a course search query needs before anything is searched. */
export const MIN_QUERY_LENGTH = 3;
/** Characters of a query that are kept; the rest is ignored. */
export const MAX_QUERY_LENGTH = 100;
/** Longest raw `q` the endpoint accepts (longer input is refused, not silently truncated). */
export const MAX_RAW_QUERY_LENGTH = 1000;
/** Suggestions returned when the caller does not ask for a number. */
export const DEFAULT_LIMIT = 8;
/** Most suggestions one request to the endpoint may ask for. */
export const MAX_LIMIT = 20;
/** Most results one search returns when called on the server (the full results page). */
export const MAX_RESULTS = 100;
/** Milliseconds the autocomplete waits after the last keystroke before asking the server. */
export const DEBOUNCE_MS = 200;

const MARKS = /\p{M}+/gu;
/** Control characters (C0, DEL, C1: NUL among them, which PostgreSQL cannot compare) and unpaired surrogates. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/gu;

/**
 * A query as typed, made safe to search and to show: control characters count as spaces, inner
 * whitespace is collapsed to one space, and the ends are trimmed ('abc\0def' → 'abc def').
 */
export function cleanQuery(raw: string): string {
  return raw.replace(CONTROLS, ' ').replace(/\s+/gu, ' ').trim();
}

/**
 * The form of a query the database compares: cleaned (`cleanQuery`), at most 100 characters, lower
 * case, accents removed (NFD, then combining marks dropped: 'Visión' → 'vision').
 */
export function normalizeQuery(raw: string): string {
  const collapsed = cleanQuery(raw).slice(0, MAX_QUERY_LENGTH);
  return fold(collapsed).trim();
}

/** Lower case without accents, character for character where possible ('Ñandú' → 'nandu'). */
export function fold(text: string): string {
  return text.normalize('NFD').replace(MARKS, '').toLowerCase();
}

/** True when the query, once normalised, has at least 3 characters. */
export function isSearchable(raw: string): boolean {
  return normalizeQuery(raw).length >= MIN_QUERY_LENGTH;
}

/**
 * Word similarity (0–1) a course name needs to match the query. From 5 characters on, one typo stays
 * above 0.5 ('vison' → 'Vision' 0.5, 'marketng' → 'Marketing' 0.67). A query of 3–4 characters has too
 * few trigrams for typos: it must be the start of a word (0.75), else 'red' would find 'Real'.
 */
export function nameThreshold(query: string): number {
  return query.length <= 4 ? 0.75 : 0.5;
}

/** A LIKE pattern matching `text` anywhere, with LIKE's wildcards (`%`, `_`) and escape (`\`) made literal. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** One suggestion as the endpoint sends it and the autocomplete shows it. */
export interface SearchResult {
  id: number;
  name: string;
  categoryName: string;
  thumbnail: string;
  /** Relevance, higher first (roughly 0–2). */
  score: number;
}

/** A piece of a highlighted text: `match` pieces are the parts the query found. */
export interface HighlightPart {
  text: string;
  match: boolean;
}

/**
 * Splits `text` into plain and matching parts for every word of the query (accent- and
 * case-insensitive: 'vision' marks 'Visión'). Words under 2 characters are ignored.
 */
export function highlight(text: string, rawQuery: string): HighlightPart[] {
  const words = [...new Set(normalizeQuery(rawQuery).split(' ').filter((w) => w.length >= 2))];
  if (words.length === 0 || text === '') return text === '' ? [] : [{ text, match: false }];
  // Fold each character on its own so positions in the folded text map back to the original.
  const chars = [...text];
  let folded = '';
  const origin: number[] = []; // origin[i] = index in `chars` of folded character i
  chars.forEach((ch, i) => {
    for (const f of fold(ch)) {
      folded += f;
      origin.push(i);
    }
  });
  const marked = new Array<boolean>(chars.length).fill(false);
  for (const w of words) {
    for (let at = folded.indexOf(w); at !== -1; at = folded.indexOf(w, at + 1)) {
      for (let k = at; k < at + w.length; k++) marked[origin[k]!] = true;
    }
  }
  const parts: HighlightPart[] = [];
  chars.forEach((ch, i) => {
    const last = parts[parts.length - 1];
    if (last && last.match === marked[i]) last.text += ch;
    else parts.push({ text: ch, match: marked[i]! });
  });
  return parts;
}

/** Every text the header's autocomplete shows, in one language (passed to the island as a prop). */
export interface SearchLabels {
  label: string;
  placeholder: string;
  submit: string;
  suggestions: string;
  searching: string;
  results: Plural;
  noResults: string;
  minChars: string;
  unavailable: string;
}

/** What the polite live region says once suggestions arrive ('3 cursos encontrados…', 'Ningún curso…'). */
export function resultsAnnouncement(locale: Locale, labels: SearchLabels, count: number, rawQuery: string): string {
  if (count === 0) return format(labels.noResults, { q: rawQuery.trim() });
  return plural(locale, labels.results, count);
}
