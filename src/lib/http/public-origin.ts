/**
 * The one rule for the site's public origin, from which every absolute URL is built (e-mail links,
 * canonical and Open Graph URLs, hreflang, sitemap, robots, JSON-LD) and by which shared pages are
 * cached. A Host header is a stranger's input: it is believed only when it names an allowed host.
 * Pure: callers pass the settings (`readOriginSettings` in the config) and the request's host.
 */

/** Hosts accepted when `ALLOWED_HOSTS` is not set: this machine, on any port. */
export const DEFAULT_ALLOWED_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/** What decides the public origin. */
export interface OriginSettings {
  /** `PUBLIC_URL`'s origin (`https://academy.example`), or `null` when it is not set. */
  publicUrl: string | null;
  /**
   * Host names a request may be addressed to (`ALLOWED_HOSTS`): `name` (any port), `name:port`, or
   * `*.domain` (any subdomain). `PUBLIC_URL`'s host is always allowed besides these.
   */
  allowedHosts: readonly string[];
  /** The port the server listens on: the fallback origin is `http://localhost:PORT`. */
  port: number;
}

/** The request side of the rule: the Host it named and the scheme it came over. */
export interface RequestAddress {
  host: string | null | undefined;
  protocol: 'http:' | 'https:';
}

/** `hostname` (lower case, IPv6 in brackets) and `port` ('' for none) of a Host value, or null when it is not a bare host. */
export function parseHost(host: string | null | undefined): { hostname: string; port: string } | null {
  const text = host?.trim();
  if (!text || text.length > 300 || /[\s/\\@?#]/.test(text)) return null;
  try {
    const u = new URL(`http://${text}`);
    if (u.pathname !== '/' || u.username || u.password || u.search || u.hash) return null;
    // The port as written (URL drops a default port 80): `localhost:80` and `localhost` stay apart.
    const written = /:(\d+)$/.exec(text)?.[1];
    return { hostname: u.hostname, port: written !== undefined ? String(Number(written)) : '' };
  } catch {
    return null;
  }
}

/** True when one `ALLOWED_HOSTS` entry (`name`, `name:port`, `*.domain`) is a well-formed pattern. */
export function validHostPattern(pattern: string): boolean {
  const p = pattern.trim();
  if (p.startsWith('*.')) return parseHost(p.slice(2)) !== null && !p.slice(2).includes(':');
  return parseHost(p) !== null;
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

/** True when a request's Host names `PUBLIC_URL`'s host or one of the allowed hosts. */
export function hostAllowed(host: string | null | undefined, settings: OriginSettings): boolean {
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
  if (settings.publicUrl) return new URL(settings.publicUrl).origin;
  if (request && hostAllowed(request.host, settings)) {
    const { hostname, port } = parseHost(request.host)!;
    return new URL(`${request.protocol}//${hostname}${port ? `:${port}` : ''}`).origin;
  }
  return fallbackOrigin(settings.port);
}
