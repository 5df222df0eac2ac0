/**
 * Which kept page answers a request: the page's public address plus the audience it was rendered for,
 * `visitor` or a logged-in person's access context (`accessKey`). The production server answers kept
 * pages before Astro runs (for visitors and sessions alike); the Astro middleware fills the cache.
 */
import { BoundedCache } from '../bounded-cache';
import { accessKey, type Viewer } from '../access/access';
import type { Identity } from '../access/access.server';
import type { Store } from '../access/store.server';
import { pageKey, PRIVATE_CACHE_CONTROL, type CachedPage, type PageCache, type PageOwner, type PersonStamps } from './page-cache';
import { fillPersonal, splitPersonal, type PersonalParts } from './personal';

const keys = new WeakMap<Viewer, string>();

/** The audience of an identity: `visitor`, or its viewer's access context (computed once per viewer). */
export async function audienceOf(store: Store, identity: Identity | null | undefined): Promise<string> {
  if (!identity || identity.kind === 'visitor') return 'visitor';
  const viewer = await store.viewer(identity);
  let key = keys.get(viewer);
  if (key === undefined) {
    key = accessKey(viewer);
    keys.set(viewer, key);
  }
  return key;
}

/** Whose own pages a logged-in identity reads (`null`: a visitor, who has none). */
export async function pageOwner(store: Store, identity: Identity | null | undefined): Promise<PageOwner | null> {
  if (!identity || identity.kind === 'visitor') return null;
  const viewer = await store.viewer(identity);
  if (viewer.userId === null && viewer.contactId === null) return null;
  return { userId: viewer.userId, contactId: viewer.contactId };
}

/** The page kept for `owner` under `key`, if nothing of theirs changed since it began rendering. */
export function freshOwnPage(runtime: { ownPages: PageCache; personStamps: PersonStamps; catalog: { version: number } }, key: string, owner: PageOwner): CachedPage | undefined {
  const page = runtime.ownPages.get(key, runtime.catalog.version);
  return page && page.stamp !== undefined && runtime.personStamps.fresh(owner, page.stamp) ? page : undefined;
}

/** The cache key of a page at its public address `url` for `audience`. */
export function keptPageKey(url: URL, audience: string): string {
  const key = pageKey(url);
  return audience === 'visitor' ? key : `${key}#${audience}`;
}

/**
 * Each person's personal parts (`personal.ts`), keyed by `personalKey` (language and session summary),
 * kept from the last page rendered for them. A changed name or a new session makes a new key, so
 * nothing needs forgetting; the oldest go first.
 */
export class PersonalPartsCache {
  readonly #kept: BoundedCache<string, PersonalParts>;

  constructor(capacity = 20_000) {
    this.#kept = new BoundedCache(capacity);
  }

  get(key: string): PersonalParts | undefined {
    return this.#kept.peek(key);
  }

  set(key: string, parts: PersonalParts): void {
    this.#kept.set(key, parts);
  }

  get size(): number {
    return this.#kept.size;
  }
}

/** A kept page for a logged-in audience: the template, with no shared body or validator, answered privately. */
export function keptPersonalPage(status: number, headers: [string, string][], body: string, cache: PersonalPartsCache, partsKey: string): CachedPage {
  const { template, parts } = splitPersonal(body);
  cache.set(partsKey, parts);
  return {
    status,
    headers: [...headers.filter(([k]) => !/^(cache-control|etag|content-length)$/i.test(k)), ['cache-control', PRIVATE_CACHE_CONTROL]],
    body: '',
    template,
  };
}

/** The body of a kept page for one reader: the shared body, or the template with their parts (`null`: render instead). */
export function keptBodyFor(page: CachedPage, cache: PersonalPartsCache, partsKey: string | null): string | null {
  if (!page.template) return page.body;
  const parts = partsKey === null ? undefined : cache.get(partsKey);
  return parts ? fillPersonal(page.template, parts) : null;
}
