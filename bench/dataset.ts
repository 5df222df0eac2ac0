/**
 * Fills a database with the reports' data set (`src/lib/db/seed/dataset.server.ts`): 100,000 learners,
 * 2,000,000 lesson-progress rows, 200,000 exam attempts with their answers and 50,000 orders at scale 1,
 * with IBOs, referrals, prospects, certificates, coupons, refunds, memberships, support messages,
 * sessions and audit events over the last ~18 months. Migrates and seeds the database first when it is
 * new; refuses a database that already holds a data set unless `--reset` (which drops everything,
 * migrates, seeds and generates again). Prints each step's time, the total, and the rows per table.
 *
 *   npm run bench:dataset -- --url postgres://postgres@127.0.0.1:5432/bench_reports [--scale 1] [--seed 2026] [--at 2026-11-27T12:00:00Z] [--reset]
 *   npm run bench:dataset -- --pglite /tmp/academy-reports [--scale 0.1]
 *
 * `--pglite <dir>` is a data folder (the database in `<dir>/pglite`), what `DATA_DIR` names for the
 * server; its default scale is 0.1. The same seed, scale and `--at` give the same rows.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../src/lib/db/client';
import { migrate } from '../src/lib/db/migrate';
import { dropEverything, isEmpty, seed } from '../src/lib/db/seed/seed.server';
import { generateDataset, hasDataset } from '../src/lib/db/seed/dataset.server';
import { readPasswordHashCost } from '../src/lib/config/settings';

const { values } = parseArgs({
  options: { url: { type: 'string' }, pglite: { type: 'string' }, scale: { type: 'string' }, seed: { type: 'string', default: '2026' }, at: { type: 'string' }, reset: { type: 'boolean', default: false } },
});
if (!values.url === !values.pglite) {
  console.error('usage: npm run bench:dataset -- --url <postgres url> | --pglite <data folder> [--scale n] [--seed n] [--at ISO instant] [--reset]');
  process.exit(2);
}
const scale = Number(values.scale ?? (values.pglite ? 0.1 : 1));
const at = values.at ? new Date(values.at) : new Date();
if (Number.isNaN(at.getTime())) throw new Error(`--at is no instant: ${values.at}`);

const handle = await openDatabase({ databaseUrl: values.url ?? null, dataDir: values.pglite ?? '' });
try {
  const prepare = async () => {
    await migrate(handle);
    if (await isEmpty(handle.db)) {
      const s = await seed(handle.db, resolve('media'), readPasswordHashCost(process.env.PASSWORD_HASH_COST));
      console.log(`seeded the demo catalogue: ${s.courses} courses, ${s.lessons} lessons, ${s.questions} questions`);
    }
  };
  await prepare();
  if (await hasDataset(handle.db)) {
    if (!values.reset) {
      console.error(`${handle.where} already holds a generated data set: pass --reset to drop everything and generate it again.`);
      process.exitCode = 1;
    } else {
      console.log(`dropping everything in ${handle.where}…`);
      await dropEverything(handle.db);
      await prepare();
    }
  }
  if (!process.exitCode) {
    console.log(`generating at scale ${scale} (seed ${values.seed}, ending ${at.toISOString()}) into ${handle.kind} ${handle.where}…`);
    const summary = await generateDataset(handle.db, {
      scale,
      seed: Number(values.seed),
      at,
      log: (step, ms) => console.log(`  ${step.padEnd(24)} ${(ms / 1000).toFixed(1).padStart(6)} s`),
    });
    // Index-only scans need the visibility map (and the planner its statistics) of the new rows.
    const t0 = performance.now();
    await handle.db.execute(sql`vacuum analyze`);
    console.log(`  ${'vacuum analyze'.padEnd(24)} ${((performance.now() - t0) / 1000).toFixed(1).padStart(6)} s`);
    console.log(`\ngenerated in ${((summary.ms + performance.now() - t0) / 1000).toFixed(1)} s (${handle.kind}, scale ${scale}): wanted ${Object.entries(summary.wanted).map(([k, v]) => `${v.toLocaleString('en')} ${k}`).join(', ')}`);
    const width = Math.max(...Object.keys(summary.counts).map((k) => k.length));
    for (const [table, n] of Object.entries(summary.counts)) console.log(`  ${table.padEnd(width)} ${n.toLocaleString('en').padStart(11)}`);
  }
} finally {
  await handle.close();
}
