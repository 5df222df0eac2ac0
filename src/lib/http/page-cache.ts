/**
 * A small in-memory cache of whole pages that are the same for everyone in one audience: visitors, or
 * logged-in people who share an access context (`page-cache.server.ts`). One embedded database
 * serialises every query, so rendering for each request would cap throughput; the catalogue snapshot
 * already avoids the queries, and this avoids re-rendering. Entries are keyed by the catalogue's
 * version, so a catalogue write shows at once.
 */
import { BoundedCache } from '../bounded-cache';
import type { PersonalTemplate } from './personal';

/** A cached page. */
export interface CachedPage {
  status: number;
  headers: [string, string][];
  body: string;
  /**
   * A page kept for a logged-in audience: the body without its personal parts, filled for each person
   * (`fillPersonal`). Such a page has no shared `body`, ETag or compressed copies.
   */
  template?: PersonalTemplate;
  /** The body's (weak) ETag, computed once when stored; also among `headers`. */
  etag?: string;
  /** The body compressed once per coding, on first demand (filled by the server). */
  compressed?: Partial<Record<'br' | 'gzip', Promise<Buffer>>>;
  /** A page kept for one person (`ownPageKey`): who, and `PersonStamps.now()` when its rendering began. */
  owner?: PageOwner;
  stamp?: number;
}

/** A bounded least-recently-used map of pages for one catalogue version. */
export class PageCache {
  private readonly entries: BoundedCache<string, CachedPage>;
  private version = -1;

  constructor(capacity = 500) {
    this.entries = new BoundedCache(capacity);
  }

  /** The page stored for `key` at catalogue `version`, if any. */
  get(key: string, version: number): CachedPage | undefined {
    if (version !== this.version) return undefined;
    return this.entries.get(key);
  }

  /** Stores a page rendered at catalogue `version` (older versions are dropped). */
  set(key: string, version: number, page: CachedPage): void {
    if (version !== this.version) {
      this.entries.clear();
      this.version = version;
    }
    this.entries.set(key, page);
  }

  /** How many pages are stored. */
  get size(): number {
    return this.entries.size;
  }
}

/** The cookie that carries a session: requests with one are never served from the cache. */
export const SESSION_COOKIE = 'session';

/** True when a Cookie header carries a session cookie. */
export function hasSessionCookie(cookieHeader: string | undefined): boolean {
  return cookieHeader !== undefined && new RegExp(`(?:^|;\\s*)${SESSION_COOKIE}=`).test(cookieHeader);
}

/** Only plain reads with no action posted may be served from the cache (a session's, by its audience: `page-cache.server.ts`). */
export function cacheableRequest(method: string, url: URL): boolean {
  return (method === 'GET' || method === 'HEAD') && !url.searchParams.has('_action');
}

/**
 * The cache key of a request: origin, path (without a trailing slash) and query with parameters in a
 * stable order. Callers build `url` on the public origin (`publicOrigin`), never on the Host header as
 * sent: a page's absolute URLs are built with that origin, so a page is only served where it was made.
 */
export function pageKey(url: URL): string {
  const params = [...url.searchParams.entries()].sort(([a], [b]) => a.localeCompare(b));
  const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
  return `${url.origin}${path}?${new URLSearchParams(params).toString()}`;
}

/** `Cache-Control` of pages kept for every visitor: a CDN may keep them 30 s and serve them stale 30 s more. */
export const SHARED_CACHE_CONTROL = 'public, max-age=0, s-maxage=30, stale-while-revalidate=30';

/** `Cache-Control` of anything answered to a session or rendered for one person. */
export const PRIVATE_CACHE_CONTROL = 'private, no-store';

/** True when a `Cache-Control` value already keeps the answer out of shared caches. */
export function isPrivateCacheControl(value: string | null | undefined): boolean {
  return value !== null && value !== undefined && /(^|[\s,])(private|no-store)([\s,=]|$)/i.test(value);
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

/** Who an own page belongs to (a user, their contact, or an IBO session's prospect). */
export interface PageOwner {
  userId: number | null;
  contactId: number | null;
}

/**
 * When each person's data last changed, on a clock of this process: a page kept for one person
 * (`locals.ownPage`) is answered again only while nothing of theirs changed after it began rendering.
 * Changes come from this process (progress just committed) and from every process through the bus
 * (progress, completions, purchases). Bounded: a forgotten person counts as changed at the newest
 * forgotten time, so forgetting can only make a page older, never fresher.
 */
export class PersonStamps {
  #clock = 0;
  #floor = 0;
  /** A forgotten person counts as changed at the newest forgotten time. */
  readonly #changed: BoundedCache<string, number>;

  constructor(capacity = 50_000) {
    this.#changed = new BoundedCache(capacity, undefined, { onEvict: (_key, time) => (this.#floor = Math.max(this.#floor, time)) });
  }

  /** The time a render that starts now is stamped with. */
  now(): number {
    return this.#clock;
  }

  /** Something of this person changed (`null`: of everyone, as after a lost bus connection). */
  changed(person: Partial<PageOwner> | null): void {
    const at = ++this.#clock;
    if (person === null) {
      this.#changed.clear();
      this.#floor = at;
      return;
    }
    for (const key of ownerKeys(person)) this.#changed.set(key, at);
  }

  /** True when nothing of `owner` changed after `stamp` (a render's `now()`). */
  fresh(owner: PageOwner, stamp: number): boolean {
    if (this.#floor > stamp) return false;
    return ownerKeys(owner).every((key) => (this.#changed.peek(key) ?? 0) <= stamp);
  }
}

function ownerKeys(person: Partial<PageOwner>): string[] {
  const keys: string[] = [];
  if (typeof person.userId === 'number') keys.push(`u${person.userId}`);
  if (typeof person.contactId === 'number') keys.push(`c${person.contactId}`);
  return keys;
}

/** The cache key of a page kept for one person: their address, audience and own parts (`personalKey`). */
export function ownPageKey(sharedKey: string, owner: PageOwner, partsKey: string): string {
  return `${sharedKey}#own:${owner.userId ?? '-'}:${owner.contactId ?? '-'}:${partsKey}`;
}
