/**
 * The Playwright `test` every journey uses: the same as Playwright's, except that the welcome modal is
 * dismissed for the tab up front (journeys about the modal itself use `welcomeTest`).
 */
import { readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test as base } from '@playwright/test';

export const test = base.extend({
  page: async ({ page }, use) => {
    await page.addInitScript(() => {
      try {
        sessionStorage.setItem('welcome-dismissed', '1');
      } catch {
        /* storage unavailable in this context */
      }
    });
    await use(page);
  },
});

/** Playwright's own `test`, for journeys that must see the welcome modal. */
export const welcomeTest = base;
export { expect } from '@playwright/test';
export type { Page } from '@playwright/test';

/**
 * The text of an outbox message containing `needle`, from the test server's data folder (without
 * SMTP_URL, mail is written there as `.eml` files). Quoted-printable soft line breaks are undone so
 * a token or a link is never split.
 */
export async function outboxMail(needle: string): Promise<string | undefined> {
  const roots = process.env.E2E_DATA_DIR
    ? [process.env.E2E_DATA_DIR]
    : (await readdir(tmpdir())).filter((d) => d.startsWith('academy-e2e-')).map((d) => join(tmpdir(), d));
  for (const root of roots) {
    const dir = join(root, 'outbox');
    for (const f of await readdir(dir).catch(() => [] as string[])) {
      if (!f.endsWith('.eml')) continue;
      const text = (await readFile(join(dir, f), 'utf8')).replace(/=\r?\n/g, '');
      if (text.includes(needle)) return text;
    }
  }
  return undefined;
}
