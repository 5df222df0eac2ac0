/**
 * What an IBO's commission reads cost at size: one IBO with `ORDERS` referred orders (default 20,000,
 * two lines each, over two years, a tenth refunded, everything approved paid out) among other IBOs' orders,
 * on PostgreSQL (`DATABASE_URL`, else a throwaway database on the local test server) or PGlite
 * (`BENCH_DB=pglite`). Prints the median and slowest of 20 reads of a sales page (first and last),
 * the totals and a month's statement. Run: `npm run bench:commissions` (`BENCH_COMMISSIONS=off`: the load
 * without the ledger's refresh, to see what it adds to each payment and refund).
 */
import { sql } from 'drizzle-orm';
import { openDatabase } from '../src/lib/db/client';
import { createPostgresDatabase } from '../src/lib/db/testing';
import { iboCommissionTotals, iboSales, iboStatement, recordPayout } from '../src/lib/commissions/commissions.server';

const ORDERS = Number(process.env.ORDERS ?? 20_000);
const pglite = process.env.BENCH_DB === 'pglite';
const pg = pglite || process.env.DATABASE_URL ? null : await createPostgresDatabase({ prefix: 'academy_bench_commissions', from: 'seeded' });
const handle = pglite ? await openDatabase({ databaseUrl: null, dataDir: 'memory://' }) : await openDatabase({ databaseUrl: process.env.DATABASE_URL || pg!.url, dataDir: 'memory://' });
if (pglite) {
  const { migrate } = await import('../src/lib/db/migrate');
  const { seed } = await import('../src/lib/db/seed/seed.server');
  await migrate(handle);
  await seed(handle.db, 'media', 4);
}
const db = handle.db;
// BENCH_COMMISSIONS=off: the same load with the ledger's refresh a no-op (what the commissions add to each write).
if (process.env.BENCH_COMMISSIONS === 'off') await db.execute(sql.raw(`create or replace function commissions_refresh(order_ids integer[]) returns void language plpgsql as $$ begin end $$`));
const now = new Date('2026-11-27T12:00:00Z');
const t0 = performance.now();
// Orders of HORIZONTE01 (and a quarter as many of MUNDO2026), paid over two years, two lines each.
await db.execute(sql.raw(`
  insert into orders (user_id, status, subtotal_cents, discount_cents, total_cents, idempotency_key, paid_at, created_at, referring_ibo_id)
  select (select min(id) from users), 'paid', 5000, (g % 3) * 100, 5000 - (g % 3) * 100, 'bench-commission-' || g,
         timestamptz '2026-11-27 12:00Z' - (g * interval '730 days' / ${ORDERS}), timestamptz '2026-11-27 12:00Z' - (g * interval '730 days' / ${ORDERS}),
         (select id from ibos where code = case when g % 5 = 0 then 'MUNDO2026' else 'HORIZONTE01' end)
  from generate_series(1, ${Math.round(ORDERS * 1.25)}) g`));
await db.execute(sql.raw(`
  insert into order_items (order_id, product_kind, product_id, product_code, title_es, title_en, price_cents)
  select o.id, k.kind, 6, 'C6', 'Curso', 'Course', k.price from orders o
  cross join (values ('course', 3000), ('book', 2000)) k(kind, price) where o.idempotency_key like 'bench-commission-%'`));
// A tenth refunded (the course line), forty days after the payment.
await db.execute(sql.raw(`
  with r as (insert into order_refunds (order_id, request_key, idempotency_key, gateway, charge_id, amount_cents, reason, status, created_at, finished_at)
    select o.id, 'k', 'bench-refund-' || o.id, 'sandbox', 'ch', 1000, 'bench', 'refunded', o.paid_at + interval '40 days', o.paid_at + interval '40 days'
    from orders o where o.idempotency_key like 'bench-commission-%' and o.id % 10 = 3 returning id, order_id)
  insert into order_refund_lines (refund_id, order_item_id, amount_cents)
    select r.id, i.id, 1000 from r join order_items i on i.order_id = r.order_id and i.product_kind = 'course'`));
const iboId = ((await db.execute(sql`select id from ibos where code = 'HORIZONTE01'`)) as unknown as { rows: { id: number }[] }).rows[0]!.id;
const admin = ((await db.execute(sql`select id from users where email = 'admin@academia.example'`)) as unknown as { rows: { id: number }[] }).rows[0]!.id;
const payout = await recordPayout(db, admin, iboId, { key: 'bench-commission-payout', reference: 'bench' }, now);
const loaded = performance.now() - t0;
const [{ n }] = ((await db.execute(sql`select count(*)::int as n from commissions where ibo_id = ${iboId}`)) as unknown as { rows: { n: number }[] }).rows as [{ n: number }];
await db.execute(sql`analyze`);

async function time(label: string, fn: () => Promise<unknown>): Promise<void> {
  const ms: number[] = [];
  for (let i = 0; i < 20; i++) {
    const s = performance.now();
    await fn();
    ms.push(performance.now() - s);
  }
  ms.sort((a, b) => a - b);
  console.log(`${label.padEnd(34)} median ${ms[10]!.toFixed(1)} ms, slowest ${ms[19]!.toFixed(1)} ms`);
}
console.log(`${pglite ? 'PGlite' : 'PostgreSQL'}: ${ORDERS} orders of one IBO (${n} commission entries, ${payout.status === 'ok' ? payout.payout.entries : 0} paid out at once), loaded in ${(loaded / 1000).toFixed(1)} s with the triggers`);
const first = await iboSales(db, iboId, {}, now);
await time('iboSales, first page', () => iboSales(db, iboId, {}, now));
await time(`iboSales, last page (${first.pages})`, () => iboSales(db, iboId, { page: first.pages }, now));
await time('iboSales, one month', () => iboSales(db, iboId, { from: new Date('2026-05-01Z'), to: new Date('2026-06-01Z') }, now));
await time('iboCommissionTotals', () => iboCommissionTotals(db, iboId, now));
await time('iboStatement, 2026-05', () => iboStatement(db, iboId, '2026-05'));
await handle.close();
await pg?.drop();
