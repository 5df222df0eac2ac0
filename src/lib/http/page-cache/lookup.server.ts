/**
 * Which kept page answers a request. The production server looks pages up before Astro runs (for
 * visitors and sessions alike), the middleware again before rendering (a page kept meanwhile, and
 * `astro dev`); both through `lookUp`, whose result also says where a page rendered now is kept (`keep`).
 */
import { accessKey, type Viewer } from '../../access/access';
import type { Identity } from '../../access/access.server';
import type { Store } from '../../access/store.server';
import type { SessionInfo } from '../../identity/session.server';
import { sessionSummary } from '../../identity/account';
import { splitLocale } from '../../paths';
import { keptPageKey, ownPageKey, personalKey, variedPageKey } from './keys';
import { fillPersonal } from './personal';
import type { CachedPage, PageCache, PageOwner, PersonalPartsCache, PersonStamps } from './store';
import type { KeptHit } from './answer';

/** The parts of the runtime the page cache uses. */
export interface PageCacheRuntime {
  store: Store;
  catalog: { version: number };
  /** Pages kept for an audience. */
  pages: PageCache;
  /** Each reader's personal parts. */
  personalParts: PersonalPartsCache;
  /** Pages kept for one person (`locals.ownPage`, and audience pages filled with their parts). */
  ownPages: PageCache;
  personStamps: PersonStamps;
  /** The counts of changes of some IBOs now (see `CachedPage.business`). */
  changeCounts(ibos: readonly number[]): Promise<string>;
  /** When every committed change is told to this process (the embedded database): how many were told so far. */
  businessClock?: () => number;
  /** The pages being rendered for one person now (`ownPageKey`), each ending when its render does. */
  ownRenders: Map<string, Promise<void>>;
}

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

/** A request the page cache may answer. */
export interface PageRequest {
  /** The page's public address: the public origin, the path the browser asked for and its query. */
  url: URL;
  /** The reader's session (`null`: a visitor). */
  session: SessionInfo | null;
  /** The request's `Cookie` header, for a page that varies on some cookies (`locals.pageVaries`). */
  cookies?: string | null;
}

/** Where a request's page is kept, and the kept page that answers it, if any. */
export interface Lookup {
  /** The key of the page for the reader's audience (with the cookies it varies on, once known). */
  key: string;
  /** The key of the page for the reader's audience, whatever cookies it varies on. */
  addressKey: string;
  /** The request's `Cookie` header. */
  cookies: string | null;
  /** A logged-in reader. */
  personal: boolean;
  /** The key of the reader's own parts (`null`: a visitor). */
  partsKey: string | null;
  /** Whose own page this reader reads, and its key. */
  owner: PageOwner | null;
  ownKey: string;
  /** The catalogue version and the person clock when the lookup ended (a render starting now). */
  version: number;
  stamp: number;
  /** The kept page that answers, with this reader's body. */
  hit: KeptHit | null;
}

/**
 * The page kept for `owner` under `key`, if nothing of theirs changed since it began rendering (and for a
 * business page, nothing of the IBO's business either, nor its time ran out; not known now: not fresh).
 */
async function freshOwnPage(runtime: PageCacheRuntime, key: string, owner: PageOwner): Promise<CachedPage | undefined> {
  const page = runtime.ownPages.get(key, runtime.catalog.version);
  if (!page || page.stamp === undefined || !runtime.personStamps.fresh(owner, page.stamp)) return undefined;
  const business = page.business;
  if (!business) return page;
  if (Date.now() >= business.until) return undefined;
  // Nothing was committed since the page began (or was last checked): nothing to read.
  const clock = runtime.businessClock?.();
  if (clock !== undefined && clock === business.clock) return page;
  const now = await runtime.changeCounts(business.ibos).catch(() => null);
  if (now !== business.stamp) return undefined;
  // Its IBOs' counts are as they were: whatever was committed until `clock` was someone else's.
  if (clock !== undefined) business.clock = clock;
  return page;
}

/**
 * Looks up the page kept for this reader: their own page while nothing of theirs changed; else their
 * audience's page (a logged-in audience's is a template, answered only when this reader's own parts
 * are known, then kept as their own page so its compressed copies are kept with it).
 */
export async function lookUp(runtime: PageCacheRuntime, request: PageRequest): Promise<Lookup> {
  const { session } = request;
  const addressKey = keptPageKey(request.url, await audienceOf(runtime.store, session?.identity));
  const version = runtime.catalog.version;
  const cookies = request.cookies ?? null;
  // A page that said it varies on some cookies is kept once per value of them.
  const varies = runtime.pages.get(addressKey, version)?.varies;
  const key = varies ? variedPageKey(addressKey, varies, cookies) : addressKey;
  // A logged-in reader's own parts of a kept page (their name in the header) depend on the language and the session.
  const partsKey = session ? personalKey(splitLocale(request.url.pathname).locale, sessionSummary(session)) : null;
  const owner = session ? await pageOwner(runtime.store, session.identity) : null;
  const ownKey = owner && partsKey !== null ? ownPageKey(key, owner, partsKey) : '';
  const found: Lookup = { key, addressKey, cookies, personal: session !== null, partsKey, owner, ownKey, version, stamp: runtime.personStamps.now(), hit: null };
  const own = owner ? await freshOwnPage(runtime, ownKey, owner) : undefined;
  if (own) return { ...found, hit: { page: own, body: own.body } };
  const kept = runtime.pages.get(key, version);
  if (!kept || kept.varies) return found;
  if (!kept.template) return { ...found, hit: { page: kept, body: kept.body } };
  const parts = partsKey === null ? undefined : runtime.personalParts.get(partsKey);
  const body = parts ? fillPersonal(kept.template, parts) : null;
  if (body === null) return found;
  if (!owner) return { ...found, hit: { page: kept, body } };
  const filled: CachedPage = { status: kept.status, headers: kept.headers, body, owner, stamp: found.stamp };
  runtime.ownPages.set(ownKey, version, filled);
  return { ...found, hit: { page: filled, body } };
}
