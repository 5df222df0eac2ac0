/**
 * Compressed answers. Built text assets are compressed once at build time (`precompress`, run by the
 * build integration): `x.js` gets `x.js.br` and `x.js.gz` beside it, and the static server sends the
 * best one the browser accepts. Pages kept in the shared page cache are compressed once per kept page.
 * Without this a first visit to the home page moved about 560 KB instead of about 150 KB.
 */
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';
import { promisify } from 'node:util';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';

/** Content codings we produce, best first. */
export type Encoding = 'br' | 'gzip';

/** File suffix of each coding's precompressed sibling. */
export const SUFFIX: Record<Encoding, string> = { br: '.br', gzip: '.gz' };

/**
 * The best coding the `Accept-Encoding` header allows among `available` (br before gzip), or null for
 * the identity. Honours `q=0` (refused) and `*`.
 */
export function negotiate(header: string | string[] | undefined, available: readonly Encoding[] = ['br', 'gzip']): Encoding | null {
  const raw = Array.isArray(header) ? header.join(',') : (header ?? '');
  if (!raw.trim()) return null;
  const q = new Map<string, number>();
  for (const part of raw.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const qp = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = qp ? Number(qp.slice(2)) : 1;
    q.set(name, Number.isFinite(value) ? value : 0);
  }
  for (const enc of available) {
    const weight = q.get(enc) ?? q.get('*') ?? 0;
    if (weight > 0) return enc;
  }
  return null;
}

/** Extensions worth compressing (images, video and fonts are compressed already). */
const COMPRESSIBLE = new Set(['.html', '.css', '.js', '.mjs', '.json', '.xml', '.txt', '.svg', '.webmanifest', '.map']);
/** Below this, compression saves less than a packet. */
const MIN_BYTES = 1024;

/** True for a file type we compress. */
export function compressible(file: string): boolean {
  return COMPRESSIBLE.has(extname(file).toLowerCase());
}

/**
 * Writes `.br` (quality 11) and `.gz` (level 9) siblings of every compressible file under `dir` that
 * shrinks by compression. Returns how many files it compressed and the bytes before and after (brotli).
 */
export function precompress(dir: string): { files: number; before: number; after: number } {
  const totals = { files: 0, before: 0, after: 0 };
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      const s = statSync(path);
      if (s.isDirectory()) walk(path);
      else if (compressible(path) && s.size >= MIN_BYTES) {
        const body = readFileSync(path);
        const br = brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } });
        if (br.length >= body.length) continue;
        writeFileSync(path + SUFFIX.br, br);
        writeFileSync(path + SUFFIX.gzip, gzipSync(body, { level: 9 }));
        totals.files += 1;
        totals.before += body.length;
        totals.after += br.length;
      }
    }
  };
  walk(dir);
  return totals;
}

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/**
 * Compresses a body for one response (pages kept in the page cache; quality chosen for speed). The
 * brotli window is cut to the body's size: the default 4 MB window costs memory in every compressing
 * thread for nothing on pages of tens of kilobytes. `each`: a body made for one answer only, compressed
 * at brotli's fast setting (as pages rendered per request are); `once` (default): a body compressed
 * once and sent many times, which earns a denser setting.
 */
export function compressBody(body: string | Buffer, encoding: Encoding, use: 'once' | 'each' = 'once'): Promise<Buffer> {
  const bytes = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  if (encoding === 'gzip') return gz(body, { level: 6, memLevel: 8 });
  return brotli(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: use === 'each' ? 4 : 9,
      [constants.BROTLI_PARAM_LGWIN]: brotliWindow(bytes),
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes,
    },
  });
}

/** The smallest brotli window (log2, 16 to 22) that holds `bytes`. */
export function brotliWindow(bytes: number): number {
  return Math.min(22, Math.max(16, Math.ceil(Math.log2(bytes + 1))));
}
