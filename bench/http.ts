/**
 * HTTP benchmark (not a test: it asserts nothing). Starts the production server on a fresh PGlite
 * database (or BENCH_DATABASE_URL) and prints, side by side in one run: the static reference page,
 * then each catalogue page anonymous and logged in (the demo learner, logged in through the login
 * action), then the personal pages logged in, and /healthz: requests per second (median of per-second
 * samples), the ratio to the reference, latency p50/p99 at a fixed concurrency, whether the row meets
 * its goal, and the bytes a first visit downloads (compressed, as browsers get them).
 *
 *   npm run bench                      (defaults: 50 connections, 8 s per row)
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/academy_bench npm run bench
 *   DIST_DIR=dist-other npm run bench  (serve another build folder)
 *   BENCH_CONNECTIONS=100 BENCH_SECONDS=15 npm run bench
 *
 *   BENCH_DURING_TRANSCODE=1 npm run bench   (then the logged-in rows again while a 10-minute 720p video
 *                                             converts beside the server, `bench/transcode.ts 600`)
 *
 * Then it runs the socket load benchmark (`bench/socket.ts`, `npm run bench:socket`; BENCH_VIEWERS and
 * BENCH_SOCKET_SECONDS change it, BENCH_SKIP_SOCKET=1 skips it).
 */
import { spawn, spawnSync } from 'node:child_process';
import { get as httpGet } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import { startBenchServer, treeRssMb } from './server';

const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
/** `WEB_CONCURRENCY` workers of the server (with BENCH_DATABASE_URL). */
const workers = Number(process.env.WEB_CONCURRENCY ?? 1);
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const port = Number(process.env.BENCH_PORT ?? 4510);

/** The reference: a page the same for every visitor (the fastest answer a page can get). */
const reference = { name: 'static page (about us)', path: '/about-us' };

/**
 * The pages measured, anonymous and logged in side by side. `personal`: only for a logged-in person
 * (the goal is 0.25× the reference's rate, p99 < 150 ms); the others' goal is 0.5×, p99 < 100 ms.
 */
const targets: { name: string; path: string; personal: boolean }[] = [
  { name: 'home', path: '/', personal: false },
  { name: 'catalogue', path: '/courses', personal: false },
  { name: 'catalogue filtered', path: '/courses?category=3', personal: false },
  { name: 'course details', path: '/courses-details/6', personal: false },
  { name: 'course details, English', path: '/en/courses-details/6', personal: false },
  { name: 'my learning', path: '/mylearning', personal: true },
  { name: 'lesson player', path: '/course-tracking/1', personal: true },
  { name: 'my shopping', path: '/myshopping', personal: true },
  { name: 'profile', path: '/profile', personal: true },
];

/**
 * Pages no shared cache answers, each for the reader it is made for (goal 0.25× the reference's rate,
 * p99 < 150 ms): a certificate's public verification for a visitor, an exam's rules and result for the
 * learner who passed it, the cart with two products for the demo learner.
 */
const CERTIFICATE_CODE = 'ACAD-GRAD-2026-0000-0002';
const CART = encodeURIComponent(JSON.stringify([{ kind: 'course', id: 1 }, { kind: 'book', id: 1 }]));
const ownPages: { name: string; path: string; who: Who; cookie?: string }[] = [
  { name: 'certificate verification', path: `/verify/${CERTIFICATE_CODE}`, who: 'visitor' },
  { name: 'exam rules', path: '/course-exam-info/2', who: 'graduate' },
  { name: 'exam result', path: '/course-result?course=2', who: 'graduate' },
  { name: 'cart', path: '/purchase', who: 'learner', cookie: `cart=${CART}` },
];

/** Only the rows whose path contains one of these comma-separated words (`BENCH_ROWS=verify,purchase`; the reference always runs). */
const only = process.env.BENCH_ROWS?.split(',').filter(Boolean) ?? [];
const selected = (path: string) => only.length === 0 || only.some((w) => path.includes(w));

const databaseUrl = process.env.BENCH_DATABASE_URL ?? '';
const { base, stop, serverPid } = await startBenchServer(port, databaseUrl ? { env: { DATABASE_URL: databaseUrl } } : {});

/** Logs the demo learner in through the login action, as a browser would; returns the session cookie. */
async function logIn(email: string, password: string): Promise<string> {
  const r = await fetch(`${base}/_actions/auth.login`, {
    method: 'POST',
    headers: { origin: base, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email, password, lang: 'es' }).toString(),
    redirect: 'manual',
  });
  const cookie = r.headers.getSetCookie().find((c) => c.startsWith('session='));
  if (!cookie) throw new Error(`login failed (${r.status}): ${await r.text()}`);
  return cookie.split(';')[0]!;
}
type Who = 'visitor' | 'learner' | 'graduate';
const sessions: Record<Who, string> = {
  visitor: '',
  learner: await logIn('learner@academia.example', 'Aprende2026'),
  // Passed course 2's exam: its rules page and result have attempts to show.
  graduate: await logIn('graduate@academia.example', 'Gradua2026'),
};

/**
 * What a first visit to a page downloads: the HTML, its stylesheets, and every script it runs,
 * including islands (`component-url`, `renderer-url`) and the chunks they import, followed through
 * the built files. Bytes as sent to a browser that accepts brotli (and as stored, uncompressed).
 */
async function weight(path: string) {
  // The body's bytes as sent (a page rendered on a cache miss comes chunked, with no Content-Length), then decoded.
  const get = (url: string) =>
    new Promise<{ text: string; sent: number; raw: number }>((resolve, reject) => {
      httpGet(url, { headers: { 'accept-encoding': 'br, gzip' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          const coding = res.headers['content-encoding'];
          const text = (coding === 'br' ? brotliDecompressSync(body) : coding === 'gzip' ? gunzipSync(body) : body).toString('utf8');
          resolve({ text, sent: body.length, raw: Buffer.byteLength(text) });
        });
      }).on('error', reject);
    });
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

