/**
 * Request middleware for pages rendered on demand: the request id, the same-site check, identity,
 * actions (whose unexpected failures are logged and answered without details), the shared-page cache
 * and the fallback status.
 */
import { defineMiddleware } from 'astro:middleware';
import { ActionError, getActionContext } from 'astro:actions';
import type { APIContext } from 'astro';
import {
  cacheableRequest,
  type CachedPage,
  etagMatches,
  isPrivateCacheControl,
  notModifiedHeaders,
  ownPageKey,
  PRIVATE_CACHE_CONTROL,
  SESSION_COOKIE,
} from '~/lib/http/page-cache';
import { audienceOf, freshOwnPage, keptBodyFor, keptPageKey, keptPersonalPage, pageOwner } from '~/lib/http/page-cache.server';
import { personalKey } from '~/lib/http/personal';
import { keptPage } from '~/lib/http/etag.server';
import { isProtectedPath, loginUrl, sessionSummary } from '~/lib/identity/account';
import { splitLocale } from '~/lib/paths';
import { requestLocale } from '~/lib/http/locale';
import { requestOrigin, type HeaderBag } from '~/lib/http/origin';
import { crossSiteMutation } from '~/lib/http/csrf';
import { unexpectedErrorMessage } from '~/lib/http/errors';
import { BUSY_RETRY_AFTER_SECONDS, databaseBusy } from '~/lib/db/unavailable';
import { actionInputLocale, actionRequest, busyActionError } from '~/lib/http/action-answer';
import { DatabaseBusy } from './actions/define';
import { logServerError, newRequestId } from '~/lib/http/errors.server';
import { DEFAULT_LOCALE, messages, type Locale } from '~/i18n';

/** Errors already written to the log (the error page renders through this middleware again). */
const logged = new WeakSet<object>();

function headerBag(headers: Headers): HeaderBag {
  return Object.fromEntries(headers.entries());
}

/** The language of an answer that has no page: the address's, else the page the request came from, else the browser's. */
function answerLanguage(ctx: APIContext): Locale {
  const own = splitLocale(ctx.url.pathname).locale;
  if (own !== DEFAULT_LOCALE) return own;
  const referer = ctx.request.headers.get('referer');
  if (referer && URL.canParse(referer) && new URL(referer).origin === ctx.url.origin) {
    const from = splitLocale(new URL(referer).pathname).locale;
    if (from !== DEFAULT_LOCALE) return from;
  }
  return requestLocale(ctx.url, ctx.request.headers);
}

/**
 * The language of an action's answer: the `lang` its input carries (read from `input`, a copy of the
 * request taken before the action read it), else the request's `?lang=`, address, referring page or
 * Accept-Language.
 */
async function actionLanguage(ctx: APIContext, input: Request | null): Promise<Locale> {
  const lang = ctx.url.searchParams.get('lang');
  return (input && (await actionInputLocale(input))) ?? (lang === 'es' || lang === 'en' ? lang : answerLanguage(ctx));
}

/**
 * "Busy, try again in a few seconds" to an action's caller: to a script (`/_actions/…`), Astro's action
 * error shape, 503, `Retry-After`; to a form posted without JavaScript (`?_action=`), which a browser
 * shows as a page, the busy page in the language the form names.
 */
async function busyAction(ctx: APIContext, input: Request | null, error: unknown): Promise<Response> {
  const locale = await actionLanguage(ctx, input);
  if (!ctx.url.pathname.startsWith('/_actions/')) return busyPage(ctx, error, locale);
  const { status, body } = busyActionError(messages(locale).busy.action);
  return new Response(body, {
    status,
    headers: { 'Content-Type': 'application/json', 'Content-Language': locale, 'Cache-Control': 'no-store', 'Retry-After': String(BUSY_RETRY_AFTER_SECONDS) },
  });
}

/** The busy page (503) in `locale`, rendered from here; its "try again" link is the page, without the form's action. */
function busyPage(ctx: APIContext, error: unknown, locale: Locale): Promise<Response> {
  if (ctx.routePattern === '/500' || ctx.locals.busyPage) throw error;
  const query = new URLSearchParams(ctx.url.search);
  query.delete('_action');
  ctx.locals.busyPage = { error, locale, retryHref: ctx.originPathname.replace(/(.)\/$/, '$1') + (query.size > 0 ? `?${query}` : '') };
  return ctx.rewrite('/500');
}

