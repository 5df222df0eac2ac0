/**
 * A kept page as the answer to one request: 304 when the reader's copy is current (`If-None-Match`
 * names the page's ETag), no body for HEAD, `x-page-cache` saying whether the cache answered (`hit`) or
 * the page was just rendered and kept (`miss`), and `Cache-Control: private, no-store` for a logged-in
 * reader. The server sends it before Astro runs; the middleware as a `Response` (`answerResponse`). Pure.
 */
import { PRIVATE_CACHE_CONTROL } from './keys';
import type { CachedPage } from './store';

/** A kept page and its body for this reader (the shared body, or its template filled with their parts). */
export interface KeptHit {
  page: CachedPage;
  body: string;
}

/** What to answer: status, headers (the page's own, then `x-page-cache`) and body (`null`: none). */
export interface KeptAnswer {
  status: number;
  headers: [string, string][];
  body: string | null;
  /** The page answered (its compressed copies are kept on it: `encodedBody`). */
  page: CachedPage;
}

/** True when an `If-None-Match` header names `etag` (weak comparison, `*` matches anything). */
export function etagMatches(ifNoneMatch: string | null | undefined, etag: string | undefined): boolean {
  if (!ifNoneMatch || !etag) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  const wanted = opaque(etag);
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === wanted);
}

/** The headers a 304 keeps: none that describe a body. */
export function notModifiedHeaders(headers: [string, string][]): [string, string][] {
  return headers.filter(([k]) => !/^(content-length|content-type|content-encoding|transfer-encoding)$/i.test(k));
}

/** The request as an answer reads it. */
export interface AnswerRequest {
  method: string;
  ifNoneMatch: string | null | undefined;
  /** A logged-in reader (the answer stays out of shared caches). */
  personal: boolean;
}

/** The answer to `request` with the kept page `hit`: 304 when its ETag matches, no body for HEAD. */
export function answer(request: AnswerRequest, hit: KeptHit, source: 'hit' | 'miss'): KeptAnswer {
  const own = request.personal ? hit.page.headers.filter(([k]) => k.toLowerCase() !== 'cache-control').concat([['cache-control', PRIVATE_CACHE_CONTROL]]) : hit.page.headers;
  if (etagMatches(request.ifNoneMatch, hit.page.etag)) {
    return { status: 304, headers: [...notModifiedHeaders(own), ['x-page-cache', source]], body: null, page: hit.page };
  }
  return { status: hit.page.status, headers: [...own, ['x-page-cache', source]], body: request.method === 'HEAD' ? null : hit.body, page: hit.page };
}

/** An answer as a `Response` (in the middleware). */
export function answerResponse(kept: KeptAnswer): Response {
  return new Response(kept.body, { status: kept.status, headers: kept.headers });
}
