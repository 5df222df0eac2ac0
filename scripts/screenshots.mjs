/**
 * Takes full-page screenshots of pages at 360 px and 1200 px, for looking at what we build.
 * Usage: node scripts/screenshots.mjs http://localhost:4321 out-dir /path1 /en/path2 …
 */
import { mkdirSync } from 'node:fs';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from './find-chromium.mjs';

const [base = 'http://localhost:4321', out = '/tmp/shots', ...pages] = process.argv.slice(2);
mkdirSync(out, { recursive: true });
const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
for (const width of [360, 1200]) {
  const context = await browser.newContext({ viewport: { width, height: 800 } });
  const page = await context.newPage();
  for (const path of pages.length ? pages : ['/']) {
    await page.goto(base + path, { waitUntil: 'networkidle' });
    // Scroll through the page so lazy images load before the full-page shot.
    await page.evaluate(async () => {
      for (let y = 0; y < document.body.scrollHeight; y += 600) {
        window.scrollTo(0, y);
        await new Promise((r) => setTimeout(r, 60));
      }
      window.scrollTo(0, 0);
    });
    await page.waitForLoadState('networkidle');
    const file = `${out}/${path.replace(/\W+/g, '_') || 'home'}-${width}.png`;
    await page.screenshot({ path: file, fullPage: true });
    console.log(file);
  }
  await context.close();
}
await browser.close();
