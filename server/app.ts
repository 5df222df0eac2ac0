/**
 * The production HTTP server: health check, static files from `dist/client`, then Astro's handler,
 * with socket.io on the same port and security headers on every response.
 */
import { constants as zlibConstants } from 'node:zlib';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { sql } from 'drizzle-orm';
import type { Server as SocketServer } from 'socket.io';
import type { Runtime } from '../src/lib/runtime/runtime.server';
import { securityHeaders } from '../src/lib/http/security';
import {
  cacheableRequest,
  etagMatches,
  hasSessionCookie,
  isPrivateCacheControl,
  notModifiedHeaders,
  ownPageKey,
  PRIVATE_CACHE_CONTROL,
  SESSION_COOKIE,
} from '../src/lib/http/page-cache';
import { audienceOf, freshOwnPage, keptBodyFor, keptPageKey, pageOwner } from '../src/lib/http/page-cache.server';
import { personalKey } from '../src/lib/http/personal';
import { splitLocale } from '../src/lib/paths';
import { sessionSummary } from '../src/lib/identity/account';
import { cookieValue } from '../src/lib/learning/tracking';
import { attachRealtime } from '../src/lib/realtime/socket.server';
import { resolveStatic, sendFile, type PagePolicies } from './static';
import { drainable, SHUTDOWN_GRACE_MS } from './drain';
import compression from 'compression';
import { compressBody, negotiate } from '../src/lib/http/compress.server';
import { requestOrigin, requestProtocol } from '../src/lib/http/origin';
import { hostAllowed, publicOrigin } from '../src/lib/http/public-origin';
import { acceptedRequestId, REQUEST_ID_HEADER, unexpectedErrorMessage, type ErrorLogEntry } from '../src/lib/http/errors';
import { newRequestId } from '../src/lib/http/errors.server';
import { BUSY_RETRY_AFTER_SECONDS, databaseBusy } from '../src/lib/db/unavailable';
import { actionRequest, busyActionError } from '../src/lib/http/action-answer';
import { bearerMatches } from '../src/lib/http/bearer.server';
import { errorLogger } from '../src/lib/http/log.server';
import { createMetrics, type Metrics } from './metrics';
import { answerLocale } from '../src/lib/http/locale';
import { messages, type Locale } from '../src/i18n';

/** Astro's middleware-mode request handler. */
export type AstroHandler = (req: IncomingMessage, res: ServerResponse, next?: (err?: unknown) => void, locals?: object) => void | Promise<void>;

/**
 * Resolves once the client has taken what was written so far. Astro's Node handler writes a streamed
 * body as fast as it is read, so a slow viewer of a large video would make the whole file sit in
 * memory; file-streaming endpoints wait on this (`locals.clientReady`) before each chunk.
 */
function clientReady(res: ServerResponse): () => Promise<void> {
  return () =>
    res.writableNeedDrain && !res.destroyed
      ? new Promise<void>((resolve) => {
          const done = () => {
            res.off('drain', done);
            res.off('close', done);
            resolve();
          };
          res.once('drain', done);
          res.once('close', done);
        })
      : Promise.resolve();
}

/** Compression of server-rendered answers: brotli (fast setting) or gzip, never lesson media. */
const compressRendered = compression({
  threshold: 1024,
  // Quality 4 (fast) and a 256 KB window, which holds any page: brotli's default 4 MB window made each
  // response in flight hold megabytes of encoder memory that the allocator kept after the burst.
  brotli: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4, [zlibConstants.BROTLI_PARAM_LGWIN]: 18 } },
  filter: (req, res) => !(req.url ?? '').startsWith('/media/') && compression.filter(req, res),
});

export interface AppOptions {
  /**
   * The process's services and settings: its database, caches and bus, its logger (one access line
   * per request, and unexpected errors), `NODE_ENV`, `TRUST_PROXY` (believe the `X-Forwarded-*`
   * headers; otherwise they are removed from every request), `PUBLIC_URL`, `ALLOWED_HOSTS` and `PORT`.
   */
  runtime: Runtime;
  astroHandler: AstroHandler;
  /** The built client folder (`dist/client`). */
  clientDir: string;
  /** The build's per-page Content Security Policies (`loadPagePolicies`). */
  policies?: PagePolicies;
  /** Where failed requests are logged (default: through the runtime's logger). */
  logError?: (entry: ErrorLogEntry) => void;
}