function logOnce(ctx: APIContext, error: unknown, where: string): void {
  if (typeof error === 'object' && error !== null) {
    if (logged.has(error)) return;
    logged.add(error);
  }
  (ctx.locals.logError ?? logServerError)({ requestId: ctx.locals.requestId ?? '-', method: ctx.request.method, path: ctx.url.pathname, error, where });
}

/** False for a JSON request whose body is not JSON (the only body Astro fails on with a 500). */
async function readableBody(request: Request): Promise<boolean> {
  const type = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') return true;
  const text = await request.clone().text();
  if (text === '') return true;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

type ActionResult = Awaited<ReturnType<NonNullable<ReturnType<typeof getActionContext>['action']>['handler']>>;

/**
 * Runs a posted action (RPC `/_actions/…` or a form's `?_action=`) so that an unexpected failure never
 * reaches the browser: Astro would answer with the error's own message (SQL and its parameters
 * included). It is logged with the request id and replaced by a sentence quoting that id.
 */
async function runAction(ctx: APIContext, input: Request | null): Promise<Response | undefined> {
  const { action, setActionResult, serializeActionResult } = getActionContext(ctx);
  if (!action) return undefined;
  let result: ActionResult;
  let failure: unknown = null;
  if (action.calledFrom === 'rpc' && !(await readableBody(ctx.request))) {
    // Astro would answer a body it cannot parse with a 500 (malformed JSON) or an empty 415.
    result = { data: undefined, error: new ActionError({ code: 'BAD_REQUEST', message: messages(answerLanguage(ctx)).unreadableBody }) };
  } else {
    try {
      result = await action.handler();
      // Astro turns anything an action throws, other than an ActionError, into this code.
      if (result.error?.code === 'INTERNAL_SERVER_ERROR' || result.error instanceof DatabaseBusy) failure = result.error;
      else if (result.error?.code === 'UNSUPPORTED_MEDIA_TYPE') {
        result = { data: undefined, error: new ActionError({ code: 'UNSUPPORTED_MEDIA_TYPE', message: messages(answerLanguage(ctx)).unreadableBody }) };
      }
    } catch (err) {
      failure = err;
    }
  }
  if (failure !== null) {
    logOnce(ctx, failure, `action ${action.name}`);
    // The database not answering in time (every connection busy, PostgreSQL restarting) is no fault of
    // the request: 503, "busy, try again in a few seconds", rather than 500.
    if (failure instanceof DatabaseBusy || databaseBusy(failure)) return busyAction(ctx, input, failure);
    result = { data: undefined, error: new ActionError({ code: 'INTERNAL_SERVER_ERROR', message: unexpectedErrorMessage(await actionLanguage(ctx, input), ctx.locals.requestId ?? '-') }) };
  }
  const serialized = serializeActionResult(result!);
  if (action.calledFrom === 'rpc') {
    if (serialized.type === 'empty') return new Response(null, { status: serialized.status });
    const retryAfter = serialized.status === 503 ? BUSY_RETRY_AFTER_SECONDS : serialized.status === 429 ? ctx.locals.retryAfterSeconds : undefined;
    const retry: Record<string, string> = retryAfter !== undefined ? { 'Retry-After': String(retryAfter) } : {};
    return new Response(serialized.body, { status: serialized.status, headers: { 'Content-Type': serialized.contentType, 'Cache-Control': 'no-store', ...retry } });
  }
  setActionResult(action.name, serialized);
  return undefined;
}

/** A kept page as the answer to `request` (`body`: the page for this reader): 304 when its ETag matches, no body for HEAD. */
function keptAnswer(request: Request, page: CachedPage, body: string, source: 'hit' | 'miss'): Response {
  if (etagMatches(request.headers.get('if-none-match'), page.etag)) {
    return new Response(null, { status: 304, headers: [...notModifiedHeaders(page.headers), ['x-page-cache', source]] });
  }
  return new Response(request.method === 'HEAD' ? null : body, { status: page.status, headers: [...page.headers, ['x-page-cache', source]] });
}

const handle = async (ctx: APIContext, next: () => Promise<Response>, input: Request | null): Promise<Response> => {
  ctx.locals.identity = null;
  ctx.locals.session = null;
  const { runtime } = ctx.locals;
  const expected = ctx.locals.requestOrigin !== undefined ? ctx.locals.requestOrigin : requestOrigin(headerBag(ctx.request.headers), ctx.url.protocol === 'https:', false);
  if (crossSiteMutation(ctx.request.method, ctx.request.headers, expected)) {
    const path = splitLocale(ctx.url.pathname);
    const locale = path.locale !== DEFAULT_LOCALE ? path.locale : requestLocale(ctx.url, ctx.request.headers);
    return new Response(messages(locale).crossSite, { status: 403, headers: { 'content-type': 'text/plain; charset=utf-8', 'content-language': locale } });
  }
  const token = ctx.cookies.get(SESSION_COOKIE)?.value;
  let droppedCookie = false;
  if (token) {
    // The server-error page is shown even when the session cannot be checked (the database out of
    // reach may be why the request failed): without the person, and without dropping their cookie.
    const session = await runtime.sessions.read(token).catch((err: unknown) => {
      if (ctx.routePattern === '/500') return undefined;
      throw err;
    });
    if (session) {
      ctx.locals.session = session;
      ctx.locals.identity = session.identity;
    } else if (session === null) {
      // A forged, expired or revoked cookie: drop it so the browser stops sending it.
      ctx.cookies.delete(SESSION_COOKIE, { path: '/' });
      droppedCookie = true;
    }
  }
  // Personal pages need a logged-in user: anyone else goes to the login page, which brings them back.
  if (!ctx.locals.session?.user) {
    const { locale, path } = splitLocale(ctx.url.pathname);
    if (isProtectedPath(path)) return ctx.redirect(loginUrl(locale, ctx.url.pathname + ctx.url.search), ctx.request.method === 'GET' ? 302 : 303);
  }
  if (ctx.request.method === 'POST') {
    const answer = await runAction(ctx, input);
    if (answer) return answer;
  }
  // English pages reach this middleware twice: as /en/… (which finds no page file) and again rewritten
  // to the Spanish route (i18n fallback). The cache is always keyed by the address the browser asked
  // for (`originPathname`), under the public origin the page's absolute URLs are built with, so one
  // language's page is never served for the other and no Host header can choose what is kept.
  // A page is kept per audience: visitors, or everyone logged in with the same access context.
  const cacheable = cacheableRequest(ctx.request.method, ctx.url) && !droppedCookie;
  const personal = ctx.locals.session !== null;
  const key = cacheable ? keptPageKey(new URL(ctx.originPathname + ctx.url.search, runtime.siteOrigin(ctx.url)), await audienceOf(runtime.store, ctx.locals.identity)) : '';
  // A logged-in reader's own parts of a kept page (their name in the header) depend on the language and the session.
  const partsKey = personal ? personalKey(splitLocale(ctx.originPathname).locale, sessionSummary(ctx.locals.session)) : null;
  // A page kept for this very person (`locals.ownPage`), while nothing of theirs changed since it was rendered.
  const owner = personal && partsKey !== null ? await pageOwner(runtime.store, ctx.locals.identity) : null;
  const ownKey = owner && partsKey !== null ? ownPageKey(key, owner, partsKey) : '';
  if (cacheable) {
    const hit = runtime.pages.get(key, runtime.catalog.version);
    const body = hit ? keptBodyFor(hit, runtime.personalParts, partsKey) : null;
    const own = !hit && owner ? freshOwnPage(runtime, ownKey, owner) : undefined;
    ctx.locals.pageCacheResult?.((hit && body !== null) || own ? 'hit' : 'miss');
    if (hit && body !== null) return personal ? privately(keptAnswer(ctx.request, hit, body, 'hit')) : keptAnswer(ctx.request, hit, body, 'hit');
    if (own) return privately(keptAnswer(ctx.request, own, own.body, 'hit'));
  }
  const version = runtime.catalog.version;
  const stamp = runtime.personStamps.now();
  let response = await next();
  // English pages are the Spanish page files rendered through i18n `fallbackType: 'rewrite'`.
  // Astro marks such a rewrite 302 without a Location header; it is a normal page, so answer 200.
  if (response.status === 302 && !response.headers.has('location')) {
    response = new Response(response.body, { status: 200, headers: response.headers });
  } else if (response.status === 500 && response.headers.has('retry-after')) {
    // The server-error page found the database out of reach (it says "busy" and sets Retry-After) but
    // cannot choose its own status (Astro gives the error page 500): nothing was wrong with the request.
    response = new Response(response.body, { status: 503, headers: response.headers });
  } else if (response.status !== 200 && response.statusText === 'OK') {
    // A page that set `Astro.response.status` keeps the default reason phrase ("403 OK"): drop it so
    // the server sends the status's own ("403 Forbidden").
    response = new Response(response.body, { status: response.status, headers: response.headers });
  }
  // A form refused with 429 (no JavaScript) gets its page with the Retry-After a script's call gets.
  if (response.status === 429 && ctx.locals.retryAfterSeconds !== undefined && !response.headers.has('retry-after')) response = withHeader(response, 'retry-after', String(ctx.locals.retryAfterSeconds));
  response = varyOnCookie(response);
  // A page that declared itself the same for everyone with this access (`locals.sharedPage`) is kept.
  const html = response.headers.get('content-type')?.startsWith('text/html');
  const setsCookies = response.headers.has('set-cookie') || [...ctx.cookies.headers()].length > 0;
  if (cacheable && ctx.locals.sharedPage && html && (response.status === 200 || response.status === 404) && !setsCookies) {
    const body = await response.text();
    // Visitors' kept pages carry a validator (computed once, here) and may be kept by a CDN for a short
    // while; a logged-in audience's are kept as a template for each reader's own parts, and stay private.
    const headers = [...response.headers.entries()];
    const page = partsKey !== null ? keptPersonalPage(response.status, headers, body, runtime.personalParts, partsKey) : keptPage(response.status, headers, body);
    runtime.pages.set(key, version, page);
    return personal ? privately(keptAnswer(ctx.request, page, body, 'miss')) : keptAnswer(ctx.request, page, body, 'miss');
  }
  // A page rendered for one person is kept for them alone, stamped with when its rendering began.
  if (cacheable && owner && ctx.locals.ownPage && !ctx.locals.sharedPage && html && response.status === 200 && !setsCookies) {
    const body = await response.text();
    const headers = [...response.headers.entries()].filter(([k]) => !/^(cache-control|etag|content-length)$/i.test(k));
    const page: CachedPage = { status: 200, headers: [...headers, ['cache-control', PRIVATE_CACHE_CONTROL]], body, owner, stamp };
    runtime.ownPages.set(ownKey, version, page);
    return keptAnswer(ctx.request, page, body, 'miss');
  }
  // Anything answered to a request with cookies (a session, a cart, a referral…), other than a page
  // declared the same for its whole audience, may have been made from them: it stays out of shared caches.
  if ((ctx.request.headers.has('cookie') || ctx.locals.session) && !isPrivateCacheControl(response.headers.get('cache-control'))) {
    return privately(response);
  }
  return response;
};

/** The response with header `name` set to `value` (a copy when its headers are immutable). */
function withHeader(response: Response, name: string, value: string): Response {
  try {
    response.headers.set(name, value);
    return response;
  } catch {
    const headers = new Headers(response.headers);
    headers.set(name, value);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
}

/** The response with `Cache-Control: private, no-store`. */
function privately(response: Response): Response {
  return withHeader(response, 'cache-control', PRIVATE_CACHE_CONTROL);
}

/**
 * The response with `Cookie` among its `Vary` names: every answer rendered here may depend on the
 * request's cookies, so a shared cache keeps the visitors' copy apart from a cookie holder's.
 */
function varyOnCookie(response: Response): Response {
  const vary = response.headers.get('vary');
  if (vary?.split(',').some((v) => ['cookie', '*'].includes(v.trim().toLowerCase()))) return response;
  return withHeader(response, 'vary', vary ? `${vary}, Cookie` : 'Cookie');
}

export const onRequest = defineMiddleware(async (ctx, next) => {
  // The production server gives every request an id; `astro dev` and the build do not.
  ctx.locals.requestId ??= newRequestId();
  // The server (server/app.ts, or `astro dev`'s integration) hands every request the process's runtime.
  if (!ctx.locals.runtime) throw new Error('locals.runtime is missing: serve the site with `npm start` or `npm run dev`');
  // An action's input as posted, kept to answer a failure in the language it names.
  const input = actionRequest(ctx.request.method, ctx.url) && !ctx.request.bodyUsed ? ctx.request.clone() : null;
  try {
    return varyOnCookie(await handle(ctx, next, input));
  } catch (err) {
    // Astro answers with the server-error page (which shows the request id); the log gets the details.
    logOnce(ctx, err, 'page');
    // An action (its session could not be checked, say) is answered in its caller's shape.
    if (input && databaseBusy(err)) return busyAction(ctx, input, err);
    // A page the database could not serve gets the busy page, rendered from here: thrown on, Astro would
    // log it again, stack and all, for every request of an outage (the outage watch tells it once).
    if (databaseBusy(err)) return busyPage(ctx, err, splitLocale(ctx.originPathname).locale);
    throw err;
  }
});
