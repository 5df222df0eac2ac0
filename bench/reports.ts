/**
 * The back office at scale (not a test: it asserts nothing). Takes a database filled by
 * `npm run bench:dataset` and a built site (`npm run build` first: this does not build), starts the
 * production server on it (`scripts/start.mjs --serve`), and prints:
 *
 * 1. every back-office page of `bench/reports-urls.ts` as a staff session holding every role reads it
 *    (its second factor marked proved in the database, as tests do): p50/p95/p99 of sequential requests,
 *    each the median over rounds, against the goal p95 < 300 ms (PostgreSQL); pages answering 404 are
 *    skipped with a note;
 * 2. the learner pages (catalogue, a course page, a learner's dashboard and lesson player) alone and while
 *    report pages are requested in a loop, side by side (p50 and p95);
 * 3. for each CSV export that answers, the server's resident memory before and at most while it streams.
 *
 *   npm run bench:reports -- --url postgres://postgres@127.0.0.1:5432/bench_reports
 *   npm run bench:reports -- --pglite /tmp/academy-reports
 *   options: --rounds 5 --requests 20 (per page and round) --port 4506 --only audit,support
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { openDatabase, queryRows } from '../src/lib/db/client';
import { createSession } from '../src/lib/identity/session.server';
import { startBenchServer, treeRssMb } from './server';
import { LEARNER_URLS, REPORT_URLS, type BenchUrl } from './reports-urls';

const { values } = parseArgs({
  options: {
    url: { type: 'string' },
    pglite: { type: 'string' },
    rounds: { type: 'string', default: '5' },
    requests: { type: 'string', default: '20' },
    port: { type: 'string', default: process.env.BENCH_PORT ?? '4506' },
    only: { type: 'string' },
  },
});
if (!values.url === !values.pglite) {
  console.error('usage: npm run bench:reports -- --url <postgres url> | --pglite <data folder> [--rounds 5] [--requests 20] [--port 4506] [--only word,word]');
  process.exit(2);
}
if (!existsSync(join(process.env.DIST_DIR ?? 'dist', 'server/entry.mjs')) || !existsSync('dist/runtime/index.mjs')) {
  console.error('bench:reports serves the built site: run `npm run build` first.');
  process.exit(2);
}
const rounds = Number(values.rounds);
const perRound = Number(values.requests);
const only = values.only?.split(',').filter(Boolean) ?? [];
const GOAL_P95_MS = 300;
const kind = values.url ? 'PostgreSQL' : 'PGlite';

/* ───── what the pages need, read from the filled database; the sessions made there ───── */
const handle = await openDatabase({ databaseUrl: values.url ?? null, dataDir: values.pglite ?? '' });
let vars: Record<string, string>;
let staffToken: string;
let learnerToken: string;
try {
  const [admin] = await queryRows<{ id: number }>(handle.db, sql`select id from users where lower(email) = 'admin@academia.example'`);
  if (!admin) throw new Error('no demo administrator: is the database seeded?');
  // Every role, with the seeded confirmed second factor; the session marked as having proved it.
  await handle.db.execute(sql`insert into staff_roles (user_id, role) select ${admin.id}, r from unnest(array['administrator', 'editor', 'support', 'finance']) r on conflict do nothing`);
  const confirmed = await queryRows<{ n: number }>(handle.db, sql`select count(*)::int as n from staff_factors where user_id = ${admin.id} and confirmed_at is not null`);
  if (!confirmed[0]?.n) throw new Error('the demo administrator has no confirmed second factor');
  const staff = await createSession(handle.db, { kind: 'user', userId: admin.id });
  await handle.db.execute(sql`update sessions set second_factor_at = now() where user_id = ${admin.id} and expires_at = ${staff.expiresAt.toISOString()}::timestamptz`);
  staffToken = staff.token;
  const [person] = await queryRows<{ user_id: number; email: string; first_name: string; course_id: number }>(
    handle.db,
    sql`select c.user_id, u.email, u.first_name, max(t.course_id) as course_id from tracking t join contacts c on c.id = t.contact_id join users u on u.id = c.user_id
        where u.email like '%@bench.example' group by c.user_id, u.email, u.first_name order by count(*) desc, c.user_id limit 1`,
  );
  if (!person) throw new Error('no generated learner: fill the database with `npm run bench:dataset` first');
  learnerToken = (await createSession(handle.db, { kind: 'user', userId: person.user_id })).token;
  const one = async (q: ReturnType<typeof sql>) => String(Object.values((await queryRows<Record<string, unknown>>(handle.db, q))[0] ?? { v: '' })[0] ?? '');
  const day = (d: Date) => d.toISOString().slice(0, 10);
  const now = new Date();
  vars = {
    personId: String(person.user_id),
    personEmail: person.email,
    personName: person.first_name,
    courseId: String(person.course_id),
    orderId: await one(sql`select id from orders where status = 'paid' order by id desc limit 1`),
    couponId: await one(sql`select id from coupons order by uses desc, id limit 1`),
    messageId: await one(sql`select id from contact_messages order by id desc limit 1`),
    certificateCode: await one(sql`select code from certificates order by id desc limit 1`),
    iboId: await one(sql`select referred_by_ibo_id from users where referred_by_ibo_id is not null group by 1 order by count(*) desc limit 1`),
    yearFrom: day(new Date(now.getTime() - 365 * 86_400_000)),
    monthFrom: day(new Date(now.getTime() - 30 * 86_400_000)),
    yearTo: day(now),
  };
} finally {
  // PGlite: one process at a time holds the folder, and the server is about to open it.
  await handle.close();
}
const fill = (path: string) => path.replace(/\{(\w+)\}/g, (_, k: string) => encodeURIComponent(vars[k] ?? `{${k}}`).replace(/%40/g, '@'));