export interface App {
  server: Server;
  io: SocketServer;
  /** The app's own Prometheus registry and recorders (`/metrics`). */
  metrics: Metrics;
  /** The listener of `METRICS_PORT` (not yet listening), or `null` when no port is set. */
  metricsServer: Server | null;
  /**
   * Stops accepting, answers every request already received (with `Connection: close`), closes the
   * real-time sockets and idle connections; cuts what is left after `timeoutMs` (default 25 s). The
   * caller closes the runtime.
   */
  close(timeoutMs?: number): Promise<void>;
}

/** The not-found page's own files are never served with 200. */
const ERROR_PAGE = /^\/(en\/)?404(\.html|\/)?$/;

function notFound(req: IncomingMessage, res: ServerResponse, clientDir: string, policies?: PagePolicies): void {
  const english = /^\/en(\/|$)/.test(req.url ?? '');
  const page = resolveStatic(clientDir, english ? '/en/404/' : '/404.html');
  if (!page) {
    res.statusCode = 404;
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    res.end('404');
    return;
  }
  sendFile(req, res, page.file, page.stats, english ? '/en/404' : '/404', 404, policies);
}

/** Headers only a reverse proxy may set; without `TRUST_PROXY` anyone could, so they are dropped. */
const FORWARDED = ['forwarded', 'x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host', 'x-forwarded-port', 'x-real-ip'];

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

function firstValue(value: string | string[] | undefined): string | undefined {
  return (Array.isArray(value) ? value[0] : value)?.split(',')[0]?.trim() || undefined;
}

/**
 * Makes the request's headers say what the server believes, before anything reads them (Astro trusts
 * `X-Forwarded-Proto` and `-For` through `security.allowedDomains`): without a trusted proxy every
 * forwarded header is removed; behind one, `X-Forwarded-Host` becomes the Host. Returns the host.
 */
function settleForwardedHeaders(req: IncomingMessage, trustProxy: boolean): string | undefined {
  if (!trustProxy) {
    for (const name of FORWARDED) delete req.headers[name];
    return req.headers.host;
  }
  const forwardedHost = firstValue(req.headers['x-forwarded-host']);
  if (forwardedHost) req.headers.host = forwardedHost;
  delete req.headers['x-forwarded-host'];
  delete req.headers['x-forwarded-port'];
  return req.headers.host;
}

/** The language of an answer without a page: the address's `/en/` prefix, else `?lang=` or Accept-Language. */
function answerLanguage(req: IncomingMessage, url: URL): Locale {
  if (/^\/en(\/|$)/.test(url.pathname)) return 'en';
  return answerLocale(url.searchParams.get('lang'), firstValue(req.headers['accept-language']) ?? null);
}

/** A health check's whole answer: up (200) or down (503), nothing else. */
function healthAnswer(res: ServerResponse, status: 'up' | 'down'): void {
  res.statusCode = status === 'up' ? 200 : 503;
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('Cache-Control', 'no-store');
  res.end(JSON.stringify({ status }));
}

function plainAnswer(res: ServerResponse, status: number, body: string, locale: Locale): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('Content-Language', locale);
  res.setHeader('Cache-Control', 'no-store');
  res.end(body);
}

function jsonAnswer(res: ServerResponse, error: { status: number; body: string }, locale: Locale): void {
  res.statusCode = error.status;
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('Content-Language', locale);
  res.setHeader('Cache-Control', 'no-store');
  res.end(error.body);
}

type WriteHead = ServerResponse['writeHead'];

/**
 * Makes whatever is answered carry `Cache-Control: private, no-store` unless it already keeps itself
 * out of shared caches: the request carries a session, so the answer may be about one person.
 * Every way of sending headers (an explicit `writeHead` or the implicit one of `write`/`end`) goes
 * through `writeHead`, so the header is settled there, after the handler's own.
 */
