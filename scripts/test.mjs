/**
 * `npm test`: every quality gate, stopping at the first failure:
 * find Chromium → typecheck (`scripts/typecheck.mjs`), lint and the build (then the journeys' seeded database)
 * side by side → Playwright, with Vitest's databases made meanwhile → Vitest.
 * Ends with one summary line "N passed, N failed, N skipped".
 *
 * `--fast` (`npm run test:fast`, for development): typecheck and lint side by side, then Vitest on the
 * embedded database only; no build, no browser, no PostgreSQL.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { setPriority } from 'node:os';
import { findChromium } from './find-chromium.mjs';
import { nameE2eFolders } from './e2e-server.mjs';
import { memoryScratch } from './scratch.mjs';

const bin = (name) => `node_modules/.bin/${name}`;
const started = Date.now();
/** Vitest's starting point (database templates, compiled test processes: scripts/test-run.ts), kept by its maker until the suites are over. */
let testRun;

async function step(title, cmd, args, env = {}) {
  console.log(`\n▶ ${title}`);
  const t = Date.now();
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  if (r.status !== 0) {
    console.error(`\n✗ ${title} failed (exit ${r.status ?? r.signal})`);
    await stop(r.status || 1);
  }
  console.log(`✓ ${title} (${((Date.now() - t) / 1000).toFixed(1)} s)`);
}

/**
 * Lowers a process's priority (and so that of the processes it starts): beside the type checker, the
 * other steps take what it leaves. (With the type checker on TypeScript 7 it is no longer the longest
 * step; giving the build its priority instead did not shorten the phase: 99.9 and 105.2 s against 101.9
 * and 94.2 s, alternating. The phase keeps both cores busy.)
 */
function yieldTo(child) {
  try {
    setPriority(child.pid, 10);
  } catch {
    // Not allowed here: the step runs at the usual priority.
  }
}

/** Runs `cmd`, handing its output to `take`; resolves with its exit status. */
function collect(cmd, args, env, take, { behind = false } = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: process.stdout.isTTY ? '1' : '0', ...env } });
    if (behind) yieldTo(child);
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('close', (status) => resolve(status ?? 1));
  });
}

/**
 * Starts `scripts/test-run.ts`: `ready` resolves with 0 once it has printed where Vitest's templates
 * and test processes are (`line`), or with its exit status if it fails first; `remove` closes its input
 * and resolves once it has removed them.
 */
function startTestRun() {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/test-run.ts'], { stdio: ['pipe', 'pipe', 'inherit'] });
  yieldTo(child);
  const run = { child, line: '' };
  const exited = new Promise((resolve) => child.on('close', (status) => resolve(status ?? 1)));
  run.ready = new Promise((resolve) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const end = out.indexOf('\n');
      if (end >= 0 && !run.line) {
        run.line = out.slice(0, end);
        resolve(0);
      }
    });
    exited.then(resolve);
  });
  run.remove = async () => {
    child.stdin.end();
    await exited;
  };
  return run;
}

/**
 * Runs several steps at once, stopping if one fails. Each prints its output when it ends (not
 * interleaved). A step runs `cmd`, then `then` (`[cmd, args]`) if it passed; or it waits for `wait()`
 * (a promise of an exit status).
 */
async function together(steps) {
  console.log(`\n▶ ${steps.map((s) => s.title).join(' and ')}`);
  const results = await Promise.all(
    steps.map(
      ({ title, cmd, args, env = {}, then, wait, behind }) =>
        (async () => {
          const t = Date.now();
          let output = '';
          let status = wait ? await wait() : await collect(cmd, args, env, (d) => (output += d), { behind });
          if (status === 0 && then) status = await collect(then[0], then[1], env, (d) => (output += d), { behind });
          process.stdout.write(output);
          const seconds = ((Date.now() - t) / 1000).toFixed(1);
          if (status === 0) console.log(`✓ ${title} (${seconds} s)`);
          else console.error(`\n✗ ${title} failed (exit ${status})`);
          return status;
        })(),
    ),
  );
  const failed = results.find((status) => status !== 0);
  if (failed !== undefined) await stop(failed || 1);
}

/**
 * Ends a run that failed: Vitest's starting point is removed first (its PostgreSQL databases dropped),
 * then the memory folder goes at exit. The other way round, the server kept pages of databases whose
 * files were gone: it could write no checkpoint, nor drop any database, until they were dropped.
 */
