/**
 * `npm test`: every quality gate in order, stopping at the first failure:
 * find Chromium → typecheck (astro check) → lint → build → Vitest → Playwright.
 * Ends with one summary line "N passed, N failed, N skipped".
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { findChromium } from './find-chromium.mjs';

const bin = (name) => `node_modules/.bin/${name}`;
const started = Date.now();

function step(title, cmd, args, env = {}) {
  console.log(`\n▶ ${title}`);
  const t = Date.now();
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  if (r.status !== 0) {
    console.error(`\n✗ ${title} failed (exit ${r.status ?? r.signal})`);
    summary();
    process.exit(r.status || 1);
  }
  console.log(`✓ ${title} (${((Date.now() - t) / 1000).toFixed(1)} s)`);
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
let chrome;
try {
  chrome = findChromium();
} catch (err) {
  console.error(`✗ ${err.message}`);
  process.exit(1);
}
console.log(`Chromium: ${chrome}`);
step('typecheck (astro check)', bin('astro'), ['check']);
step('lint (eslint)', bin('eslint'), ['.', '--max-warnings=0']);
step('build', 'npm', ['run', 'build', '--silent']);
step('unit and integration tests (vitest)', bin('vitest'), ['run', '--reporter=default', '--reporter=json', '--outputFile.json=reports/vitest.json']);
step('browser journeys (playwright)', bin('playwright'), ['test'], { CHROME_PATH: chrome });
summary();
