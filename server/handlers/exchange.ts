/** One request as the server's handlers see it, and the shape of a handler. */
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  /** The address asked for (path and query; the host is not the request's). */
  url: URL;
  requestId: string;
  /** The Host the request is answered for (after a trusted proxy's `X-Forwarded-Host`): set by `hostCheck`. */
  host?: string | undefined;
  /** The public origin pages are built and kept under: set by `hostCheck`. */
  site?: string;
  /** Counts a page-cache lookup, once per request. */
  pageCacheResult: (result: 'hit' | 'miss') => void;
}

/** Answers the request (true), or leaves it to the next handler (false). */
export type Handler = (x: Exchange) => boolean | Promise<boolean>;