async function stop(status) {
  summary();
  await testRun?.remove();
  process.exit(status);
}

function counts() {
  const c = { passed: 0, failed: 0, skipped: 0 };
  if (existsSync('reports/vitest.json')) {
    const v = JSON.parse(readFileSync('reports/vitest.json', 'utf8'));
    c.passed += v.numPassedTests ?? 0;
    c.failed += v.numFailedTests ?? 0;
    c.skipped += (v.numPendingTests ?? 0) + (v.numTodoTests ?? 0);
  }
  if (existsSync('reports/e2e.json')) {
    const e = JSON.parse(readFileSync('reports/e2e.json', 'utf8'));
    c.passed += (e.stats?.expected ?? 0) + (e.stats?.flaky ?? 0);
    c.failed += e.stats?.unexpected ?? 0;
    c.skipped += e.stats?.skipped ?? 0;
  }
  return c;
}

function summary() {
  const c = counts();
  console.log(`\ntests (${((Date.now() - started) / 1000).toFixed(0)} s): ${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped`);
}

rmSync('reports', { recursive: true, force: true });
// The run's temporary files (database copies, the journeys' data folders, PostgreSQL's test databases)
// in memory when /dev/shm has room (`scripts/scratch.mjs`), unless TMPDIR names a folder already.
const scratch = process.env.TMPDIR ? null : memoryScratch();
if (scratch) {
  process.env.TMPDIR = scratch;
  process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));
}
const checks = [
  { title: 'typecheck (TypeScript 7, astro check)', cmd: process.execPath, args: ['scripts/typecheck.mjs'] },
  { title: 'lint (eslint)', cmd: bin('eslint'), args: ['.', '--max-warnings=0'], behind: true },
];
if (process.argv.includes('--fast')) {
  await together(checks);
  await step('unit and integration tests on PGlite (vitest)', bin('vitest'), ['run'], { TEST_DATABASES: 'pglite' });
  console.log(`\nfast checks passed (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  process.exit(0);
}
let chrome;
try {
  chrome = findChromium();
} catch (err) {
  console.error(`✗ ${err.message}`);
  process.exit(1);
}
console.log(`Chromium: ${chrome}`);
if (scratch) console.log(`Temporary files: ${scratch} (in memory)`);

// The journeys' data folder and seeded template, named here (playwright.config.ts keeps names it is given):
// the template is made beside the checks, so the journeys' server starts at once.
const e2eTemplate = nameE2eFolders().templateDir;

process.on('exit', () => {
  testRun?.child.stdin.end();
  rmSync(e2eTemplate, { recursive: true, force: true });
});

// Beside the type checker and the linter, what the journeys start from is made: the build, then the
// journeys' template. The suites themselves do not run beside the checks: beside them, on 2 cores, timed
// limits of the suites tripped.
await together([
  ...checks,
  { title: 'build, then the journeys’ seeded database', behind: true, cmd: 'npm', args: ['run', 'build', '--silent'], then: [process.execPath, ['scripts/e2e-server.mjs', '--template']] },
]);
// One suite after the other: each keeps both cores of this machine busy on its own (Vitest's three
// workers; the journeys' two browsers, their renderers and the server). Side by side they took as long
// as one after the other, or longer, and each suite's waits for a core tripped limits meant for what is
// stuck (a login taking 20 s): nothing was gained but flakes. The journeys first: after Vitest (hundreds
// of databases opened and dropped, a few gigabytes of memory touched) they took 619 s here, first 535 s
// in the same checkout; first in clean clones, 667–675 s, unexplained (docs/benchmarks.md, the sixth
// day's session).
// Vitest's starting point is made while the journeys run, at a lower priority: it takes the time their
// waits leave (the journeys keep the cores about 85 % busy), where beside the checks it was the first
// phase's longest part with the build.
testRun = startTestRun();
await step('browser journeys (playwright)', bin('playwright'), ['test'], { CHROME_PATH: chrome });
await together([{ title: 'Vitest’s databases and test processes', wait: () => testRun.ready }]);
process.env.ACADEMY_TEST_RUN = testRun.line;
await step('unit and integration tests (vitest)', bin('vitest'), ['run', '--reporter=default', '--reporter=json', '--outputFile.json=reports/vitest.json']);
await testRun.remove();
summary();
