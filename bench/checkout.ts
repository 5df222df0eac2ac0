/**
 * Checkout load benchmark (not a test: it asserts nothing, it prints and checks). Starts the production
 * server on a fresh PGlite database holding N buyers (default 200) plus one, each with a session of
 * known token, and pays through the embedded sandbox, as browsers do (the checkout page for its key,
 * then the form posted to the `commerce.checkout` action):
 *
 *   1. the same checkout (one person, one key) posted `--duplicates` times at once (default 1,000);
 *   2. `--buyers` different checkouts at once (default 200), each a different person's cart (course 6
 *      and one of the four books).
 *
 * Prints each phase's answers by status and latency p50/p99/max, then, after the server's clean
 * shutdown, counts in the database: orders and charges (payment attempts) of the duplicated checkout
 * (expected 1 and 1), and paid orders of the different checkouts (expected one per buyer).
 *
 *   npm run bench:checkout
 *   npm run bench:checkout -- --duplicates=1000 --buyers=200
 *   BENCH_CHECKOUT_PORT=4634 npm run bench:checkout
 */
import { performance } from 'node:perf_hooks';
import { resolve } from 'node:path';
import { eq, inArray, sql } from 'drizzle-orm';
import { openDatabase } from '../src/lib/db/client';
import { migrate } from '../src/lib/db/migrate';
import { seed } from '../src/lib/db/seed/seed.server';
import * as s from '../src/lib/db/schema';
import { hashToken, newToken } from '../src/lib/identity/session.server';
import { rssMb, startBenchServer } from './server';
import { paymentForm } from '../tests/e2e/support/payment';

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const DUPLICATES = Number(arg('duplicates') ?? 1000);
const BUYERS = Number(arg('buyers') ?? 200);
const port = Number(process.env.BENCH_CHECKOUT_PORT ?? 4634);

interface Buyer {
  userId: number;
  token: string;
  cart: string;
}
const buyers: Buyer[] = [];
/** Network errors by cause (status 0 in the report). */
const errors = new Map<string, number>();
/** Posts sent again after a reset of a reused connection. */
let retried = 0;

/** Catalogue, and BUYERS + 1 people with a session each (the first is the duplicated checkout's). */
async function prepare(dataDir: string): Promise<void> {
  const handle = await openDatabase({ databaseUrl: null, dataDir });
  await migrate(handle);
  await seed(handle.db, resolve('media'));
  const db = handle.db;
  const expiresAt = new Date(Date.now() + 24 * 3600_000);
  const total = BUYERS + 1;
  for (let from = 0; from < total; from += 250) {
    const batch = Array.from({ length: Math.min(250, total - from) }, (_, i) => from + i);
    const users = await db
      .insert(s.users)
      .values(batch.map((i) => ({ email: `buyer${i}@bench.example`, firstName: 'Buyer', lastName: String(i) })))
      .returning({ id: s.users.id });
    const contacts = await db
      .insert(s.contacts)
      .values(users.map((u, i) => ({ userId: u.id, firstName: 'Buyer', lastName: String(from + i), email: `buyer${from + i}@bench.example` })))
      .returning({ id: s.contacts.id, userId: s.contacts.userId });
    const byUser = new Map(contacts.map((c) => [c.userId, c.id]));
    const tokens = users.map(() => newToken());
    await db.insert(s.sessions).values(users.map((u, i) => ({ tokenHash: hashToken(tokens[i]!), kind: 'user' as const, userId: u.id, contactId: byUser.get(u.id)!, expiresAt })));
    users.forEach((u, i) => {
      const n = from + i;
      const cart = JSON.stringify([{ kind: 'course', id: 6 }, { kind: 'book', id: (n % 4) + 1 }]);
      buyers.push({ userId: u.id, token: tokens[i]!, cart: encodeURIComponent(cart) });
    });
  }
  await handle.close();
}

const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return 0;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};
const ms = (n: number) => `${n.toFixed(0)} ms`;

let result = { duplicate: { orders: -1, charges: -1 }, different: { paid: -1, orders: -1 } };

