/**
 * Handler: everything else goes to Astro, compressed as it is sent (pages rendered for one person,
 * JSON answers; never lesson media: it is binary, and Range answers must stay byte-exact), with the
 * request's `locals`; what Astro does not know gets the not-found page.
 */
import { constants as zlibConstants } from 'node:zlib';
import type { IncomingMessage, ServerResponse } from 'node:http';
import compression from 'compression';
import type { Runtime } from '../../src/lib/runtime/runtime.server';
import type { ErrorLogEntry } from '../../src/lib/http/errors';
import { requestOrigin } from '../../src/lib/http/origin';
import type { PagePolicies, StaticSite } from '../static';
import { encrypted } from './host';
import { notFound } from './static-files';
import type { Handler } from './exchange';

/** Astro's middleware-mode request handler. */
export type AstroHandler = (req: IncomingMessage, res: ServerResponse, next?: (err?: unknown) => void, locals?: object) => void | Promise<void>;

/** Compression of server-rendered answers: brotli (fast setting) or gzip, never lesson media. */
const compressRendered = compression({
  threshold: 1024,
  // Quality 4 (fast) and a 256 KB window, which holds any page: brotli's default 4 MB window made each
  // response in flight hold megabytes of encoder memory that the allocator kept after the burst.
  brotli: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4, [zlibConstants.BROTLI_PARAM_LGWIN]: 18 } },
  filter: (req, res) => !(req.url ?? '').startsWith('/media/') && compression.filter(req, res),
});

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

export interface AstroOptions {
  runtime: Runtime;
  astroHandler: AstroHandler;
  /** The built site, whose not-found page answers what Astro does not. */
  site: StaticSite;
  policies: PagePolicies | undefined;
  trustProxy: boolean;
  logError: (entry: ErrorLogEntry) => void;
}

export function astro(opts: AstroOptions): Handler {
  return async ({ req, res, requestId, pageCacheResult }) => {
    await new Promise<void>((resolve, reject) => compressRendered(req as never, res as never, (err?: unknown) => (err ? reject(err) : resolve())));
    // Astro's `locals`: back-pressure for file streams, the request id, the origin a same-site change comes from.
    const locals = {
      runtime: opts.runtime,
      clientReady: clientReady(res),
      requestId,
      requestOrigin: requestOrigin(req.headers, encrypted(req), opts.trustProxy),
      logError: opts.logError,
      pageCacheResult,
    };
    await opts.astroHandler(req, res, () => notFound(req, res, opts.site, opts.policies), locals);
    return true;
  };
}
