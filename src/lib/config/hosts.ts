/**
 * The syntax of a Host value and the public-origin settings (`PUBLIC_URL`, `ALLOWED_HOSTS`, `PORT`):
 * the configuration checks `ALLOWED_HOSTS` with it, and the public-origin rule (`http/public-origin.ts`)
 * matches requests with it. Pure, no imports.
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

