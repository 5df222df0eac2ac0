/**
 * Security headers sent with every response of the production server, and the Content Security Policy.
 *
 * Scripts run only from our own files or, inline, when the page's policy lists their SHA-256 hash:
 * Astro (`security.csp` in `astro.config.mjs`) hashes its island loader and the scripts it inlines,
 * pages add the hash of their own inline scripts (the pre-paint boot script), and the build writes each
 * prerendered page's policy to `_headers.json`, which the server sends (`sitePolicy`). There is no
 * `'unsafe-inline'` for scripts, so an injected `<script>` or `onclick=` does not run. Styles keep
 * `'unsafe-inline'` (components and islands set `style` attributes).
 */

/** A directive Astro lets a configuration set (it keeps `script-src` and `style-src` for itself). */
type Directive = `${'default-src' | 'img-src' | 'media-src' | 'font-src' | 'connect-src' | 'frame-ancestors' | 'base-uri' | 'form-action' | 'object-src'} ${string}`;

/** Every directive besides `script-src` and `style-src`: the same on every response. */
export const CSP_DIRECTIVES: readonly Directive[] = [
  "default-src 'self'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  "font-src 'self'",
  "connect-src 'self' ws: wss:",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "object-src 'none'",
];

/** Style sources (Astro's `styleDirective.resources`). */
export const STYLE_SOURCES: readonly string[] = ["'self'", "'unsafe-inline'"];

/** The policy of a response that carries no page's own (JSON, media, files): no inline script at all. */
export const CONTENT_SECURITY_POLICY = [...CSP_DIRECTIVES, "script-src 'self'", `style-src ${STYLE_SOURCES.join(' ')}`].join('; ');

/** A policy as directive name → sources, in the order first seen. */
function parsePolicy(policy: string): Map<string, string[]> {
  const directives = new Map<string, string[]>();
  for (const part of policy.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (!name) continue;
    const key = name.toLowerCase();
    directives.set(key, [...new Set([...(directives.get(key) ?? []), ...sources])]);
  }
  return directives;
}

/**
 * One policy allowing what any of `policies` allows, directive by directive (used for answers that are
 * not one known page, such as the error pages Astro reads from disk). Every page's policy carries the
 * same directives; only the script hashes differ, and those are all our own scripts.
 */
export function unionPolicy(policies: readonly string[]): string | null {
  if (policies.length === 0) return null;
  const merged = new Map<string, string[]>();
  for (const p of policies) {
    for (const [name, sources] of parsePolicy(p)) merged.set(name, [...new Set([...(merged.get(name) ?? []), ...sources])]);
  }
  return [...merged].map(([name, sources]) => [name, ...sources].join(' ')).join('; ');
}

/** True when a policy lets inline scripts run without a hash or nonce (`'unsafe-inline'` in the directive that governs scripts). */
export function allowsInlineScripts(policy: string): boolean {
  const d = parsePolicy(policy);
  const scripts = d.get('script-src-elem') ?? d.get('script-src') ?? d.get('default-src') ?? [];
  return scripts.includes("'unsafe-inline'") && !scripts.some((s) => /^'(sha(256|384|512)-|nonce-|strict-dynamic)/.test(s));
}

/** Header name → value, applied before any handler writes its own. `csp`: the site's policy (`sitePolicy`). */
export function securityHeaders(production: boolean, csp: string = CONTENT_SECURITY_POLICY): Record<string, string> {
  return {
    'Content-Security-Policy': csp,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'X-Frame-Options': 'DENY',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=()',
    'Cross-Origin-Opener-Policy': 'same-origin',
    ...(production ? { 'Strict-Transport-Security': 'max-age=31536000; includeSubDomains' } : {}),
  };
}
