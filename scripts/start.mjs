/**
 * `npm start`: builds the site and the server when the build is missing or older than the sources,
 * then runs the compiled server (`dist/runtime/index.mjs`) with NODE_ENV=production. Plain Node:
 * no TypeScript loader in the serving process. Workers of `WEB_CONCURRENCY` run this file too and
 * go straight to serving. `npm run serve` (`--serve`) serves the existing build without checking it;
 * `--time-first` leaves out a setting that saves memory at the cost of processor time (see below).
 *
 * The serving process runs with the memory settings below (the process replaces itself with one that
 * has them: V8 flags and the C allocator's settings must be given when a process starts). Measured
 * after the same warm-up on PGlite (docs/benchmarks.md, *Memory*): 530–650 MB without them, about 220 MB with them.
 */
import { spawnSync } from 'node:child_process';
import cluster from 'node:cluster';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const entry = join(root, 'dist/runtime/index.mjs');
process.env.NODE_ENV ||= 'production';

function newest(path) {
  if (!existsSync(path)) return 0;
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  return readdirSync(path).reduce((m, name) => Math.max(m, newest(join(path, name))), s.mtimeMs);
}

/** True when the build is missing or any source it is made from changed after it. */
function buildNeeded() {
  const built = [join(root, 'dist/server/entry.mjs'), entry];
  if (!built.every(existsSync)) return true;
  const sources = ['src', 'server', 'public', 'astro.config.mjs', 'package-lock.json'].map((p) => newest(join(root, p)));
  return Math.max(...sources) > Math.min(...built.map((p) => statSync(p).mtimeMs));
}

/**
 * V8's heap settings, by where the data lives. With the embedded database the one process holds the
 * data too: small young-generation semi-spaces and a heap grown for memory rather than for fewer
 * collections keep it under 250 MB. With PostgreSQL (and `WEB_CONCURRENCY` workers) the data is in
 * another process and many requests at once are the concern: with 4 MB semi-spaces most of a burst's
 * short-lived objects outlive a young collection and are promoted, so old-generation collections run
 * all the time. 1,000 learners starting an exam within 10 s on 2 workers just started: start p99 2.1 s
 * with the small settings, 0.3 s with 32 MB semi-spaces; on workers already warm, 79 ms against
 * 33–68 ms, for 368 MB against 822 MB in all at the peak (docs/benchmarks.md, *Exams under load*).
 */
const postgres = Boolean(process.env.DATABASE_URL?.trim());
/**
 * `--time-first` (the browser journeys' server, `scripts/e2e-server.mjs`, and the servers of their own):
 * without `--optimize-for-size`, which trades processor time for memory. Side by side on PGlite
 * (`BENCH_SECONDS=5 npm run bench`, 2026-11-28): 17–60 % more requests per second per row, and 459 MB
 * after the run instead of 264 MB, over the embedded database's 250 MB goal, so not for production;
 * the journeys' server spent 34 s of processor time instead of 57 s on the authorization and fuzz
 * journeys.
 */
const timeFirst = process.argv.includes('--time-first');
const SERVER_FLAGS = postgres ? ['--max-semi-space-size=32'] : timeFirst ? ['--max-semi-space-size=4'] : ['--max-semi-space-size=4', '--optimize-for-size'];
/**
 * glibc's allocator: one arena (not one per thread that compresses or hashes), and blocks of 64 KB or
 * more mapped and unmapped on their own, so what a burst of responses allocated goes back to the system.
 * A value already set in the environment wins.
 */
const SERVER_MALLOC_ENV = { MALLOC_ARENA_MAX: '1', MALLOC_MMAP_THRESHOLD_: '65536', MALLOC_TRIM_THRESHOLD_: '65536' };

const serveOnly = process.argv.includes('--serve');
if (cluster.isPrimary && !serveOnly && buildNeeded()) {
  console.log('academy: building the site…');
  const r = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit', env: process.env });
  if (r.status !== 0) {
    console.error('academy: the build failed (see above)');
    process.exit(1);
  }
}
if (cluster.isPrimary && process.env.ACADEMY_TUNED !== '1' && typeof process.execve === 'function') {
  const env = { ...SERVER_MALLOC_ENV, ...process.env, ACADEMY_TUNED: '1' };
  process.execve(process.execPath, [process.execPath, ...SERVER_FLAGS, ...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)], env);
}
const server = await import(pathToFileURL(entry).href);
await server.main().catch(server.fail);
