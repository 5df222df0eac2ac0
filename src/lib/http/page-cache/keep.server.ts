/**
 * Keeping a page just rendered: for its whole audience when the page declared itself the same for
 * everyone with that access (`locals.sharedPage`), or for its reader alone (`locals.ownPage`), and the
 * compressed copies of a kept page, made once.
 */
import { createHash } from 'node:crypto';
import { compressBody, type Encoding } from '../compress.server';
import { answer, type AnswerRequest, type KeptAnswer } from './answer';
import { PRIVATE_CACHE_CONTROL, SHARED_CACHE_CONTROL, variedPageKey } from './keys';
import { splitPersonal } from './personal';
import type { CachedPage, PersonalPartsCache } from './store';
import type { Lookup, PageCacheRuntime } from './lookup.server';

/**
 * A weak ETag of a page's body, computed once when the page is stored. Weak because the same page is
 * sent plain, brotli or gzip: the representations differ in bytes, not in meaning.
 */
export function pageEtag(body: string): string {
  return `W/"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}

/**
 * A rendered page as visitors' pages are kept: with its ETag (computed here, once) and the
 * `Cache-Control` that lets a CDN keep it briefly, in place of whatever the page said; a page that
 * varies on cookies stays private (a CDN would not tell one cart from another).
 */
function visitorsPage(status: number, headers: [string, string][], body: string, varies: boolean): CachedPage {
  const etag = pageEtag(body);
  return {
    status,
    headers: [...headers.filter(([k]) => !/^(cache-control|etag)$/i.test(k)), ['cache-control', varies ? PRIVATE_CACHE_CONTROL : SHARED_CACHE_CONTROL], ['etag', etag]],
    body,
    etag,
  };
}

/** A kept page for a logged-in audience: the template, with no shared body or validator, answered privately. */
function audiencePage(status: number, headers: [string, string][], body: string, cache: PersonalPartsCache, partsKey: string): CachedPage {
  const { template, parts } = splitPersonal(body);
  cache.set(partsKey, parts);
  return {
    status,
    headers: [...headers.filter(([k]) => !/^(cache-control|etag|content-length)$/i.test(k)), ['cache-control', PRIVATE_CACHE_CONTROL]],
    body: '',
    template,
  };
}

/** A rendered page, as `keep` reads it. */
export interface Rendered {
  status: number;
  headers: [string, string][];
  body: string;
}

/**
 * Keeps `page` for the audience of `lookup` (visitors: with its validator, for a CDN too; a logged-in
 * audience: as a template for each reader's own parts, whose parts are kept too), and when it varies on
 * some cookies (`varies`), for the values this request sent, leaving a pointer at its address. Returns
 * the page kept.
 */
export function keepForAudience(runtime: PageCacheRuntime, lookup: Lookup, page: Rendered, varies: readonly string[] = []): CachedPage {
  const kept = lookup.partsKey !== null ? audiencePage(page.status, page.headers, page.body, runtime.personalParts, lookup.partsKey) : visitorsPage(page.status, page.headers, page.body, varies.length > 0);
  if (varies.length === 0) {
    runtime.pages.set(lookup.key, lookup.version, kept);
    return kept;
  }
  runtime.pages.set(lookup.addressKey, lookup.version, { status: 0, headers: [], body: '', varies: [...varies] });
  runtime.pages.set(variedPageKey(lookup.addressKey, varies, lookup.cookies), lookup.version, kept);
  return kept;
}

/** What the page declared of itself while rendering, and what its answer does. */
export interface Declared {
  /** `locals.sharedPage`: the same for everyone with this access. */
  sharedPage: boolean | undefined;
  /** `locals.ownPage`: depends only on what is stored of its reader. */
  ownPage: boolean | undefined;
  /** `locals.businessPage`: an own page that also depends on an IBO's business (kept with its counts of changes, until a time). */
  businessPage?: { ibos: readonly number[]; stamp: string; until: number; clock?: number | undefined } | undefined;
  /** `locals.pageVaries`: the cookies a shared page depends on too. */
  pageVaries?: readonly string[] | undefined;
  /** The answer sets a cookie (then it is never kept). */
  setsCookies: boolean;
}

/**
 * Keeps a page rendered for `request` (`lookup`: where) when it may be kept, and answers with it
 * (`x-page-cache: miss`); `null` when it is not kept (the rendered response answers as it is).
 */
export async function keep(runtime: PageCacheRuntime, lookup: Lookup, request: AnswerRequest, response: Response, declared: Declared): Promise<KeptAnswer | null> {
  const html = response.headers.get('content-type')?.startsWith('text/html');
  if (!html || declared.setsCookies) return null;
  if (declared.sharedPage && (response.status === 200 || response.status === 404)) {
    const body = await response.text();
    const page = keepForAudience(runtime, lookup, { status: response.status, headers: [...response.headers.entries()], body }, declared.pageVaries);
    return answer(request, { page, body }, 'miss');
  }
  // A page rendered for one person is kept for them alone, stamped with when its rendering began.
  if (lookup.owner && declared.ownPage && !declared.sharedPage && response.status === 200) {
    const body = await response.text();
    const headers = [...response.headers.entries()].filter(([k]) => !/^(cache-control|etag|content-length)$/i.test(k));
    const page: CachedPage = { status: 200, headers: [...headers, ['cache-control', PRIVATE_CACHE_CONTROL]], body, owner: lookup.owner, stamp: lookup.stamp, ...(declared.businessPage ? { business: { ...declared.businessPage } } : {}) };
    runtime.ownPages.set(lookup.ownKey, lookup.version, page);
    return answer(request, { page, body }, 'miss');
  }
  return null;
}

/** The body of a kept answer in `encoding`: the page's own body compressed once and kept with it, any other (a template filled for one reader) compressed now, fast. */
export function encodedBody(kept: KeptAnswer, body: string, encoding: Encoding): Promise<Buffer> {
  if (body !== kept.page.body) return compressBody(body, encoding, 'each');
  const copies = (kept.page.compressed ??= {});
  return (copies[encoding] ??= compressBody(body, encoding));
}
