/** Validators for pages kept in the shared page cache. */
import { createHash } from 'node:crypto';
import { SHARED_CACHE_CONTROL, type CachedPage } from './page-cache';

/**
 * A weak ETag of a page's body, computed once when the page is stored. Weak because the same page is
 * sent plain, brotli or gzip: the representations differ in bytes, not in meaning.
 */
export function pageEtag(body: string): string {
  return `W/"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}

/**
 * A rendered page as the shared page cache keeps it: with its ETag (computed here, once) and the
 * `Cache-Control` that lets a CDN keep it briefly, in place of whatever the page said.
 */
export function keptPage(status: number, headers: [string, string][], body: string): CachedPage {
  const etag = pageEtag(body);
  return {
    status,
    headers: [...headers.filter(([k]) => !/^(cache-control|etag)$/i.test(k)), ['cache-control', SHARED_CACHE_CONTROL], ['etag', etag]],
    body,
    etag,
  };
}
