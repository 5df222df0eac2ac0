/**
 * The production HTTP server: health check, static files from `dist/client`, then Astro's handler,
 * with socket.io on the same port and security headers on every response.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { sql } from 'drizzle-orm';
import type { Server as SocketServer } from 'socket.io';
import type { DbHandle } from '../src/lib/db/client';
import { securityHeaders } from '../src/lib/http/security';
import { cacheableRequest, hasSessionCookie, pageKey, sharedPageCache } from '../src/lib/http/page-cache';
import { catalogVersion } from '../src/lib/catalog/catalog.server';
import { attachRealtime } from '../src/lib/realtime/socket.server';
import { resolveStatic, sendFile } from './static';
import compression from 'compression';
import { compressBody, negotiate } from '../src/lib/http/compress.server';

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
  filter: (req, res) => !(req.url ?? '').startsWith('/media/') && compression.filter(req, res),
});

export interface AppOptions {
  db: DbHandle;
  astroHandler: AstroHandler;
  /** The built client folder (`dist/client`). */
  clientDir: string;
  production: boolean;
}

export interface App {
  server: Server;
  io: SocketServer;
  /** Stops accepting, lets open requests finish, closes sockets; the caller closes the database. */
  close(timeoutMs?: number): Promise<void>;
}

/** The not-found page's own files are never served with 200. */
const ERROR_PAGE = /^\/(en\/)?404(\.html|\/)?$/;

function notFound(req: IncomingMessage, res: ServerResponse, clientDir: string): void {
  const english = /^\/en(\/|$)/.test(req.url ?? '');
  const page = resolveStatic(clientDir, english ? '/en/404/' : '/404.html');
  if (!page) {
    res.statusCode = 404;
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    res.end('404');
    return;
  }
  sendFile(req, res, page.file, page.stats, '/404', 404);
}

/** Builds the server (not yet listening). */
export function createApp(opts: AppOptions): App {
  const headers = securityHeaders(opts.production);
  const server = createServer(async (req, res) => {
    for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
    const url = new URL(req.url ?? '/', 'http://localhost');
    try {
      if (url.pathname === '/healthz') {
        await opts.db.db.execute(sql`select 1`);
        res.setHeader('Content-Type', 'application/json');
        res.setHeader('Cache-Control', 'no-store');
        res.end(JSON.stringify({ status: 'ok', db: opts.db.kind, sockets: io.engine.clientsCount }));
        return;
      }
      if (req.method === 'GET' || req.method === 'HEAD') {
        const hit = ERROR_PAGE.test(url.pathname) ? null : resolveStatic(opts.clientDir, url.pathname);
        if (hit) {
          sendFile(req, res, hit.file, hit.stats, url.pathname);
          return;
        }
      }
      // A page the Astro middleware kept for visitors is answered here, without running Astro at all.
      if (cacheableRequest(req.method ?? 'GET', url, hasSessionCookie(req.headers.cookie))) {
        const hit = sharedPageCache().get(pageKey(url), catalogVersion());
        if (hit) {
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
      await opts.astroHandler(req, res, () => notFound(req, res, opts.clientDir), { clientReady: clientReady(res) });
    } catch (err) {
      console.error(`[server] ${req.method} ${url.pathname}: ${(err as Error).message}`);
      if (!res.headersSent) {
        res.statusCode = url.pathname === '/healthz' ? 503 : 500;
        res.setHeader('Content-Type', 'text/plain; charset=utf-8');
      }
      res.end(url.pathname === '/healthz' ? JSON.stringify({ status: 'unavailable' }) : 'Internal error');
    }
  });
  const io = attachRealtime(server);

  const close = (timeoutMs = 10_000) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        server.closeAllConnections();
        resolve();
      }, timeoutMs);
      timer.unref();
      server.close(() => {
        clearTimeout(timer);
        resolve();
      });
      io.local.disconnectSockets(true);
      io.engine.close();
      server.closeIdleConnections();
    });

  return { server, io, close };
}
