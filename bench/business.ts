/**
 * The IBO's business at scale (not a test: it asserts nothing). Fills a fresh database (the seed, then
 * one IBO, BENCHIBO, with 5,000 people: 3,000 prospects it registered and 2,000 who came through its
 * link and share their progress, each with lessons begun; 20,000 orders it referred over the last year;
 * a year of visits), starts the production server on it and prints, side by side in one run at 50
 * connections, the static reference page and every page of the IBO's business as its owner reads them:
 * requests per second, p50 and p99, against the goal p99 < 150 ms on PostgreSQL, < 300 ms on PGlite,
 * and each page's first answer alone (rendered, as after a change to the IBO's business: the pages are
 * kept for their owner while nothing they show changes, see `src/lib/business/changes.server.ts`).
 *
 * Then the live path across processes: two server processes on the same PostgreSQL and Redis, the
 * IBO's page socket open on the first, and a person's change told by the bus from the second process's
 * side (`person` with the contact, as a finished lesson or a passed exam tells it): the time from the
 * bus message to the socket's event, p50/p99/max over `--events`, against the goal of 1 s.
 *
 *   npm run bench:business                          (PGlite, no live part)
 *   npm run bench:business -- --postgres            (a fresh PostgreSQL database, and the live part with Redis)
 *   options: --seconds 8 --connections 50 --events 50 --port 4520 --keep (PostgreSQL: keep the database and print its address)
 */
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { io } from 'socket.io-client';
import { sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { resolve } from 'node:path';
import { openDatabase, queryRows, type Db, type DbHandle } from '../src/lib/db/client';
import { migrate } from '../src/lib/db/migrate';
import { seed } from '../src/lib/db/seed/seed.server';
import { createPostgresDatabase, postgresReachable } from '../src/lib/db/testing';
import { createSession } from '../src/lib/identity/session.server';
import { redisReachable } from '../src/lib/testing/services';
import { encodeMessage } from '../src/lib/bus/bus';
import { BUS_REDIS_CHANNEL } from '../src/lib/bus/bus.server';
import { startBenchProcess, startBenchServer } from './server';

const { values } = parseArgs({
  options: {
    postgres: { type: 'boolean', default: false },
    seconds: { type: 'string', default: '8' },
    connections: { type: 'string', default: '50' },
    events: { type: 'string', default: '50' },
    port: { type: 'string', default: process.env.BENCH_PORT ?? '4520' },
    keep: { type: 'boolean', default: false },
  },
});
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const port = Number(values.port);
const PEOPLE = { prospects: 3_000, signUps: 2_000 };
const ORDERS = 20_000;
const GOAL_P99_MS = values.postgres ? 150 : 300;
const kind = values.postgres ? 'PostgreSQL' : 'PGlite';

/** Fills `db` (migrated and seeded) with BENCHIBO's business; returns its owner's user id. */
async function fill(db: Db): Promise<number> {
  const run = (q: ReturnType<typeof sql>) => db.execute(q);
  const ids = (q: ReturnType<typeof sql>) => queryRows<{ id: number }>(db, q);
  const [owner] = await ids(sql`insert into users (email, first_name, last_name) values ('bench.ibo@example.com', 'Bench', 'Ibo') returning id`);
  const [ibo] = await ids(sql`insert into ibos (user_id, code, company_name) values (${owner!.id}, 'BENCHIBO', 'Bench Viajes') returning id`);
  const iboId = ibo!.id;
  await run(sql`insert into contacts (first_name, last_name, email, ibo_id, created_at)
    select 'Prospecto', 'Bench ' || g, 'bench.p' || g || '@example.com', ${iboId}, now() - (g % 365) * interval '1 day' - (g % 1440) * interval '1 minute' from generate_series(1, ${PEOPLE.prospects}) g`);
  await run(sql`insert into users (email, first_name, last_name, referred_by_ibo_id, ibo_sharing, created_at)
    select 'bench.u' || g || '@example.com', 'Cliente', 'Bench ' || g, ${iboId}, true, now() - (g % 365) * interval '1 day' from generate_series(1, ${PEOPLE.signUps}) g`);
  await run(sql`insert into contacts (user_id, first_name, last_name, email, created_at)
    select id, first_name, last_name, email, created_at from users where referred_by_ibo_id = ${iboId}`);
  // Lessons begun: each person 0–4 lessons of course 1 or 2, the last one some days ago (some stuck).
  await run(sql`insert into tracking (contact_id, course_id, subtopic_id, completed_at, created_at, updated_at)
    select c.id, l.course_id, l.id, case when l.rn < c.id % 5 then now() - (c.id % 40) * interval '1 day' end, now() - (c.id % 40) * interval '1 day', now() - (c.id % 40) * interval '1 day'
    from contacts c
    join lateral (select st.id, tp.course_id, row_number() over (order by st.id) as rn from subtopics st join topics tp on tp.id = st.topic_id where tp.course_id = 1 + c.id % 2) l on l.rn <= c.id % 5
    where c.ibo_id = ${iboId} or c.user_id in (select id from users where referred_by_ibo_id = ${iboId})`);
  // Orders it referred: ten per sign-up, paid over the last year, a book each.
  await run(sql`insert into orders (user_id, status, subtotal_cents, discount_cents, total_cents, idempotency_key, referring_ibo_id, created_at, paid_at)
    select u.id, 'paid', 1000 + (g % 7) * 500, 0, 1000 + (g % 7) * 500, 'bench-business-' || g, ${iboId}, now() - (g % 365) * interval '1 day', now() - (g % 365) * interval '1 day'
    from generate_series(1, ${ORDERS}) g join lateral (select id from users where referred_by_ibo_id = ${iboId} order by id offset (g % ${PEOPLE.signUps}) limit 1) u on true`);
  await run(sql`insert into order_items (order_id, product_kind, product_id, product_code, title_es, title_en, price_cents)
    select o.id, 'book', 1, 'B1', 'Libro', 'Book', o.total_cents from orders o where o.referring_ibo_id = ${iboId}`);
  await run(sql`insert into affiliate_visits (ibo_id, day, visits) select ${iboId}, (now() - d * interval '1 day')::date, 20 + d % 13 from generate_series(0, 364) d on conflict do nothing`);
  // The planner's statistics, as autovacuum would have them on a database that grew to this.
  await run(sql`analyze`);
  return owner!.id;
}

async function prepared(handle: DbHandle): Promise<string> {
  await migrate(handle);
  await seed(handle.db, resolve('media'), 4);
  const ownerId = await fill(handle.db);
  return (await createSession(handle.db, { kind: 'user', userId: ownerId })).token;
}

const PAGES: { name: string; path: string }[] = [
  { name: 'my business (share kit)', path: '/mybusiness' },
  { name: 'funnel, last 30 days', path: '/mybusiness/funnel' },
  { name: 'funnel, last year', path: `/mybusiness/funnel?from=${new Date(Date.now() - 364 * 86_400_000).toISOString().slice(0, 10)}` },
  { name: 'people, everyone', path: '/mybusiness/people' },
  { name: 'people, stuck', path: '/mybusiness/people?show=stuck' },
  { name: 'people, bought', path: '/mybusiness/people?show=bought' },
  { name: 'people, searched', path: '/mybusiness/people?q=bench%2012' },
  { name: 'people, page 200', path: '/mybusiness/people?page=200' },
  { name: 'sales and commissions', path: '/mybusiness/sales' },
  { name: 'sales, page 50', path: '/mybusiness/sales?page=50' },
  { name: 'team', path: '/mybusiness/team' },
];

async function measure(base: string, path: string, cookie: string) {
  const headers = { 'accept-encoding': 'br, gzip', ...(cookie ? { cookie } : {}) };
  // The page's first answer, alone: rendered (nothing is kept yet), as after a change to the IBO's business.
  const t = performance.now();
  const first = await fetch(base + path, { headers });
  await first.arrayBuffer();
  const rendered = Math.round(performance.now() - t);
  const source = first.headers.get('x-page-cache') ?? '-';
  await autocannon({ url: base + path, connections: 10, duration: 1, headers });
  const r = await autocannon({ url: base + path, connections, duration: seconds, headers });
  return { rate: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, errors: r.non2xx + r.errors, first: `${rendered} ms (${source})` };
}

let token = '';
let databaseUrl = '';
let dropDatabase: (() => Promise<void>) | null = null;
if (values.postgres) {
  if (!(await postgresReachable())) {
    console.error('bench:business --postgres needs PostgreSQL (BENCH_POSTGRES_URL or 127.0.0.1:5432).');
    process.exit(1);
  }
  const made = await createPostgresDatabase();
  databaseUrl = made.url;
  dropDatabase = made.drop;
  const handle = await openDatabase({ databaseUrl, dataDir: 'memory://' });
  token = await prepared(handle);
  await handle.close();
}
console.log(`\nIBO business benchmark: ${kind}, ${PEOPLE.prospects + PEOPLE.signUps} people, ${ORDERS} orders, ${connections} connections, ${seconds} s per row, ${new Date().toISOString()}`);
// No video conversion beside the pages (the demo's clips would be converted during the first rows).
const server = await startBenchServer(port, {
  ...(values.postgres
    ? { env: { DATABASE_URL: databaseUrl, VIDEO_WORKER: '0' } }
    : {
        env: { VIDEO_WORKER: '0' },
        prepare: async (dataDir) => {
          const handle = await openDatabase({ databaseUrl: null, dataDir });
          token = await prepared(handle);
          await handle.close();
        },
      }),
});
try {
  const cookie = `session=${token}`;
  const reference = await measure(server.base, '/about-us', '');
  console.log(`${'page'.padEnd(28)} ${'req/s'.padStart(7)} ${'× static'.padStart(9)} ${'p50'.padStart(6)} ${'p99'.padStart(6)}  ${'first answer'.padEnd(16)}  goal p99 < ${GOAL_P99_MS} ms`);
  console.log(`${'static page (about us)'.padEnd(28)} ${String(reference.rate).padStart(7)} ${'1.00'.padStart(9)} ${String(reference.p50).padStart(6)} ${String(reference.p99).padStart(6)}  ${reference.first.padEnd(16)}`);
  for (const p of PAGES) {
    const m = await measure(server.base, p.path, cookie);
    const verdict = m.rate === 0 ? 'MISSED (no answer within 10 s)' : m.errors > 0 ? `${m.errors} errors` : m.p99 < GOAL_P99_MS ? 'met' : 'MISSED';
    console.log(`${p.name.padEnd(28)} ${String(m.rate).padStart(7)} ${(m.rate / reference.rate).toFixed(2).padStart(9)} ${String(m.p50).padStart(6)} ${String(m.p99).padStart(6)}  ${m.first.padEnd(16)}  ${verdict}`);
  }
} finally {
  await server.stop();
}

if (values.postgres) {
  const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
  if (!(await redisReachable(redisUrl))) {
    console.log('\nlive across processes: skipped (no Redis at BENCH_REDIS_URL or 127.0.0.1:6379)');
  } else {
    const a = await startBenchProcess(port + 1, { databaseUrl, redisUrl, name: 'A', env: { VIDEO_WORKER: '0' } });
    const b = await startBenchProcess(port + 2, { databaseUrl, redisUrl, name: 'B', env: { VIDEO_WORKER: '0' } });
    const publisher = new Redis(redisUrl);
    try {
      const handle = await openDatabase({ databaseUrl, dataDir: 'memory://' });
      const [someone] = await queryRows<{ id: number }>(handle.db, sql`select c.id from contacts c join ibos b on b.id = c.ibo_id where b.code = 'BENCHIBO' order by c.id limit 1`);
      await handle.close();
      const socket = io(`${a.base}/business`, { extraHeaders: { cookie: `session=${token}` }, transports: ['websocket'], reconnection: false });
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve());
        socket.once('connect_error', (err) => reject(err));
      });
      const times: number[] = [];
      const events = Number(values.events);
      for (let i = 0; i < events; i++) {
        const heard = new Promise<number>((resolve) => socket.once('person', () => resolve(performance.now())));
        const sent = performance.now();
        // What process B's bus publishes when the person finishes a lesson (the bus's own wire format and channel).
        await publisher.publish(BUS_REDIS_CHANNEL, encodeMessage({ topic: 'person', data: { contactId: someone!.id }, from: 'bench' }));
        times.push((await Promise.race([heard, new Promise<number>((r) => setTimeout(() => r(Number.NaN), 5_000))])) - sent);
      }
      socket.close();
      const ok = times.filter((t) => Number.isFinite(t)).sort((x, y) => x - y);
      const q = (p: number) => ok[Math.min(ok.length - 1, Math.floor(p * ok.length))] ?? Number.NaN;
      console.log(`\nlive across processes (socket on A, bus message from elsewhere): ${ok.length}/${events} heard, p50 ${q(0.5).toFixed(1)} ms, p99 ${q(0.99).toFixed(1)} ms, max ${(ok.at(-1) ?? Number.NaN).toFixed(1)} ms (goal < 1,000 ms)`);
      void b;
    } finally {
      publisher.disconnect();
      await a.stop();
      await b.stop();
    }
  }
  if (values.keep) console.log(`\nthe database is kept: ${databaseUrl}`);
  else await dropDatabase?.();
}

