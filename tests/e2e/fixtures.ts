/**
 * The Playwright `test` every journey uses: the same as Playwright's, except that the welcome modal is
 * dismissed for the tab up front (journeys about the modal itself use `welcomeTest`).
 */
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
