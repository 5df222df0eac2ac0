/**
 * The page cache's layout: which requests it answers, and under which key each kind of kept page
 * lives. A page is kept per public address and audience (visitors, or everyone logged in with one
 * access context); a logged-in reader's own parts per language and session; a page kept for one
 * person under the shared key, its owner and their parts. Pure.
 */
import { cookieValue } from '../cookies';
import type { PageOwner } from './store';

/** The cookie that carries a session. */
export const SESSION_COOKIE = 'session';

/** True when a Cookie header carries a session cookie. */
export function hasSessionCookie(cookieHeader: string | undefined): boolean {
  return cookieHeader !== undefined && new RegExp(`(?:^|;\\s*)${SESSION_COOKIE}=`).test(cookieHeader);
}

/** Only plain reads with no action posted may be served from the cache (a session's, by its audience). */
export function cacheableRequest(method: string, url: URL): boolean {
  return (method === 'GET' || method === 'HEAD') && !url.searchParams.has('_action');
}

/**
 * The key of a page address: origin, path (without a trailing slash) and query with parameters in a
 * stable order. Callers build `url` on the public origin (`publicOrigin`), never on the Host header as
 * sent: a page's absolute URLs are built with that origin, so a page is only served where it was made.
 */
export function pageKey(url: URL): string {
  const params = [...url.searchParams.entries()].sort(([a], [b]) => a.localeCompare(b));
  const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
  return `${url.origin}${path}?${new URLSearchParams(params).toString()}`;
}

/** The key of a page at its public address `url` for `audience` (`visitor`, or an access context). */
export function keptPageKey(url: URL, audience: string): string {
  const key = pageKey(url);
  return audience === 'visitor' ? key : `${key}#${audience}`;
}

/**
 * The key of a page that also depends on some cookies (`locals.pageVaries`, the cart for /purchase):
 * its audience key and the value of each cookie as the request sent it (absent and empty are alike).
 */
export function variedPageKey(key: string, cookieNames: readonly string[], cookieHeader: string | null | undefined): string {
  const values = cookieNames.map((name) => `${name}=${encodeURIComponent(cookieValue(cookieHeader ?? undefined, name) ?? '')}`);
  return `${key}|${values.join('&')}`;
}

/** The key of a person's parts: what they depend on, the page's language and what the session says of its holder. */
export function personalKey(locale: string, summary: unknown): string {
  return `${locale}|${JSON.stringify(summary)}`;
}

/** The key of a page kept for one person: their address, audience and own parts (`personalKey`). */
export function ownPageKey(sharedKey: string, owner: PageOwner, partsKey: string): string {
  return `${sharedKey}#own:${owner.userId ?? '-'}:${owner.contactId ?? '-'}:${partsKey}`;
}

/** `Cache-Control` of pages kept for every visitor: a CDN may keep them 30 s and serve them stale 30 s more. */
export const SHARED_CACHE_CONTROL = 'public, max-age=0, s-maxage=30, stale-while-revalidate=30';

/** `Cache-Control` of anything answered to a session or rendered for one person. */
export const PRIVATE_CACHE_CONTROL = 'private, no-store';

/** True when a `Cache-Control` value already keeps the answer out of shared caches. */
export function isPrivateCacheControl(value: string | null | undefined): boolean {
  return value !== null && value !== undefined && /(^|[\s,])(private|no-store)([\s,=]|$)/i.test(value);
}
