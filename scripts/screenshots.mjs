/**
 * Takes full-page screenshots of pages at 360 px and 1200 px (SCREENSHOT_WIDTHS=360,1280 for others), for looking at what we build.
 * Usage: node scripts/screenshots.mjs http://localhost:4321 out-dir /path1 /en/path2 …
 * With SCREENSHOT_EMAIL and SCREENSHOT_PASSWORD set, it logs in through /login first (personal pages).
 * SCREENSHOT_COOKIES='name=value; other=value' sets cookies first (e.g. a cart for the checkout).
 * SCREENSHOT_TOTP_SECRET (a staff account's second factor, e.g. the demo administrator's in the README)
 * enters the code after the password, for the back office's pages.
 */
import { mkdirSync } from 'node:fs';
import { chromium } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { CHROMIUM_ARGS, findChromium } from './find-chromium.mjs';

const [base = 'http://localhost:4321', out = '/tmp/shots', ...pages] = process.argv.slice(2);
mkdirSync(out, { recursive: true });
const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
for (const width of (process.env.SCREENSHOT_WIDTHS ?? "360,1200").split(",").map(Number)) {
  const context = await browser.newContext({ viewport: { width, height: 800 } });
  if (process.env.SCREENSHOT_COOKIES) {
    const cookies = process.env.SCREENSHOT_COOKIES.split(/;\s*/).filter(Boolean).map((pair) => {
      const i = pair.indexOf('=');
      return { name: pair.slice(0, i), value: pair.slice(i + 1), url: base };
    });
    await context.addCookies(cookies);
  }
  const page = await context.newPage();
  // The welcome modal would cover every page of a first visit.
  await page.addInitScript("sessionStorage.setItem('welcome-dismissed', '1')");
  if (process.env.SCREENSHOT_EMAIL) await logIn(page, process.env.SCREENSHOT_EMAIL, process.env.SCREENSHOT_PASSWORD ?? '');
  for (const path of pages.length ? pages : ['/']) {
    await page.goto(base + path, { waitUntil: 'networkidle' });
    // Scroll through the page so lazy images load before the full-page shot.
    await page.evaluate(async () => {
      for (let y = 0; y < document.body.scrollHeight; y += 600) {
        window.scrollTo({ top: y, behavior: 'instant' });
        await new Promise((r) => setTimeout(r, 60));
      }
      // 'instant': the site scrolls smoothly, and a shot taken mid-scroll misplaces the sticky header.
      window.scrollTo({ top: 0, behavior: 'instant' });
    });
    await page.waitForLoadState('networkidle');
    const file = `${out}/${path.replace(/\W+/g, '_') || 'home'}-${width}.png`;
    await page.screenshot({ path: file, fullPage: true });
    console.log(file);
  }
  await context.close();
}
await browser.close();

/** Logs in through the login form (Spanish page), as a person would. */
async function logIn(page, email, password) {
  await page.goto(`${base}/login`);
  const form = page.locator('form[data-enhanced="true"]').filter({ has: page.locator('input[type="password"]') }).first();
  await form.waitFor();
  await form.locator('input[type="email"]').fill(email);
  await form.locator('input[type="password"]').first().fill(password);
  await Promise.all([page.waitForURL((u) => !u.pathname.startsWith('/login')), form.locator('button[type="submit"]').first().click()]);
  if (process.env.SCREENSHOT_TOTP_SECRET && new URL(page.url()).pathname.includes('second-factor')) await enterCode(page, process.env.SCREENSHOT_TOTP_SECRET);
}

/** Enters the second factor's code on the code page; a code already taken in this step waits for the next one. */
async function enterCode(page, secret) {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 });
  for (let attempt = 0; attempt < 3; attempt++) {
    await page.locator('input[name="code"]').fill(totp.generate());
    await page.locator('form.code-form button[type="submit"]').click();
    await page.waitForLoadState('networkidle');
    if (!new URL(page.url()).pathname.includes('second-factor')) return;
    await new Promise((r) => setTimeout(r, 30_050 - (Date.now() % 30_000)));
  }
  throw new Error('no second-factor code was accepted');
}
