/**
 * The production HTTP server: a short list of handlers, each answering or passing the request on
 * (health, host, metrics, static files, sessions kept private, cached pages, Astro), with socket.io on
 * the same port and security headers on every response.
 */
import { createServer, type Server } from 'node:http';
import type { Server as SocketServer } from 'socket.io';
import type { Runtime } from '../src/lib/runtime/runtime.server';
import { securityHeaders } from '../src/lib/http/security';
import { attachRealtime } from '../src/lib/realtime/socket.server';
import { staticSite, type PagePolicies } from './static';
import { drainable, SHUTDOWN_GRACE_MS } from './drain';
import { acceptedRequestId, REQUEST_ID_HEADER, unexpectedErrorMessage, type ErrorLogEntry } from '../src/lib/http/errors';
import { BUSY_RETRY_AFTER_SECONDS, databaseBusy } from '../src/lib/db/unavailable';
import { actionRequest, busyActionError } from '../src/lib/http/action-answer';
import { newRequestId } from '../src/lib/http/errors.server';
import { errorLogger } from '../src/lib/http/log.server';
import { createMetrics, type Metrics } from './metrics';
import { messages } from '../src/i18n';
import { answerLanguage, healthAnswer, jsonAnswer, plainAnswer } from './handlers/answers';
import type { Exchange, Handler } from './handlers/exchange';
import { health, healthPath } from './handlers/health';
import { hostCheck } from './handlers/host';
import { metricsAnswer, metricsEndpoint, metricsListener } from './handlers/metrics';
import { staticFiles } from './handlers/static-files';
import { privateSessions } from './handlers/private-sessions';
import { cachedPage } from './handlers/cached-page';
import { astro, type AstroHandler } from './handlers/astro';
import { videoUploads } from './handlers/video-uploads';

export type { AstroHandler } from './handlers/astro';

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
  /** Told when an uploaded video is queued for conversion (the process's video worker starts at once). */
  videoQueued?: (videoId: number) => void;
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

/** Builds the server (not yet listening). */
export function createApp(opts: AppOptions): App {
  const { runtime } = opts;
  const { config, logger } = runtime;
  const securityHeaderList = Object.entries(securityHeaders(config.production, opts.policies?.any ?? undefined));
  const trustProxy = config.trustProxy;
  const origin = config.origin;
  const logError = opts.logError ?? errorLogger(logger, runtime.outage);

  const answerMetrics = metricsAnswer(config, () => metrics);
  const site = staticSite(opts.clientDir);
  /** The request's way: the first handler that answers ends it. */
  const handlers: Handler[] = [
    health(runtime),
    hostCheck(origin, trustProxy),
    metricsEndpoint(config, answerMetrics),
    staticFiles(site, opts.policies),
    videoUploads(runtime, { queued: (id) => opts.videoQueued?.(id) }),
    privateSessions,
    cachedPage(runtime),
    astro({ runtime, astroHandler: opts.astroHandler, site, policies: opts.policies, trustProxy, logError }),
  ];

  const server = createServer(async (req, res) => {
    const started = process.hrtime.bigint();
    // Every answer carries its request id: the error page and the log show the same one.
    const requestId = acceptedRequestId(req.headers[REQUEST_ID_HEADER], trustProxy) ?? newRequestId();
    res.setHeader('X-Request-Id', requestId);
    for (const [k, v] of securityHeaderList) res.setHeader(k, v);
    const url = new URL(req.url ?? '/', 'http://localhost');
    // One access line per request: the path only (a query string may hold a token), never cookies or bodies.
    res.once('close', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      metrics.observeRequest(url.pathname, res.statusCode, seconds);
      // The line's object is made only when it is written (`LOG_LEVEL` above `info` writes none).
      if (logger.isLevelEnabled('info')) {
        logger.info(
          { requestId, method: req.method ?? 'GET', path: url.pathname, status: res.statusCode, durationMs: Math.round(seconds * 1e6) / 1e3, ...(res.writableFinished ? {} : { aborted: true }) },
          'request',
        );
      }
    });
    let cacheCounted = false;
    const exchange: Exchange = {
      req,
      res,
      url,
      requestId,
      pageCacheResult: (result) => {
        if (cacheCounted) return;
        cacheCounted = true;
        metrics.pageCache(result);
      },
    };
    try {
      for (const handler of handlers) if (await handler(exchange)) return;
    } catch (err) {
      logError({ requestId, method: req.method ?? 'GET', path: url.pathname, error: err, where: 'server' });
      const locale = answerLanguage(req, url);
      if (healthPath(url)) {
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

  const metricsServer = metricsListener(config, answerMetrics, logError);

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