/* ───── the server ───── */
const port = Number(values.port);
const server = await startBenchServer(port, { env: values.url ? { DATABASE_URL: values.url } : { DATA_DIR: values.pglite!, DATABASE_URL: '' } });
const { base } = server;
const cookieOf = (who: 'staff' | 'learner' | 'visitor') => (who === 'staff' ? `session=${staffToken}` : who === 'learner' ? `session=${learnerToken}` : '');

/** One GET, its body read to the end: its status and milliseconds. */
async function timed(path: string, cookie: string): Promise<{ status: number; ms: number; bytes: number }> {
  const t0 = performance.now();
  const r = await fetch(base + path, { headers: { ...(cookie ? { cookie } : {}), 'accept-encoding': 'br, gzip' }, redirect: 'manual' });
  const body = await r.arrayBuffer();
  return { status: r.status, ms: performance.now() - t0, bytes: body.byteLength };
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

interface Figures {
  p50: number;
  p95: number;
  p99: number;
  errors: number;
}

/** `rounds` rounds of `perRound` sequential requests; each quantile the median of the rounds'. */
async function measure(path: string, cookie: string): Promise<Figures> {
  await timed(path, cookie); // warm-up
  const per: { p50: number; p95: number; p99: number }[] = [];
  let errors = 0;
  for (let r = 0; r < rounds; r++) {
    const ms: number[] = [];
    for (let i = 0; i < perRound; i++) {
      const a = await timed(path, cookie);
      if (a.status !== 200) errors++;
      ms.push(a.ms);
    }
    ms.sort((a, b) => a - b);
    per.push({ p50: quantile(ms, 0.5), p95: quantile(ms, 0.95), p99: quantile(ms, 0.99) });
  }
  return { p50: median(per.map((p) => p.p50)), p95: median(per.map((p) => p.p95)), p99: median(per.map((p) => p.p99)), errors };
}

const f = (ms: number) => `${ms.toFixed(0)} ms`;
function table(head: string[], rows: string[][]) {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  console.log(line(head));
  console.log(widths.map((w) => '─'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
}

try {
  console.log(`\nReports benchmark: ${kind}, ${rounds} rounds × ${perRound} sequential requests per page (median of the rounds' quantiles), ${new Date().toISOString()}`);
  const found: BenchUrl[] = [];
  const skipped: string[] = [];
  const rows: string[][] = [];
  for (const u of REPORT_URLS) {
    if (only.length && !only.some((w) => u.path.includes(w) || u.name.includes(w))) continue;
    const path = fill(u.path);
    const first = await timed(path, cookieOf('staff'));
    if (first.status === 404) {
      skipped.push(`${u.name} (${path})`);
      continue;
    }
    if (u.csv) {
      found.push(u);
      continue;
    }
    if (first.status !== 200) {
      rows.push([u.name, path, String(first.status), '', '', '', 'not 200: not measured']);
      continue;
    }
    found.push(u);
    const m = await measure(path, cookieOf('staff'));
    const verdict = m.errors ? `${m.errors} errors` : m.p95 < GOAL_P95_MS ? 'meets p95 < 300 ms' : 'MISSES p95 < 300 ms';
    rows.push([u.name, path.length > 60 ? `${path.slice(0, 57)}…` : path, '200', f(m.p50), f(m.p95), f(m.p99), verdict]);
  }
  console.log('');
  table(['back-office page', 'path', 'status', 'p50', 'p95', 'p99', `goal (${kind === 'PostgreSQL' ? 'PostgreSQL' : 'PostgreSQL only; PGlite says what it gets'})`], rows);
  if (skipped.length) console.log(`\nskipped (answer 404, not built yet):\n  ${skipped.join('\n  ')}`);

  // Learner pages alone, then while report pages are requested in a loop (two at a time).
  const learner = LEARNER_URLS.map((u) => ({ ...u, path: fill(u.path) }));
  const alone: Figures[] = [];
  for (const u of learner) alone.push(await measure(u.path, cookieOf(u.who)));
  const loopPages = found.filter((u) => !u.csv).map((u) => fill(u.path));
  let looping = true;
  let loopRequests = 0;
  const loop = async () => {
    for (let i = 0; looping && loopPages.length; i++) {
      await timed(loopPages[i % loopPages.length]!, cookieOf('staff'));
      loopRequests++;
    }
  };
  const loops = [loop(), loop()];
  const during: Figures[] = [];
  for (const u of learner) during.push(await measure(u.path, cookieOf(u.who)));
  looping = false;
  await Promise.all(loops);
  console.log(`\nlearner pages alone and while report pages run in a loop (2 at a time, ${loopRequests} report requests meanwhile):`);
  table(
    ['learner page', 'path', 'who', 'alone p50', 'alone p95', 'during p50', 'during p95'],
    learner.map((u, i) => [u.name, u.path, u.who, f(alone[i]!.p50), f(alone[i]!.p95), f(during[i]!.p50), f(during[i]!.p95)]),
  );

  // Streaming exports: the server's memory before and at most during the download.
  const csvs = found.filter((u) => u.csv);
  if (csvs.length === 0) console.log('\nno CSV export answers yet: the memory of streaming a year of orders is not measured');
  for (const u of csvs) {
    const path = fill(u.path);
    const before = treeRssMb(server.serverPid());
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, treeRssMb(server.serverPid()))), 20);
    const a = await timed(path, cookieOf('staff'));
    clearInterval(sampler);
    console.log(`\n${u.name} (${path}): ${a.status}, ${(a.bytes / 1024 / 1024).toFixed(1)} MB (as sent) in ${f(a.ms)}; server RSS ${before.toFixed(0)} MB before, at most ${peak.toFixed(0)} MB during (+${(peak - before).toFixed(0)} MB)`);
  }
  console.log(`\nserver RSS after the run: ${treeRssMb(server.serverPid()).toFixed(0)} MB`);
} finally {
  await server.stop();
}
