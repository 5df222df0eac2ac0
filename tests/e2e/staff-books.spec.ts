/**
 * Books and plans managed by staff, on a server of its own (the catalogue changes): the administrator
 * creates a bilingual book with an uploaded cover through the back office's form, a visitor finds it on
 * the books page with its cover and price at once, the price edited is live on the next request, a file
 * that is not a PDF is refused in words, and a plan's new price shows on the plans page. The pages pass
 * the accessibility checks.
 */
import sharp from 'sharp';
import { expect, expectNoSeriousViolations, test, useOwnServer } from './fixtures';
import { proveWithFreshCode } from './support/staff';
import { messages } from '../../src/i18n';

const t = messages('en').products;
const server = useOwnServer();

test('@staff an administrator creates a book with its cover and edits a price; visitors see both at once', async ({ page, browser }) => {
  test.slow();
  const { baseURL } = server();
  const headers = { origin: baseURL };
  expect((await page.request.post(`${baseURL}/_actions/auth.login`, { headers, form: { email: 'admin@academia.example', password: 'Admin2026', lang: 'en' } })).status()).toBe(200);
  const proved = await proveWithFreshCode(async (code) => {
    const r = await page.request.post(`${baseURL}/_actions/staff.proveCode`, { headers, form: { code, lang: 'en' } });
    return { status: r.status() };
  });
  expect(proved.status).toBe(200);

  // The new book's form, above the list.
  await page.goto(`${baseURL}/en/admin/books`);
  await expect(page.getByRole('heading', { level: 2, name: t.books.newTitle })).toBeVisible();
  await expectNoSeriousViolations(page);
  await page.getByLabel(t.fields.titleEs).fill('Vender con calma');
  await page.getByLabel(t.fields.titleEn).fill('Selling calmly');
  await page.getByLabel(t.fields.author).fill('Ana Ruiz');
  await page.getByLabel(t.fields.price).fill('7,25');
  await page.getByLabel(t.fields.descriptionEs).fill('Un libro breve. Dos ideas.');
  await page.getByLabel(t.fields.descriptionEn).fill('A short book. Two ideas.');
  const png = await sharp({ create: { width: 600, height: 900, channels: 3, background: '#e76f51' } }).png().toBuffer();
  await page.getByLabel(t.fields.cover).setInputFiles({ name: 'portada.png', mimeType: 'image/png', buffer: png });
  await page.getByRole('button', { name: t.books.create }).click();
  await expect(page.locator('p.notice[role="status"]')).toHaveText(t.books.created);

  // A visitor sees it at once, with the server's own cover.
  const visitor = await browser.newContext({ baseURL });
  try {
    const shop = await visitor.newPage();
    await shop.goto('/en/books');
    const card = shop.getByRole('listitem').filter({ has: shop.getByRole('heading', { name: 'Selling calmly' }) });
    await expect(card).toContainText('$7.25');
    const src = (await card.locator('img').getAttribute('src'))!;
    expect(src).toMatch(/^\/media\/book-cover\/\d+-[0-9a-f]{20}\.webp$/);
    const cover = await shop.request.get(src);
    expect([cover.status(), cover.headers()['content-type']]).toEqual([200, 'image/webp']);

    // The price edited: live on the next request, no restart.
    await page.getByRole('link', { name: 'Edit Selling calmly' }).click();
    await expect(page.getByRole('heading', { level: 2, name: 'Edit "Selling calmly"' })).toBeVisible();
    await page.getByLabel(t.fields.price).fill('8.00');
    await page.getByRole('button', { name: t.books.save }).click();
    await expect(page.locator('p.notice[role="status"]')).toHaveText(t.books.saved);
    await shop.goto('/en/books');
    await expect(card).toContainText('$8.00');

    // An HTML page renamed .pdf is refused in words; the form is still there.
    await page.getByLabel(t.fields.pdf).setInputFiles({ name: 'book.pdf', mimeType: 'application/pdf', buffer: Buffer.from('<html><script>alert(1)</script></html>') });
    await page.getByRole('button', { name: t.books.uploadPdf }).click();
    await expect(page.locator('p.notice[role="alert"]')).toHaveText(t.pdf.notPdf);

    // A plan's new price shows on the plans page.
    await page.goto(`${baseURL}/en/admin/plans?plan=1`);
    await expectNoSeriousViolations(page);
    await page.getByLabel(t.fields.price).fill('10.49');
    await page.getByRole('button', { name: t.plans.save }).click();
    await expect(page.locator('p.notice[role="status"]')).toHaveText(t.plans.saved);
    await shop.goto('/en/plans');
    await expect(shop.getByText('$10.49').first()).toBeVisible();
  } finally {
    await visitor.close();
  }
});
