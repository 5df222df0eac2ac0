/**
 * The one same-origin rule for HTTP mutations and the socket handshake: an `Origin` header must name
 * exactly the origin (scheme, host and port) the request was addressed to. Pure: callers pass headers.
 */

import { parseHost } from './public-origin';

/** Headers as plain values: Node's `IncomingHttpHeaders` or a fetch `Headers` read into an object. */
export type HeaderBag = Record<string, string | string[] | undefined>;

function first(value: string | string[] | undefined): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  // A proxy may send a list ("https, http"): the client-facing value is the first one.
  return v?.split(',')[0]?.trim() || undefined;
}

/**
 * The scheme the visitor used: `https:` on a TLS socket, or the `X-Forwarded-Proto` of a trusted proxy
 * (`trustProxy`, set only when a reverse proxy in front sets that header itself); otherwise `http:`.
 */
export function requestProtocol(headers: HeaderBag, encrypted: boolean, trustProxy: boolean): 'http:' | 'https:' {
  if (encrypted) return 'https:';
  if (trustProxy) {
    const proto = first(headers['x-forwarded-proto'])?.toLowerCase();
    if (proto === 'https' || proto === 'http') return `${proto}:`;
  }
  return 'http:';
}

/** The origin a request was addressed to (`scheme://host[:port]`), or `null` without a usable Host. */
export function requestOrigin(headers: HeaderBag, encrypted: boolean, trustProxy: boolean): string | null {
  // A Host header with a path, user info or anything else is not a host.
  const host = parseHost(first(headers.host));
  if (!host) return null;
  return new URL(`${requestProtocol(headers, encrypted, trustProxy)}//${host.hostname}${host.port ? `:${host.port}` : ''}`).origin;
}

/** True when `originHeader` names exactly `expected` (scheme, host and port); a missing or malformed one is not. */
export function sameOrigin(originHeader: string | null | undefined, expected: string | null): boolean {
  if (!originHeader || !expected || originHeader === 'null') return false;
  try {
    return new URL(originHeader).origin === new URL(expected).origin;
  } catch {
    return false;
  }
}
