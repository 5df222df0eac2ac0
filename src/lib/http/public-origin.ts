/**
 * The one rule for the site's public origin, from which every absolute URL is built (e-mail links,
 * canonical and Open Graph URLs, hreflang, sitemap, robots, JSON-LD) and by which shared pages are
 * cached. A Host header is a stranger's input: it is believed only when it names an allowed host.
 * Pure: callers pass the settings (`config.origin`) and the request's host. The settings and the
 * syntax of a Host value belong to the configuration, which checks `ALLOWED_HOSTS` with them.
 */
import { BoundedCache } from '../bounded-cache';
import { parseHost, type OriginSettings } from '../config/hosts';

export { DEFAULT_ALLOWED_HOSTS, parseHost, validHostPattern, type OriginSettings } from '../config/hosts';

/** The request side of the rule: the Host it named and the scheme it came over. */
export interface RequestAddress {
  host: string | null | undefined;
  protocol: 'http:' | 'https:';
}

function matches(pattern: string, host: { hostname: string; port: string }): boolean {
  const p = pattern.trim().toLowerCase();
  if (p.startsWith('*.')) {
    const domain = p.slice(1);
    return host.hostname.endsWith(domain) && host.hostname.length > domain.length;
  }
  const want = parseHost(p);
  if (!want || want.hostname !== host.hostname) return false;
  return want.port === '' || want.port === host.port;
}

/**
 * What was already decided for a settings object (`hostAllowed` by Host, `publicOrigin` by
 * `protocol//host`): every request asks again, with one of the same few hosts. Bounded, and only for
 * keys a Host value can make (`parseHost` refuses one over 300 characters; `https://` comes before it).
 */
const allowedByHost = new WeakMap<OriginSettings, BoundedCache<string, boolean>>();
const originByRequest = new WeakMap<OriginSettings, BoundedCache<string, string>>();
const LONGEST_KEPT_KEY = 'https://'.length + 300;

function remembered<V>(kind: WeakMap<OriginSettings, BoundedCache<string, V>>, settings: OriginSettings, key: string, decide: () => V): V {
  if (key.length > LONGEST_KEPT_KEY) return decide();
  let known = kind.get(settings);
  if (!known) kind.set(settings, (known = new BoundedCache<string, V>(256)));
  const hit = known.get(key);
  if (hit !== undefined) return hit;
  const value = decide();
  known.set(key, value);
  return value;
}

/** True when a request's Host names `PUBLIC_URL`'s host or one of the allowed hosts. */
export function hostAllowed(host: string | null | undefined, settings: OriginSettings): boolean {
  if (!host) return false;
  return remembered(allowedByHost, settings, host, () => hostAllowedOnce(host, settings));
}

function hostAllowedOnce(host: string, settings: OriginSettings): boolean {
  const parsed = parseHost(host);
  if (!parsed) return false;
  if (settings.publicUrl) {
    const pub = new URL(settings.publicUrl);
    const defaultPort = pub.protocol === 'https:' ? '443' : '80';
    const port = parsed.port === defaultPort ? '' : parsed.port;
    if (pub.hostname === parsed.hostname && pub.port === port) return true;
  }
  return settings.allowedHosts.some((p) => matches(p, parsed));
}

/** The origin used when no request says better: `http://localhost:PORT`. */
export function fallbackOrigin(port: number): string {
  return `http://localhost:${port}`;
}

/**
 * The public origin for a request: `PUBLIC_URL` when set; otherwise the request's own origin when its
 * Host is allowed; otherwise (a foreign Host, or no request at all, as when pages are prerendered at
 * build time) `http://localhost:PORT`. Never whatever a Host header says.
 */
export function publicOrigin(settings: OriginSettings, request: RequestAddress | null): string {
  if (!request?.host) return publicOriginOnce(settings, request);
  return remembered(originByRequest, settings, `${request.protocol}//${request.host}`, () => publicOriginOnce(settings, request));
}

function publicOriginOnce(settings: OriginSettings, request: RequestAddress | null): string {
  if (settings.publicUrl) return new URL(settings.publicUrl).origin;
  if (request && hostAllowed(request.host, settings)) {
    const { hostname, port } = parseHost(request.host)!;
    return new URL(`${request.protocol}//${hostname}${port ? `:${port}` : ''}`).origin;
  }
  return fallbackOrigin(settings.port);
}