function keepPrivate(res: ServerResponse): void {
  const writeHead = res.writeHead.bind(res) as (status: number, reason?: string) => ServerResponse;
  res.writeHead = ((status: number, ...rest: unknown[]) => {
    const reason = typeof rest[0] === 'string' ? rest[0] : undefined;
    const given = rest.find((a) => typeof a === 'object' && a !== null) as Record<string, unknown> | unknown[] | undefined;
    if (Array.isArray(given)) {
      const pairs: [string, string][] = Array.isArray(given[0])
        ? (given as [string, string][])
        : Array.from({ length: given.length / 2 }, (_, i) => [String(given[2 * i]), String(given[2 * i + 1])]);
      const grouped = new Map<string, string[]>();
      for (const [k, v] of pairs) grouped.set(k.toLowerCase(), [...(grouped.get(k.toLowerCase()) ?? []), v]);
      for (const [k, v] of grouped) res.setHeader(k, v.length === 1 ? v[0]! : v);
    } else if (given) {
      for (const [k, v] of Object.entries(given)) if (v !== undefined) res.setHeader(k, v as string | string[]);
    }
    if (!isPrivateCacheControl(String(res.getHeader('cache-control') ?? ''))) res.setHeader('Cache-Control', PRIVATE_CACHE_CONTROL);
    return reason === undefined ? writeHead(status) : writeHead(status, reason);
  }) as WriteHead;
}

