/**
 * Serves the prerendered pages and built assets from `dist/client`. Hashed assets under `/_astro/`
 * are cached for a year (immutable); everything else is revalidated with an ETag. Text files are
 * sent brotli- or gzip-compressed when the build left a compressed copy and the browser accepts it.
 */
import { createReadStream, readFileSync, statSync, type Stats } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { negotiate, SUFFIX, type Encoding } from '../src/lib/http/compress.server';
import { unionPolicy } from '../src/lib/http/security';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.webmanifest': 'application/manifest+json',
  '.pdf': 'application/pdf',
};

function fileAt(path: string): Stats | null {
  try {
    const s = statSync(path);
    return s.isFile() ? s : null;
  } catch {
    return null;
  }
}

/**
 * The Content Security Policy of each prerendered page, as the build wrote it (`_headers.json`, from
 * Astro's `security.csp` with the node adapter's `staticHeaders`), and one policy allowing what any page
 * allows, for HTML the server cannot match to one page.
 */
export interface PagePolicies {
  byPath: ReadonlyMap<string, string>;
  /** `null` when the build wrote no policies (the base policy then applies). */
  any: string | null;
}

/** The path a page's policy is filed under: no trailing slash, `index.html` or `.html`. */
export function policyPath(urlPath: string): string {
  const p = urlPath.replace(/\/index\.html$/, '/').replace(/\.html$/, '').replace(/\/+$/, '');
  return p === '' ? '/' : p;
}

/** Reads `<dist>/_headers.json`; a missing or unreadable file means no page policies. */
export function loadPagePolicies(distDir: string): PagePolicies {
  const byPath = new Map<string, string>();
  try {
    const entries = JSON.parse(readFileSync(join(distDir, '_headers.json'), 'utf8')) as { pathname: string; headers: { key: string; value: string }[] }[];
    for (const e of entries) {
      const csp = e.headers.find((h) => h.key.toLowerCase() === 'content-security-policy')?.value;
      if (csp) byPath.set(policyPath(e.pathname), csp);
    }
  } catch {
    // No build policies: every answer gets the base policy.
  }
  return { byPath, any: unionPolicy([...byPath.values()]) };
}

/** Maps a URL path to a file inside `root`, or null (also for any attempt to leave `root`). */
export function resolveStatic(root: string, urlPath: string): { file: string; stats: Stats } | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const rel = normalize(decoded).replace(/^(\.\.(\/|\\|$))+/, '');
  const base = join(root, rel);
  if (base !== root && !base.startsWith(root.endsWith(sep) ? root : root + sep)) return null;
  const candidates = decoded.endsWith('/') ? [join(base, 'index.html')] : [base, join(base, 'index.html'), `${base}.html`];
  for (const file of candidates) {
    const stats = fileAt(file);
    if (stats) return { file, stats };
  }
  return null;
}

/** The precompressed copy of `file` to send for this request's Accept-Encoding, if any. */
function compressedCopy(req: IncomingMessage, file: string): { encoding: Encoding; file: string; stats: Stats } | null {
  const available = (['br', 'gzip'] as const).filter((e) => fileAt(file + SUFFIX[e]));
  const encoding = available.length ? negotiate(req.headers['accept-encoding'], available) : null;
  if (!encoding) return null;
  const copy = file + SUFFIX[encoding];
  return { encoding, file: copy, stats: fileAt(copy)! };
}

/**
 * Writes a static file (GET or HEAD), compressed when possible, honouring If-None-Match. An HTML page
 * is sent with its own Content Security Policy from `policies` when the build wrote one.
 */
export function sendFile(req: IncomingMessage, res: ServerResponse, file: string, stats: Stats, urlPath: string, status = 200, policies?: PagePolicies): void {
  if (policies && extname(file).toLowerCase() === '.html') {
    const policy = policies.byPath.get(policyPath(urlPath)) ?? policies.any;
    if (policy) res.setHeader('Content-Security-Policy', policy);
  }
  const copy = compressedCopy(req, file);
  const sent = copy ?? { file, stats };
  const etag = `W/"${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}${copy ? `-${copy.encoding}` : ''}"`;
  res.setHeader('Content-Type', TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream');
  res.setHeader('Cache-Control', urlPath.startsWith('/_astro/') ? 'public, max-age=31536000, immutable' : 'public, max-age=0, must-revalidate');
  res.setHeader('ETag', etag);
  if (copy) res.setHeader('Content-Encoding', copy.encoding);
  if (fileAt(file + SUFFIX.br) || fileAt(file + SUFFIX.gzip)) res.setHeader('Vary', 'Accept-Encoding');
  if (status === 200 && req.headers['if-none-match'] === etag) {
    res.statusCode = 304;
    res.end();
    return;
  }
  res.statusCode = status;
  res.setHeader('Content-Length', sent.stats.size);
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  createReadStream(sent.file).pipe(res);
}
