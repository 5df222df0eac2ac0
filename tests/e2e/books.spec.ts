/**
 * Digital books: the demo buyer (who bought book 1) downloads its PDF from my shopping in Spanish and
 * in English, a private attachment generated for them; a learner who did not buy it gets the not-found
 * answer for the same link.
 */
import { expect, test } from './fixtures';
import { PEOPLE, registrationForm } from './support/seed';

const RUN = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

test('the demo buyer downloads the book from my shopping in both languages; a learner who did not buy it gets 404', async ({ page, browser }) => {
  const login = await page.request.post('/_actions/auth.login', { form: { email: PEOPLE.buyer.email, password: PEOPLE.buyer.password, lang: 'es' } });
  expect(login.status()).toBe(200);

  await page.goto('/myshopping');
  const link = page.getByRole('link', { name: 'Descargar el libro «El arte de viajar vendiendo» (PDF)' });
  await expect(link).toHaveText('Descargar el libro');
  const href = (await link.getAttribute('href'))!;
  expect(href).toBe('/book-download/1?lang=es');
  const pdf = await page.request.get(href);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()).toMatchObject({
    'content-type': 'application/pdf',
    'content-disposition': 'attachment; filename="el-arte-de-viajar-vendiendo.pdf"',
    'cache-control': 'private, no-store',
    'x-content-type-options': 'nosniff',
  });
  expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');

  await page.goto('/en/myshopping');
  const english = page.getByRole('link', { name: 'Download the book “The art of selling travel” (PDF)' });
  await expect(english).toHaveText('Download the book');
  const en = await page.request.get((await english.getAttribute('href'))!);
  expect(en.headers()['content-disposition']).toBe('attachment; filename="the-art-of-selling-travel.pdf"');
  expect((await en.body()).subarray(0, 5).toString()).toBe('%PDF-');

  // Someone else, logged in, asking for the same book.
  const other = await browser.newContext({ baseURL: test.info().project.use.baseURL! });
  try {
    expect((await other.request.post('/_actions/auth.register', { form: registrationForm(`libro.${RUN}@example.com`, 'Libro') })).status()).toBe(200);
    const refused = await other.request.get(href, { maxRedirects: 0 });
    expect(refused.status()).toBe(404);
    expect(refused.headers()['content-type']).not.toContain('pdf');
    await other.request.get('/myshopping').then(async (r) => expect(await r.text()).not.toContain('/book-download/'));
  } finally {
    await other.close();
  }
});
