/**
 * Handler: a page kept for this request's audience (visitors, or everyone with this session's access)
 * or for this very reader is answered here, without running Astro at all, compressed as the browser
 * accepts (each kept page compressed once). A session Astro would refuse (unknown, expired) goes to
 * Astro, which drops its cookie; so does one that cannot be checked now (the database out of reach),
 * whose error page says the academy is busy.
 */
import type { ServerResponse } from 'node:http';
import type { Runtime } from '../../src/lib/runtime/runtime.server';
import { answer, cacheableRequest, encodedBody, hasSessionCookie, lookUp, SESSION_COOKIE, type KeptAnswer } from '../../src/lib/http/page-cache';
import { negotiate } from '../../src/lib/http/compress.server';
import { cookieValue } from '../../src/lib/http/cookies';
import { firstHeader } from './answers';
import type { Exchange, Handler } from './exchange';

/** The answer's headers with `Accept-Encoding` added to its `Vary` (and none of `omit`). */
function varyOnEncoding(headers: [string, string][], omit: RegExp): string[] {
  // One list, built in one pass: this runs for every answer from the cache.
  const flat: string[] = [];
  let vary: string | undefined;
  for (const [k, v] of headers) {
    if (k.toLowerCase() === 'vary') vary = v;
    else if (!omit.test(k)) flat.push(k, v);
  }
  flat.push('vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
  return flat;
}

/** Sends a kept answer (`body`: the page for this reader, also for HEAD's Content-Length). */
async function send(x: Exchange, res: ServerResponse, kept: KeptAnswer, body: string): Promise<void> {
  if (kept.status === 304) {
    res.writeHead(304, varyOnEncoding(kept.headers, /^$/));
    res.end();
    return;
  }
  const encoding = negotiate(x.req.headers['accept-encoding']);
  const bytes = encoding ? await encodedBody(kept, body, encoding) : body;
  const headers = varyOnEncoding(kept.headers, /^(content-length|content-encoding)$/i);
  if (encoding) headers.push('content-encoding', encoding);
  headers.push('content-length', String(Buffer.byteLength(bytes)));
  res.writeHead(kept.status, headers);
  res.end(kept.body === null ? undefined : bytes);
}

export function cachedPage(runtime: Runtime): Handler {
  return async (x) => {
    const { req, url } = x;
    if (!cacheableRequest(req.method ?? 'GET', url)) return false;
    const cookie = hasSessionCookie(req.headers.cookie);
    const session = cookie ? await runtime.sessions.read(cookieValue(req.headers.cookie, SESSION_COOKIE)).catch(() => undefined) : null;
    if (cookie && !session) return false;
    // Pages are kept per public origin, the one their absolute URLs were built with.
    const lookup = await lookUp(runtime, { url: new URL(url.pathname + url.search, x.site), session: session ?? null, cookies: req.headers.cookie ?? null });
    if (!lookup.hit) return false;
    x.pageCacheResult('hit');
    const kept = answer({ method: req.method ?? 'GET', ifNoneMatch: firstHeader(req.headers['if-none-match']), personal: lookup.personal }, lookup.hit, 'hit');
    await send(x, x.res, kept, lookup.hit.body);
    return true;
  };
}
