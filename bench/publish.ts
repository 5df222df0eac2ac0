/**
 * Publish benchmark (not a test: it asserts nothing). Two runtimes over one PostgreSQL database, each with
 * its own connection pool and LISTEN/NOTIFY bus, as two processes of the academy are: an editor's change
 * is published on the first (`publishDraft`, then the changes told, as the action kit does), and the time
 * until the second runtime's catalogue shows it is measured, repeated. Prints the median, p95 and the
 * slowest, against the goal (a second process within 1 s).
 *
 *   npm run bench:publish               (20 publications)
 *   npm run bench:publish -- 50
 */
import { cpus, loadavg } from 'node:os';
import { eq } from 'drizzle-orm';
import { createPostgresDatabase, postgresAvailable } from '../src/lib/db/testing';
import { openDatabase } from '../src/lib/db/client';
import * as s from '../src/lib/db/schema';
import { testRuntime } from '../src/lib/testing/runtime';
import { tellChanges } from '../src/lib/runtime/changes';
import { editDraft } from '../src/lib/authoring/draft.server';
import { publishDraft } from '../src/lib/authoring/publish.server';

const rounds = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 20);
if (!(await postgresAvailable())) {
  console.log('PostgreSQL does not answer (DATABASE_URL of the tests, 127.0.0.1:5432 by default): nothing measured.');
  process.exit(0);
}
const database = await createPostgresDatabase({ prefix: 'academy_bench_publish', from: 'seeded' });
const handles = [await openDatabase({ databaseUrl: database.url, dataDir: 'unused' }), await openDatabase({ databaseUrl: database.url, dataDir: 'unused' })];
const [a, b] = await Promise.all(handles.map((h) => testRuntime(h, { env: { DATABASE_URL: database.url } })));
const editor = (await a!.db.select({ id: s.users.id }).from(s.users).where(eq(s.users.email, 'editor@academia.example')))[0]!.id;

const times: number[] = [];
try {
  await b!.catalog.get();
  for (let i = 0; i < rounds; i++) {
    const name = `Published ${i} ${Date.now()}`;
    await editDraft(a!.db, editor, 1, { action: 'settings' }, (d) => ({ ok: true, doc: { ...d, nameEn: name } }));
    const start = performance.now();
    const outcome = await publishDraft(a!.db, editor, 1);
    if (outcome.status !== 'ok') throw new Error(`not published: ${outcome.status}`);
    await tellChanges(a!, outcome.changed);
    // The second runtime answers from its catalogue, as its pages do; it reloads once the notice arrives.
    while ((await b!.catalog.get()).byId.get(1)?.nameEn !== name) {
      if (performance.now() - start > 10_000) throw new Error('the second runtime never saw the publication');
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    times.push(performance.now() - start);
  }
} finally {
  await a!.close();
  await b!.close();
  for (const h of handles) await h.close();
  await database.drop();
}
times.sort((x, y) => x - y);
const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
console.log(`publish → second runtime (PostgreSQL LISTEN/NOTIFY, ${rounds} publications, ${cpus().length} CPUs, load average ${loadavg()[0]!.toFixed(1)}):`);
console.log(`median ${at(0.5).toFixed(0)} ms, p95 ${at(0.95).toFixed(0)} ms, slowest ${times.at(-1)!.toFixed(0)} ms (goal: within 1,000 ms — ${times.at(-1)! < 1000 ? 'met' : 'NOT met'})`);
