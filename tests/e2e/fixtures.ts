/**
 * The Playwright `test` every journey uses: the same as Playwright's, except that the welcome modal is
 * dismissed for the tab up front (journeys about the modal itself use `welcomeTest`).
 */
import { readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect as baseExpect, test as base, type Page as BasePage } from '@playwright/test';

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

/** The accessibility rules every page is held to. */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21aa'];

/** Runs axe on the page (or the part `include` selects) and fails on any serious or critical violation, listing them. */
export async function expectNoSeriousViolations(page: BasePage, include?: string): Promise<void> {
  const builder = new AxeBuilder({ page }).withTags(AXE_TAGS);
  const results = await (include ? builder.include(include) : builder).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const report = bad
    .map((v) => `${v.impact} ${v.id}: ${v.help}\n${v.nodes.map((n) => `  - ${n.target.join(' ')}: ${n.failureSummary?.replace(/\n/g, ' ')}`).join('\n')}`)
    .join('\n');
  baseExpect(bad, `axe violations on ${page.url()}:\n${report}`).toEqual([]);
}
