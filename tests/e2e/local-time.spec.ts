/**
 * Instants on pages are the reader's: the server writes them in UTC (kept pages are the same for
 * everyone), the browser rewrites them in its own time zone; without JavaScript the UTC text stays.
 */
import { expect, test } from './fixtures';
import { PEOPLE } from './support/seed';

/** The buyer's order dates on "my shopping" (es) and an order's date and time, as a browser in `timezoneId` shows them. */
async function orderDates(browser: import('@playwright/test').Browser, baseURL: string, options: { timezoneId?: string; javaScriptEnabled?: boolean }) {
  const context = await browser.newContext({ baseURL, ...options });
  const page = await context.newPage();
  const login = await page.request.post('/_actions/auth.login', { headers: { origin: baseURL }, form: { email: PEOPLE.buyer.email, password: PEOPLE.buyer.password, lang: 'es' } });
  expect(login.status()).toBe(200);
  await page.goto('/myshopping');
  const first = page.locator('time[data-local-time]').first();
  await expect(first).toBeVisible();
  const at = new Date((await first.getAttribute('datetime'))!);
  const listed = (await first.textContent())!;
  await page.getByRole('link', { name: /^Ver el pedido / }).first().click();
  await expect(page).toHaveURL(/\/myshopping-detail\/\d+$/);
  const detail = page.locator('time[data-local-time="datetime"]').first();
  const detailAt = new Date((await detail.getAttribute('datetime'))!);
  const detailText = (await detail.textContent())!;
  await context.close();
  return { at, listed, detailAt, detailText };
}

const long = (at: Date, timeZone: string, time = false) =>
  new Intl.DateTimeFormat('es-ES', { dateStyle: 'long', ...(time ? { timeStyle: 'short' as const } : {}), timeZone }).format(at);

test("order dates are shown in the reader's time zone; without JavaScript in UTC, said so", async ({ browser, baseURL }) => {
  // 26 hours apart: the same instant is never the same day in both.
  const east = await orderDates(browser, baseURL!, { timezoneId: 'Pacific/Kiritimati' });
  const west = await orderDates(browser, baseURL!, { timezoneId: 'Etc/GMT+12' });
  expect(east.listed).toBe(long(east.at, 'Pacific/Kiritimati'));
  expect(west.listed).toBe(long(west.at, 'Etc/GMT+12'));
  expect(east.listed).not.toBe(west.listed);
  expect(east.detailText).toBe(long(east.detailAt, 'Pacific/Kiritimati', true));
  const plain = await orderDates(browser, baseURL!, { timezoneId: 'Pacific/Kiritimati', javaScriptEnabled: false });
  expect(plain.listed).toBe(long(plain.at, 'UTC'));
  expect(plain.detailText).toBe(`${long(plain.detailAt, 'UTC', true)} UTC`);
});
