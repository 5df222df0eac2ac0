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

export const privateSessions: Handler = ({ req, res }) => {
  if (hasSessionCookie(req.headers.cookie)) keepPrivate(res);
  return false;
};