/** Builds the server (not yet listening). */
export function createApp(opts: AppOptions): App {
  const { runtime } = opts;
  const { config, logger } = runtime;
  const headers = securityHeaders(config.production, opts.policies?.any ?? undefined);
  const trustProxy = config.trustProxy;
  const origin = config.origin;
  const logError = opts.logError ?? errorLogger(logger, runtime.outage);
  const server = createServer(async (req, res) => {
    const started = process.hrtime.bigint();
    // Every answer carries its request id: the error page and the log show the same one.
    const requestId = acceptedRequestId(req.headers[REQUEST_ID_HEADER], trustProxy) ?? newRequestId();
    res.setHeader('X-Request-Id', requestId);
    for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
    const url = new URL(req.url ?? '/', 'http://localhost');
    // One access line per request: the path only (a query string may hold a token), never cookies or bodies.
    res.once('close', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      metrics.observeRequest(url.pathname, res.statusCode, seconds);
      logger.info(
        { requestId, method: req.method ?? 'GET', path: url.pathname, status: res.statusCode, durationMs: Math.round(seconds * 1e6) / 1e3, ...(res.writableFinished ? {} : { aborted: true }) },
        'request',
      );
    });
    try {
      // Load balancers and orchestrators learn only up or down; why a check failed goes to the log.
      if (url.pathname === '/healthz' || url.pathname === '/readyz') {
        await runtime.db.execute(sql`select 1`);
        healthAnswer(res, 'up');
        return;
      }
      // A Host the academy does not answer to is refused before anything is rendered or cached, so no
      // page, link or e-mail can ever name it.
      const host = settleForwardedHeaders(req, trustProxy);
      if (!hostAllowed(host, origin)) {
        const locale = answerLanguage(req, url);
        plainAnswer(res, 421, messages(locale).unknownHost, locale);
        return;
      }
      // The metrics answer on the site's port only to the bearer of `METRICS_TOKEN`; without a token
      // `/metrics` is an unknown page here.
      if (url.pathname === '/metrics' && config.metrics.token !== null) {
        await metricsAnswer(req, res, url);
        return;
      }
      const encrypted = 'encrypted' in req.socket && Boolean(req.socket.encrypted);
      const site = publicOrigin(origin, { host, protocol: requestProtocol(req.headers, encrypted, trustProxy) });
      if (req.method === 'GET' || req.method === 'HEAD') {
        const hit = ERROR_PAGE.test(url.pathname) ? null : resolveStatic(opts.clientDir, url.pathname);
        if (hit) {
          sendFile(req, res, hit.file, hit.stats, url.pathname, 200, opts.policies);
          return;
        }
      }
      // The site's files are the same for everyone; anything else answered to a session stays private.
      const session = hasSessionCookie(req.headers.cookie);
      if (session) keepPrivate(res);
      let cacheCounted = false;
      const pageCacheResult = (result: 'hit' | 'miss') => {
        if (cacheCounted) return;
        cacheCounted = true;
        metrics.pageCache(result);
      };
      // A page the Astro middleware kept for this request's audience (visitors, or everyone with this
      // session's access) is answered here, without running Astro at all. Pages are kept per public
      // origin, the one their absolute URLs were built with. A session Astro would refuse (unknown,
      // expired) goes to Astro, which drops its cookie.
      // A session that cannot be checked now (the database out of reach) goes to Astro too, whose error
      // page says the academy is busy.
      const info = session ? await runtime.sessions.read(cookieValue(req.headers.cookie, SESSION_COOKIE)).catch(() => undefined) : null;
      if (cacheableRequest(req.method ?? 'GET', url) && (!session || info)) {
        const audience = await audienceOf(runtime.store, info?.identity);
        const sharedKey = keptPageKey(new URL(url.pathname + url.search, site), audience);
        const kept = runtime.pages.get(sharedKey, runtime.catalog.version);
        const partsKey = info ? personalKey(splitLocale(url.pathname).locale, sessionSummary(info)) : null;
        // A logged-in audience's page is a template: it answers here only when this reader's own parts are known.
        const own = kept?.template && partsKey !== null ? keptBodyFor(kept, runtime.personalParts, partsKey) : null;
        // A page kept for this very person (an own page, or an access context's page filled with their
        // parts, kept with its compressed copies), while nothing of theirs changed since it was made.
        const owner = info && partsKey !== null ? await pageOwner(runtime.store, info.identity) : null;
        const ownKey = owner && partsKey !== null ? ownPageKey(sharedKey, owner, partsKey) : '';
        let ownPage = owner ? freshOwnPage(runtime, ownKey, owner) : undefined;
        if (!ownPage && owner && kept?.template && own !== null) {
          ownPage = { status: kept.status, headers: kept.headers, body: own, owner, stamp: runtime.personStamps.now() };
          runtime.ownPages.set(ownKey, runtime.catalog.version, ownPage);
        }
        if (!ownPage && kept?.template && own !== null) {
          pageCacheResult('hit');
          await new Promise<void>((resolve, reject) => compressRendered(req as never, res as never, (err?: unknown) => (err ? reject(err) : resolve())));
          res.writeHead(kept.status, [...kept.headers.flat(), 'content-length', String(Buffer.byteLength(own)), 'x-page-cache', 'hit']);
          res.end(req.method === 'HEAD' ? undefined : own);
          return;
        }
        const hit = ownPage ?? (kept?.template ? undefined : kept);
        if (hit && etagMatches(firstHeader(req.headers['if-none-match']), hit.etag)) {
          pageCacheResult('hit');
          const kept = notModifiedHeaders(hit.headers).filter(([k]) => k.toLowerCase() !== 'vary');
          const vary = hit.headers.find(([k]) => k.toLowerCase() === 'vary')?.[1];
          res.writeHead(304, [...kept.flat(), 'vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding', 'x-page-cache', 'hit']);
          res.end();
          return;
        }
        if (hit) {
          pageCacheResult('hit');
          const encoding = negotiate(req.headers['accept-encoding']);
          let body: string | Buffer = hit.body;
          if (encoding) {
            const kept = (hit.compressed ??= {});
            body = await (kept[encoding] ??= compressBody(hit.body, encoding));
          }
          const vary = hit.headers.find(([k]) => k.toLowerCase() === 'vary')?.[1];
          const headers = hit.headers.filter(([k]) => !/^(vary|content-length|content-encoding)$/i.test(k));
          res.writeHead(hit.status, [
            ...headers.flat(),
            'vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding',
            ...(encoding ? ['content-encoding', encoding] : []),
            'content-length', String(Buffer.byteLength(body)),
            'x-page-cache', 'hit',
          ]);
          res.end(req.method === 'HEAD' ? undefined : body);
          return;
        }
      }
      // Pages rendered for one person (the player, my learning…) and JSON answers are compressed as
      // they are sent. Lesson media is not: it is binary, and Range answers must stay byte-exact.
      await new Promise<void>((resolve, reject) => compressRendered(req as never, res as never, (err?: unknown) => (err ? reject(err) : resolve())));
      // Astro's `locals`: back-pressure for file streams, the request id, the origin a same-site change comes from.
      const locals = {
        runtime,
        clientReady: clientReady(res),
        requestId,
        requestOrigin: requestOrigin(req.headers, encrypted, trustProxy),
        logError,
        pageCacheResult,
      };
      await opts.astroHandler(req, res, () => notFound(req, res, opts.clientDir, opts.policies), locals);
    } catch (err) {
      logError({ requestId, method: req.method ?? 'GET', path: url.pathname, error: err, where: 'server' });
      const locale = answerLanguage(req, url);
      if (url.pathname === '/healthz' || url.pathname === '/readyz') {
        if (!res.headersSent) healthAnswer(res, 'down');
        else res.end();
      } else if (!res.headersSent && databaseBusy(err)) {
        res.setHeader('Retry-After', String(BUSY_RETRY_AFTER_SECONDS));
        // A script calling an action reads Astro's error shape, never a page or plain text.
        if (actionRequest(req.method, url) && url.pathname.startsWith('/_actions/')) jsonAnswer(res, busyActionError(messages(locale).busy.action), locale);
        else plainAnswer(res, 503, messages(locale).busy.action, locale);
      } else if (!res.headersSent) {
        plainAnswer(res, 500, unexpectedErrorMessage(locale, requestId), locale);
      } else {
        res.end();
      }
    }
  });
  const io = attachRealtime(server, runtime);
  const metrics = createMetrics({ sockets: () => io.engine.clientsCount, pool: runtime.database.pool });

  /** The Prometheus text to the bearer of the token (when one is set), else 401 with a sentence. */
  async function metricsAnswer(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const token = config.metrics.token;
    if (token !== null && !bearerMatches(req.headers.authorization, token)) {
      const locale = answerLanguage(req, url);
      res.setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
      plainAnswer(res, 401, messages(locale).metricsToken, locale);
      return;
    }
    const text = await metrics.registry.metrics();
    res.setHeader('Content-Type', metrics.registry.contentType);
    res.setHeader('Cache-Control', 'no-store');
    res.end(text);
  }

  /**
   * `METRICS_PORT`'s listener (the caller listens on it): `/metrics` and nothing else, under the same
   * Host check and, when `METRICS_TOKEN` is set, the same token.
   */
  const metricsServer =
    config.metrics.port === null
      ? null
      : createServer((req, res) => {
          const url = new URL(req.url ?? '/', 'http://localhost');
          const locale = answerLanguage(req, url);
          const host = settleForwardedHeaders(req, trustProxy);
          if (!hostAllowed(host, origin)) plainAnswer(res, 421, messages(locale).unknownHost, locale);
          else if (url.pathname !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) plainAnswer(res, 404, '404', locale);
          else
            metricsAnswer(req, res, url).catch((err: unknown) => {
              logError({ requestId: newRequestId(), method: req.method ?? 'GET', path: url.pathname, error: err, where: 'metrics' });
              if (!res.headersSent) plainAnswer(res, 500, unexpectedErrorMessage(locale, '-'), locale);
              else res.end();
            });
        });

  // Taken over last, after socket.io: while stopping, a new real-time connection is told to come back.
  const drain = drainable(server, (req, res) => {
    if (!(req.url ?? '').startsWith('/socket.io/')) return false;
    const locale = answerLanguage(req, new URL(req.url ?? '/', 'http://localhost'));
    res.setHeader('Retry-After', '1');
    plainAnswer(res, 503, messages(locale).busy.action, locale);
    return true;
  });

  const close = async (timeoutMs = SHUTDOWN_GRACE_MS) => {
    // Real-time connections are closed as a lost connection (not "do not come back"): browsers
    // reconnect with backoff, to the next server.
    io.engine.close();
    if (metricsServer?.listening) metricsServer.close();
    metricsServer?.closeAllConnections();
    await drain.stop(timeoutMs);
  };

  return { server, metricsServer, io, metrics, close };
}
