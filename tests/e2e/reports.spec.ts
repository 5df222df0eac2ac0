/**
 * The reports in the back office: the administrator (every report's role through the policy) opens each
 * report with a filter, sees its summary sentence, its chart (an image with a name) beside its table,
 * and downloads its CSV (UTF-8 with a BOM, headers in the page's language); a reversed range is a 400
 * with its sentence. On a phone (360 px) a report's chart and table fit the width, and its CSV downloads.
 */
import { readFile } from 'node:fs/promises';
import { expect, expectNoSeriousViolations, test, type Page } from './fixtures';
import { browseAsAdministrator } from './support/staff';
import { messages } from '../../src/i18n';
import { REPORTS } from '../../src/lib/reports/reports';

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const FROM = day(-700);
const TO = day(0);

async function downloadCsv(page: Page, name: string): Promise<string> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name }).click()]);
  const bytes = await readFile((await download.path())!);
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
}

test('@staff each report opens with a filter, shows its chart beside its table, and downloads as CSV', async ({ browser, baseURL }) => {
  test.slow();
  const context = await browser.newContext({ baseURL: baseURL!, acceptDownloads: true });
  await browseAsAdministrator(context, baseURL!);
  const page = await context.newPage();
  const t = messages('en').reports;
  try {
    await page.goto('/en/admin/reports');
    for (const r of REPORTS) await expect(page.getByRole('link', { name: t.names[r] })).toBeVisible();
    await expectNoSeriousViolations(page);

    for (const report of REPORTS) {
      await page.goto('/en/admin/reports');
      await page.getByRole('link', { name: t.names[report] }).click();
      await expect(page.getByRole('heading', { level: 1, name: t.names[report] })).toBeVisible();
      await page.getByLabel(t.filters.from, { exact: true }).fill(FROM);
      await page.getByLabel(t.filters.to, { exact: true }).fill(TO);
      await page.getByLabel(t.filters.bucket, { exact: true }).selectOption('month');
      if (report === 'exams' || report === 'funnel') await page.getByLabel(t.filters.course, { exact: true }).selectOption({ index: 1 });
      await page.getByRole('button', { name: t.filters.apply }).click();
      await expect(page).toHaveURL(new RegExp(`/en/admin/reports/${report}\\?from=${FROM}&to=${TO}&bucket=month`));
      await expect(page.locator('.report-summary')).not.toBeEmpty();
      // The demo data always gives enrolments and revenue a chart and its table (the others only when the period or course has figures).
      if (report === 'enrolments' || report === 'revenue') {
        await expect(page.getByRole('region', { name: /^Table: / }).first()).toBeVisible();
        await expect(page.locator('figure.report-chart [role="img"]').first()).toBeVisible();
      }
      await expectNoSeriousViolations(page);
      const csv = await downloadCsv(page, t.csvLabel.replace('{name}', t.names[report]));
      expect(csv.startsWith('\uFEFF'), 'the CSV starts with a BOM').toBe(true);
      expect(csv.split('\r\n')[0]!.length).toBeGreaterThan(3);
    }

    // A reversed range: the sentence, and a 400.
    const refused = await page.goto(`/en/admin/reports/revenue?from=${TO}&to=${FROM}`);
    expect(refused!.status()).toBe(400);
    await expect(page.getByRole('alert')).toHaveText(t.refusals.reversed);
  } finally {
    await context.close();
  }
});

test('@mobile @staff a report on a phone: the chart and its table fit 360 px, the CSV downloads', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL: baseURL!, acceptDownloads: true, viewport: { width: 360, height: 780 } });
  await browseAsAdministrator(context, baseURL!);
  const page = await context.newPage();
  const t = messages('es').reports;
  try {
    await page.goto(`/admin/reports/revenue?from=${FROM}&to=${TO}&bucket=month`);
    await expect(page.locator('.report-summary')).not.toBeEmpty();
    const chart = page.locator('figure.report-chart svg').first();
    await expect(chart).toBeVisible();
    const box = (await chart.boundingBox())!;
    expect(box.width).toBeLessThanOrEqual(360);
    expect(box.width).toBeGreaterThan(250);
    await expect(page.getByRole('region', { name: /^Tabla: / }).first()).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await expectNoSeriousViolations(page);
    const csv = await downloadCsv(page, t.csvLabel.replace('{name}', t.names.revenue));
    expect(csv.split('\r\n')[0]).toBe('\uFEFFDesglose,Concepto,Pedidos,Cobrado,Reembolsado,Neto');
  } finally {
    await context.close();
  }
});
