/**
 * Handler: a Host the academy does not answer to is refused (421) before anything is rendered or
 * cached, so no page, link or e-mail can ever name it. Settles what the forwarded headers say first.
 */
import type { IncomingMessage } from 'node:http';
import { requestProtocol } from '../../src/lib/http/origin';
import { hostAllowed, publicOrigin, type OriginSettings } from '../../src/lib/http/public-origin';
import { messages } from '../../src/i18n';
import { answerLanguage, firstValue, plainAnswer } from './answers';
import type { Handler } from './exchange';

/** Headers only a reverse proxy may set; without `TRUST_PROXY` anyone could, so they are dropped. */
const FORWARDED = ['forwarded', 'x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host', 'x-forwarded-port', 'x-real-ip'];

/**
 * Makes the request's headers say what the server believes, before anything reads them (Astro trusts
 * `X-Forwarded-Proto` and `-For` through `security.allowedDomains`): without a trusted proxy every
 * forwarded header is removed; behind one, `X-Forwarded-Host` becomes the Host. Returns the host.
 */
export function settleForwardedHeaders(req: IncomingMessage, trustProxy: boolean): string | undefined {
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

/** True when the request came over TLS to this process. */
export function encrypted(req: IncomingMessage): boolean {
  return 'encrypted' in req.socket && Boolean(req.socket.encrypted);
}

export function hostCheck(origin: OriginSettings, trustProxy: boolean): Handler {
  return (x) => {
    const host = settleForwardedHeaders(x.req, trustProxy);
    if (!hostAllowed(host, origin)) {
      const locale = answerLanguage(x.req, x.url);
      plainAnswer(x.res, 421, messages(locale).unknownHost, locale);
      return true;
    }
    x.host = host;
    x.site = publicOrigin(origin, { host, protocol: requestProtocol(x.req.headers, encrypted(x.req), trustProxy) });
    return false;
  };
}
