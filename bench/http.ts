/**
 * HTTP benchmark (not a test: it asserts nothing). Starts the production server on a fresh PGlite
 * database and prints, for a prerendered page, a server-rendered catalogue page and /healthz:
 * requests per second (median of per-second samples), latency p50/p99 at a fixed concurrency,
 * and the bytes of HTML, CSS and JS a first visit to each page downloads (compressed, as browsers get them).
 *
 *   npm run bench                      (defaults: 50 connections, 8 s per target)
 *   DIST_DIR=dist-other npm run bench  (serve another build folder)
 *   BENCH_CONNECTIONS=100 BENCH_SECONDS=15 npm run bench
 *
 * Then it runs the socket load benchmark (`bench/socket.ts`, `npm run bench:socket`; BENCH_VIEWERS and
 * BENCH_SOCKET_SECONDS change it, BENCH_SKIP_SOCKET=1 skips it).
 */
import { spawnSync } from 'node:child_process';
import autocannon from 'autocannon';
import { startBenchServer } from './server';

const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const port = Number(process.env.BENCH_PORT ?? 4510);

/** The pages measured: what each one is and its path. */
const targets = [
  { name: 'prerendered page', path: '/about-us' },
  { name: 'home (catalogue)', path: '/' },
  { name: 'home, English', path: '/en/' },
  { name: 'catalogue', path: '/courses' },
  { name: 'catalogue filtered', path: '/courses?category=3' },
  { name: 'course details', path: '/courses-details/31' },
  { name: 'course details, English', path: '/en/courses-details/6' },
  { name: 'health check', path: '/healthz' },
];

const { base, stop } = await startBenchServer(port);

/**
 * What a first visit to a page downloads: the HTML, its stylesheets, and every script it runs,
 * including islands (`component-url`, `renderer-url`) and the chunks they import, followed through
 * the built files. Bytes as sent to a browser that accepts brotli (and as stored, uncompressed).
 */
async function weight(path: string) {
  const get = async (url: string) => {
    const r = await fetch(url, { headers: { 'accept-encoding': 'br, gzip' } });
    const text = await r.text();
    // fetch decodes the body: the bytes on the wire are the Content-Length of an encoded answer.
    const sent = r.headers.get('content-encoding') ? Number(r.headers.get('content-length')) : Buffer.byteLength(text);
    return { text, sent, raw: Buffer.byteLength(text) };
  };
  const page = await get(base + path);
  const attr = (text: string, re: RegExp) => [...text.matchAll(re)].map((m) => m[1]!);
  const css = attr(page.text, /<link[^>]+rel="stylesheet"[^>]+href="([^"]+)"/g);
  const queue = [
    ...attr(page.text, /<script[^>]+src="([^"]+)"/g),
    ...attr(page.text, /<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g),
    ...attr(page.text, /(?:component|renderer)-url="([^"]+)"/g),
  ].map((u) => new URL(u, base).href);
  const seen = new Set<string>();
  const js = { sent: 0, raw: 0 };
  while (queue.length) {
    const url = queue.shift()!;
    if (seen.has(url)) continue;
    seen.add(url);
    const file = await get(url);
    js.sent += file.sent;
    js.raw += file.raw;
    // Static imports of a built chunk (`from"./x.js"`, `import"./x.js"`); dynamic ones load later, on use.
    for (const spec of attr(file.text, /(?:from|import)\s*"(\.{1,2}\/[^"]+\.js)"/g)) queue.push(new URL(spec, url).href);
  }
  const styles = await Promise.all(css.map((u) => get(new URL(u, base).href)));
  const inlineJs = attr(page.text, /<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g).reduce((a, s) => a + Buffer.byteLength(s), 0);
  return {
    html: page.sent,
    css: styles.reduce((a, f) => a + f.sent, 0),
    js: js.sent + inlineJs,
    jsRaw: js.raw + inlineJs,
    files: css.length + seen.size,
  };
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const rows: string[][] = [];
for (const t of targets) {
  await autocannon({ url: base + t.path, connections: 10, duration: 1 }); // warm-up
  const r = await autocannon({ url: base + t.path, connections, duration: seconds });
  const w = t.path === '/healthz' ? null : await weight(t.path);
  rows.push([
    t.name,
    t.path,
    String(Math.round(r.requests.p50)),
    `${r.latency.p50} ms`,
    `${r.latency.p99} ms`,
    String(r.non2xx + r.errors),
    w ? kb(w.html) : '-',
    w ? kb(w.css) : '-',
    w ? `${kb(w.js)} (${kb(w.jsRaw)} raw, ${w.files} files)` : '-',
  ]);
}
await stop();

const head = ['target', 'path', 'req/s (median)', 'p50', 'p99', 'errors', 'HTML (br)', 'CSS (br)', 'JS (br) at load'];
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
console.log(`\nHTTP benchmark: ${connections} connections, ${seconds} s per target, PGlite, one process, ${new Date().toISOString()}`);
console.log(line(head));
for (const r of rows) console.log(line(r));
const stat = Number(rows[0]![2]);
for (const r of rows.slice(1, -1)) console.log(`${r[0]}: ${(Number(r[2]) / stat).toFixed(2)} × the prerendered page's rate`);

if (!process.env.BENCH_SKIP_SOCKET) {
  console.log('');
  const socket = spawnSync('node_modules/.bin/tsx', ['bench/socket.ts'], { stdio: 'inherit' });
  if (socket.status !== 0) process.exitCode = socket.status ?? 1;
}
