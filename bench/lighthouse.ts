/**
 * Lighthouse in headless Chromium with mobile emulation (a benchmark: it asserts nothing). Starts the
 * production server on a fresh PGlite database and prints the four category scores for the home page,
 * the catalogue and a course page, with the audits that keep a score under 100.
 *
 *   npm run bench:lighthouse
 */
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM_ARGS, findChromium } from '../scripts/find-chromium.mjs';
import { startBenchServer } from './server';

const port = Number(process.env.BENCH_PORT ?? 4520);
const pages = ['/', '/courses', '/courses-details/6', '/en/courses-details/31'];
const categories = ['performance', 'accessibility', 'best-practices', 'seo'] as const;

const { base, stop } = await startBenchServer(port);

const chrome = await chromeLauncher.launch({
  chromePath: findChromium({ shell: false }),
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
    // What to look at when a score drops: the largest paint's element and phases, and DevTools issues.
    const lcp = lhr.audits['largest-contentful-paint-element']?.details as { items?: { items?: { node?: { snippet?: string }; phase?: string; timing?: number }[] }[] } | undefined;
    const [element, phases] = [lcp?.items?.[0]?.items?.[0]?.node?.snippet, lcp?.items?.[1]?.items];
    if (element) console.log(`    LCP element: ${element.slice(0, 140)}${phases ? `  (${phases.map((p) => `${p.phase} ${Math.round(p.timing ?? 0)} ms`).join(', ')})` : ''}`);
    const issues = lhr.audits['inspector-issues']?.details as { items?: { issueType?: string; subItems?: { items?: unknown[] } }[] } | undefined;
    for (const issue of issues?.items ?? []) console.log(`    DevTools issue: ${issue.issueType} ${JSON.stringify(issue.subItems?.items?.slice(0, 2) ?? [])}`);
    const m = lhr.audits;
    console.log(`    FCP ${m['first-contentful-paint']?.displayValue}, LCP ${m['largest-contentful-paint']?.displayValue}, TBT ${m['total-blocking-time']?.displayValue}, CLS ${m['cumulative-layout-shift']?.displayValue}`);
  }
} finally {
  chrome.kill();
  await stop();
}
