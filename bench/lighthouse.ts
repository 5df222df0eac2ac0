/**
 * Lighthouse in headless Chromium with mobile emulation (a benchmark: it asserts nothing). Starts the
 * production server on a fresh PGlite database and prints the four category scores for the home page,
 * the catalogue and a course page, with the audits that keep a score under 100.
 *
 *   npm run bench:lighthouse
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM_ARGS, findChromium } from '../scripts/find-chromium.mjs';

const port = Number(process.env.BENCH_PORT ?? 4520);
const base = `http://127.0.0.1:${port}`;
const pages = ['/', '/courses', '/courses-details/6', '/en/courses-details/31'];
const categories = ['performance', 'accessibility', 'best-practices', 'seo'] as const;

if (!existsSync(join(process.env.DIST_DIR ?? 'dist', 'server/entry.mjs'))) {
  if (spawnSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit' }).status !== 0) process.exit(1);
}
const dataDir = mkdtempSync(join(tmpdir(), 'academy-lighthouse-'));
const server = spawn('node_modules/.bin/tsx', ['server/index.ts'], {
  env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
await new Promise<void>((resolve, reject) => {
  server.stdout!.on('data', (d: Buffer) => d.toString().includes('ready at') && resolve());
  server.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
});

const chrome = await chromeLauncher.launch({
  chromePath: findChromium(),
  chromeFlags: ['--headless=new', ...CHROMIUM_ARGS],
});
console.log(`\nLighthouse (mobile emulation, headless Chromium), ${new Date().toISOString()}`);
try {
  for (const path of pages) {
    const result = await lighthouse(base + path, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: [...categories] });
    if (!result) continue;
    const { lhr } = result;
    const scores = categories.map((c) => `${c} ${Math.round((lhr.categories[c]?.score ?? 0) * 100)}`).join('  ');
    console.log(`${path.padEnd(24)} ${scores}`);
    for (const c of categories) {
      const refs = lhr.categories[c]?.auditRefs ?? [];
      for (const ref of refs) {
        const audit = lhr.audits[ref.id];
        if (ref.weight > 0 && audit && audit.score !== null && audit.score < 1) console.log(`    ${c}: ${audit.id} (${Math.round(audit.score * 100)}) ${audit.displayValue ?? ''}`);
      }
    }
    const m = lhr.audits;
    console.log(`    FCP ${m['first-contentful-paint']?.displayValue}, LCP ${m['largest-contentful-paint']?.displayValue}, TBT ${m['total-blocking-time']?.displayValue}, CLS ${m['cumulative-layout-shift']?.displayValue}`);
  }
} finally {
  chrome.kill();
  server.kill('SIGTERM');
  await new Promise((r) => server.on('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
}