const server = await startBenchServer(port, {
  // Every post comes from one address, and phase 1 is one person posting one form a thousand times: a
  // payment in flight holds an attempt of the refused-payment limits (10 per account, 30 per address), so
  // they are raised here, where what is measured is throughput and one order per checkout.
  env: { RATE_LIMITS: 'paymentFailuresPerAccount=1000000/3600,paymentFailuresPerAddress=1000000/3600' },
  prepare,
  afterStop: async (dataDir) => {
    const handle = await openDatabase({ databaseUrl: null, dataDir });
    try {
      const db = handle.db;
      const first = buyers[0]!.userId;
      const [o] = await db.select({ n: sql<number>`count(*)::int` }).from(s.orders).where(eq(s.orders.userId, first));
      const [c] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(s.paymentAttempts)
        .innerJoin(s.orders, eq(s.orders.id, s.paymentAttempts.orderId))
        .where(eq(s.orders.userId, first));
      const others = buyers.slice(1).map((b) => b.userId);
      const [paid] = await db.select({ n: sql<number>`count(*)::int` }).from(s.orders).where(sql`${inArray(s.orders.userId, others)} and ${s.orders.status} = 'paid'`);
      const [all] = await db.select({ n: sql<number>`count(*)::int` }).from(s.orders).where(inArray(s.orders.userId, others));
      result = { duplicate: { orders: o!.n, charges: c!.n }, different: { paid: paid!.n, orders: all!.n } };
    } finally {
      await handle.close();
    }
  },
});
const base = server.base;
const headers = (b: Buyer, form = false) => ({ cookie: `session=${b.token}; cart=${b.cart}`, origin: base, ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) });

/** The checkout page's idempotency key for a buyer (what the browser's form carries). */
async function keyOf(b: Buyer): Promise<string> {
  const r = await fetch(`${base}/en/purchase-detail`, { headers: headers(b) });
  const html = await r.text();
  const key = /name="idempotencyKey" value="([0-9a-f-]{36})"/.exec(html)?.[1];
  if (!key) throw new Error(`no checkout form for buyer ${b.userId} (${r.status})`);
  return key;
}

function formOf(key: string): string {
  return new URLSearchParams(paymentForm({ cardholderName: 'Bench Buyer', idempotencyKey: key })).toString();
}

/** Posts a checkout; its status and how long it took. */
async function pay(b: Buyer, body: string): Promise<{ status: number; ms: number }> {
  const t0 = performance.now();
  for (let attempt = 1; ; attempt++) {
    try {
      const r = await fetch(`${base}/_actions/commerce.checkout`, { method: 'POST', headers: headers(b, true), body });
      await r.arrayBuffer();
      return { status: r.status, ms: performance.now() - t0 };
    } catch (err) {
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      const code = cause?.code ?? cause?.message ?? String(err);
      // A kept-alive connection the server closed as the post went out: browsers send it again, and
      // so does this (the same form, so the same checkout: safe by design).
      if (attempt === 1 && (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET')) {
        retried++;
        continue;
      }
      errors.set(code, (errors.get(code) ?? 0) + 1);
      return { status: 0, ms: performance.now() - t0 };
    }
  }
}

function report(title: string, answers: { status: number; ms: number }[], wall: number): void {
  const byStatus = new Map<number, number>();
  for (const a of answers) byStatus.set(a.status, (byStatus.get(a.status) ?? 0) + 1);
  const lat = answers.map((a) => a.ms);
  console.log(`${title}: ${answers.length} posts in ${ms(wall)} — answers ${[...byStatus].map(([st, n]) => `${st}×${n}`).join(', ')}; latency p50 ${ms(pct(lat, 50))}, p99 ${ms(pct(lat, 99))}, max ${ms(Math.max(...lat))}`);
}

try {
  // 1. The same checkout posted DUPLICATES times at once.
  const dup = buyers[0]!;
  const body = formOf(await keyOf(dup));
  let t0 = performance.now();
  const dupAnswers = await Promise.all(Array.from({ length: DUPLICATES }, () => pay(dup, body)));
  report(`same checkout ×${DUPLICATES}`, dupAnswers, performance.now() - t0);

  // The server closes idle keep-alive connections after 5 s: let it, so phase 2 does not post on
  // the first phase's connections as they close (a client-side reset, not a checkout's answer).
  await new Promise((r) => setTimeout(r, 6000));

  // 2. BUYERS different checkouts at once (their pages first, as browsers would have them open).
  const others = buyers.slice(1);
  const forms = await Promise.all(others.map(async (b) => formOf(await keyOf(b))));
  t0 = performance.now();
  const answers = await Promise.all(others.map((b, i) => pay(b, forms[i]!)));
  report(`${BUYERS} different checkouts`, answers, performance.now() - t0);
  if (retried > 0) console.log(`posts sent again after the server closed a kept-alive connection under them: ${retried}`);
  if (errors.size > 0) console.log(`network errors: ${[...errors].map(([e, n]) => `${e}×${n}`).join(', ')}`);
  console.log(`server RSS ${rssMb(server.serverPid()).toFixed(0)} MB`);
} finally {
  await server.stop();
}
console.log(`database: the duplicated checkout made ${result.duplicate.orders} order(s) and ${result.duplicate.charges} charge(s) (expected 1 and 1); the different checkouts made ${result.different.orders} orders, ${result.different.paid} paid (expected ${BUYERS})`);
if (result.duplicate.orders !== 1 || result.duplicate.charges !== 1 || result.different.paid !== BUYERS) process.exitCode = 1;