interface Row {
  name: string;
  path: string;
  who: Who;
  rate: number;
  p50: number;
  p99: number;
  errors: number;
  goal: number | null;
  weight: string;
}

async function measure(name: string, path: string, who: Who, goal: number | null, extraCookie = ''): Promise<Row> {
  // As a browser asks: compressed answers welcome.
  const cookie = [sessions[who], extraCookie].filter(Boolean).join('; ');
  const headers: Record<string, string> = { 'accept-encoding': 'br, gzip', ...(cookie ? { cookie } : {}) };
  await autocannon({ url: base + path, connections: 10, duration: 1, headers }); // warm-up
  const r = await autocannon({ url: base + path, connections, duration: seconds, headers });
  const w = who === 'visitor' && path !== '/healthz' ? await weight(path) : null;
  return {
    name,
    path,
    who,
    rate: Math.round(r.requests.p50),
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.non2xx + r.errors,
    goal,
    weight: w ? `${kb(w.html)} HTML, ${kb(w.css)} CSS, ${kb(w.js)} JS (${w.files} files)` : '',
  };
}

const rows: Row[] = [await measure(reference.name, reference.path, 'visitor', null)];
for (const t of targets) {
  if (!selected(t.path)) continue;
  if (!t.personal) rows.push(await measure(t.name, t.path, 'visitor', 0.5));
  rows.push(await measure(t.name, t.path, 'learner', t.personal ? 0.25 : 0.5));
}
for (const t of ownPages) if (selected(t.path)) rows.push(await measure(t.name, t.path, t.who, 0.25, t.cookie));
if (selected('/healthz')) rows.push(await measure('health check', '/healthz', 'visitor', null));
/**
 * `BENCH_DURING_TRANSCODE=1`: the logged-in rows again while a video converts beside the server (the
 * library's own worker code and ffmpeg at its lower priority, as a worker process runs it), side by side
 * with the rows above. The conversion's figures are printed when it ends.
 */
const during: Row[] = [];
let transcodeReport = '';
if (process.env.BENCH_DURING_TRANSCODE) {
  const child = spawn('node_modules/.bin/tsx', ['bench/transcode.ts', '600'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const ended = new Promise<void>((resolve) => child.on('close', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('converting…')) resolve();
    });
    child.on('close', () => reject(new Error(`the transcode ended before converting:\n${out}`)));
  });
  let running = true;
  void ended.then(() => (running = false));
  for (const r of rows.filter((r) => r.who !== 'visitor' || r.goal === null)) {
    if (!running) break;
    during.push({ ...(await measure(r.name, r.path, r.who, r.goal, r.path === '/purchase' ? ownPages.find((o) => o.path === '/purchase')?.cookie : '')), name: `${r.name} (during transcode)` });
  }
  if (!running) console.log('the transcode ended before every row was measured again');
  await ended;
  transcodeReport = out.split('\n').filter((l) => /ratio|state|load average/.test(l)).join('\n');
}
rows.push(...during);

/** The server's resident memory now, after every row (goal on PGlite: < 250 MB). */
const rss = Math.round(treeRssMb(serverPid()));
await stop();

const stat = rows[0]!.rate;
const table = rows.map((r) => {
  const ratio = r.rate / stat;
  const p99Goal = r.goal === 0.25 ? 150 : 100;
  // Which part of the goal a row misses (latencies are whole milliseconds, as autocannon records them).
  const missed = [
    // A rate of 0 (or a reference of 0: a ratio that is no number) never meets a goal.
    !(ratio >= (r.goal ?? 0)) && `rate < ${r.goal}×`,
    r.p99 >= p99Goal && `p99 ≥ ${p99Goal} ms`,
    r.p99 > 5 * Math.max(r.p50, 1) && 'p99 > 5× p50',
    r.errors > 0 && 'errors',
  ].filter(Boolean);
  const verdict = r.goal === null ? '' : missed.length === 0 ? 'meets goal' : `below goal: ${missed.join(', ')}`;
  return [r.name, r.path, r.who === 'visitor' ? 'anonymous' : 'logged in', String(r.rate), `${ratio.toFixed(2)}×`, `${r.p50} ms`, `${r.p99} ms`, String(r.errors), verdict, r.weight];
});
const head = ['page', 'path', 'who', 'req/s (median)', 'vs static', 'p50', 'p99', 'errors', 'goal', 'first visit (br)'];
const widths = head.map((h, i) => Math.max(h.length, ...table.map((r) => r[i]!.length)));
const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
console.log(`\nHTTP benchmark: ${connections} connections, ${seconds} s per row, ${databaseUrl ? 'PostgreSQL' : 'PGlite'}, ${workers > 1 ? `${workers} workers` : 'one process'}, ${new Date().toISOString()}`);
console.log(line(head));
for (const r of table) console.log(line(r));
if (transcodeReport) console.log(`\nthe transcode beside the rows "during transcode":\n${transcodeReport}`);
if (rss > 0) console.log(`server RSS after the run: ${rss} MB${workers > 1 ? ' (primary and workers)' : ''}${databaseUrl ? '' : rss < 250 ? ' (goal < 250 MB on PGlite: met)' : ' (goal < 250 MB on PGlite: NOT met)'}`);

if (!process.env.BENCH_SKIP_SOCKET) {
  console.log('');
  const socket = spawnSync('node_modules/.bin/tsx', ['bench/socket.ts'], { stdio: 'inherit' });
  if (socket.status !== 0) process.exitCode = socket.status ?? 1;
}
