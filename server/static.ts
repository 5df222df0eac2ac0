/**
 * Serves the prerendered pages and built assets from `dist/client`. Hashed assets under `/_astro/`
 * are cached for a year (immutable); everything else is revalidated with an ETag. Text files are
 * sent brotli- or gzip-compressed when the build left a compressed copy and the browser accepts it.
 */
import { createReadStream, readdirSync, readFileSync, statSync, type Dirent, type Stats } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, posix } from 'node:path';
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

/** A file of the built site: where it is, its size and time, and its body once sent (small files only). */
interface SiteFile {
  /** Its path inside the site (`_astro/app.js`). */
  key: string;
  file: string;
  stats: Stats;
  body?: Buffer;
}

/** The built site's files, listed once (the build does not change under a running server). */
export interface StaticSite {
  /** The file a URL path names (itself, its `index.html` or its `.html`), or null, also for any attempt to leave the site. */
  resolve(urlPath: string): SiteFile | null;
  /** Writes a file of the site (GET or HEAD), compressed when possible, honouring If-None-Match; an HTML page with its own Content Security Policy. */
  send(req: IncomingMessage, res: ServerResponse, hit: SiteFile, urlPath: string, status?: number, policies?: PagePolicies): void;
}

/**
 * Files up to this size are kept in memory once sent (the build's scripts, styles and icons, compressed:
 * about 0.5 MB in all); larger ones are streamed from the disk each time.
 */
const KEPT_BODY_BYTES = 256 * 1024;

/**
 * Lists the files under `root` once. Every request the server receives asks the site first: with the list
 * in memory, a page, an action or a media request costs no file-system call here (it used to cost up to
 * three failed `stat`s, each a thrown error), and a script or style already sent is answered from memory.
 */
export function staticSite(root: string): StaticSite {
  const files = new Map<string, SiteFile>();
  const walk = (dir: string, prefix: string) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // no such folder: an empty site
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      // Real folders only are entered (a link to a folder could loop); a file, or a link to one, is listed.
      if (entry.isDirectory()) {
        walk(path, `${prefix}${entry.name}/`);
        continue;
      }
      const stats = statSync(path, { throwIfNoEntry: false });
      if (stats?.isFile()) files.set(`${prefix}${entry.name}`, { key: `${prefix}${entry.name}`, file: path, stats });
    }
  };
  walk(root, '');

  const copyOf = (key: string, encoding: Encoding) => files.get(key + SUFFIX[encoding]);

  /** The precompressed copy of a file to send for this request's Accept-Encoding, if any. */
  const compressedCopy = (req: IncomingMessage, key: string): { encoding: Encoding; hit: SiteFile } | null => {
    const available = (['br', 'gzip'] as const).filter((e) => copyOf(key, e));
    const encoding = available.length ? negotiate(req.headers['accept-encoding'], available) : null;
    return encoding ? { encoding, hit: copyOf(key, encoding)! } : null;
  };

  return {
    resolve(urlPath) {
      let decoded: string;
      try {
        decoded = decodeURIComponent(urlPath);
      } catch {
        return null;
      }
      if (decoded.includes('\0')) return null;
      // The path inside the site, without leading slashes or any way up (a key of the list never has them).
      const rel = posix.normalize(decoded).replace(/^(\.\.(\/|$))+/, '').replace(/^\/+/, '').replace(/\/+$/, '');
      if (rel.split('/').includes('..')) return null;
      const inside = (name: string) => (rel ? `${rel}/${name}` : name);
      const candidates = decoded.endsWith('/') || rel === '' ? [inside('index.html')] : [rel, inside('index.html'), `${rel}.html`];
      for (const key of candidates) {
        const hit = files.get(key);
        if (hit) return hit;
      }
      return null;
    },
    send(req, res, hit, urlPath, status = 200, policies) {
      const { key, file, stats } = hit;
      if (policies && extname(file).toLowerCase() === '.html') {
        const policy = policies.byPath.get(policyPath(urlPath)) ?? policies.any;
        if (policy) res.setHeader('Content-Security-Policy', policy);
      }
      const copy = compressedCopy(req, key);
      const sent = copy?.hit ?? hit;
      const etag = `W/"${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}${copy ? `-${copy.encoding}` : ''}"`;
      res.setHeader('Content-Type', TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream');
      res.setHeader('Cache-Control', urlPath.startsWith('/_astro/') ? 'public, max-age=31536000, immutable' : 'public, max-age=0, must-revalidate');
      res.setHeader('ETag', etag);
      if (copy) res.setHeader('Content-Encoding', copy.encoding);
      if (copyOf(key, 'br') || copyOf(key, 'gzip')) res.setHeader('Vary', 'Accept-Encoding');
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
      if (sent.stats.size <= KEPT_BODY_BYTES) {
        try {
          sent.body ??= readFileSync(sent.file);
        } catch (err) {
          res.destroy(err as Error);
          return;
        }
        res.end(sent.body);
        return;
      }
      createReadStream(sent.file).pipe(res);
    },
  };
}
