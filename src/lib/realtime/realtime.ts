/**
 * Pure rules of the realtime socket: which handshakes may open a socket. The socket.io server itself
 * is in `socket.server.ts`, the tracking events in `tracking.server.ts`.
 */
import { requestOrigin, sameOrigin, type HeaderBag } from '../http/origin';

/** `Sec-Fetch-Site` values of a request a browser sent from the page's own origin (or typed in itself). */
const SAME_ORIGIN_FETCH = new Set(['same-origin', 'none']);

/**
 * May a socket.io handshake request (a polling request or the WebSocket upgrade) go ahead? The same
 * origin rule as HTTP: an `Origin` header must name exactly the origin the request was addressed to
 * (scheme, host and port; `X-Forwarded-Proto` only with `trustProxy`). Browsers always send `Origin` on
 * a WebSocket and on requests from another origin, so a request without one is refused when the browser
 * says it comes from elsewhere (`Sec-Fetch-Site: cross-site` or `same-site`), and let through otherwise:
 * it is a non-browser client, which has to hold the session cookie itself.
 */
export function handshakeAllowed(headers: HeaderBag, encrypted: boolean, trustProxy: boolean): boolean {
  const origin = headers.origin;
  if (Array.isArray(origin)) return false;
  if (origin === undefined) {
    const site = headers['sec-fetch-site'];
    return site === undefined || (typeof site === 'string' && SAME_ORIGIN_FETCH.has(site.trim().toLowerCase()));
  }
  return sameOrigin(origin, requestOrigin(headers, encrypted, trustProxy));
}
