/**
 * Handler (answers nothing): the site's files are the same for everyone; anything else answered to a
 * request with a session stays private (`Cache-Control: private, no-store`), whoever writes it.
 */
import type { ServerResponse } from 'node:http';
import { hasSessionCookie, isPrivateCacheControl, PRIVATE_CACHE_CONTROL } from '../../src/lib/http/page-cache';
import type { Handler } from './exchange';

type WriteHead = ServerResponse['writeHead'];

/**
 * Makes whatever is answered carry `Cache-Control: private, no-store` unless it already keeps itself
 * out of shared caches. Every way of sending headers (an explicit `writeHead` or the implicit one of
 * `write`/`end`) goes through `writeHead`, so the header is settled there, after the handler's own.
 */
export function keepPrivate(res: ServerResponse): void {
  const writeHead = res.writeHead as (this: ServerResponse, status: number, reason?: string) => ServerResponse;
  // Runs for every answer to a session: the headers are handed on without copying them more than once.
  res.writeHead = function (this: ServerResponse, status: number, a?: unknown, b?: unknown) {
    const reason = typeof a === 'string' ? a : undefined;
    const given = typeof a === 'object' && a !== null ? a : typeof b === 'object' && b !== null ? b : undefined;
    if (Array.isArray(given)) setHeaderList(res, given);
    else if (given) {
      for (const [k, v] of Object.entries(given)) if (v !== undefined) res.setHeader(k, v as string | string[]);
    }
    if (!isPrivateCacheControl(String(res.getHeader('cache-control') ?? ''))) res.setHeader('Cache-Control', PRIVATE_CACHE_CONTROL);
    return reason === undefined ? writeHead.call(res, status) : writeHead.call(res, status, reason);
  } as WriteHead;
}

/**
 * Sets a header list (`[name, value, …]` or `[[name, value], …]`) as Node's own `writeHead` takes it: its
 * values replace any set before under the same name, and a name given twice keeps both.
 */
function setHeaderList(res: ServerResponse, list: unknown[]): void {
  const pairs = Array.isArray(list[0]);
  const count = pairs ? list.length : list.length / 2;
  const name = (i: number) => String(pairs ? (list[i] as unknown[])[0] : list[2 * i]);
  const value = (i: number) => String(pairs ? (list[i] as unknown[])[1] : list[2 * i + 1]);
  for (let i = 0; i < count; i++) res.removeHeader(name(i));
  for (let i = 0; i < count; i++) res.appendHeader(name(i), value(i));
}

export const privateSessions: Handler = ({ req, res }) => {
  if (hasSessionCookie(req.headers.cookie)) keepPrivate(res);
  return false;
};
