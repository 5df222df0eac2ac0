/**
 * The legal pages keep their promises: the terms of purchase in both languages (the refund rule), linked
 * from the footer and from the checkout's consent in the page's language (opening in a new tab, so the
 * form keeps what was typed), listed in the sitemap, and free of serious accessibility violations.
 */
import { expect, expectNoSeriousViolations, test } from './fixtures';
import { registrationForm } from './support/seed';

const RUN = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

const LANGS = [
  {
    locale: 'es',
    prefix: '',
    heading: 'Reembolsos',
    refund: 'dentro de los 14 días siguientes a la compra, siempre que hayas visto menos del 20 % del curso',
    cancel: 'conservas el acceso hasta que termine el periodo ya pagado',
    footer: 'Términos de compra',
    consent: 'términos de compra (se abre en una pestaña nueva)',
  },
  {
    locale: 'en',
    prefix: '/en',
    heading: 'Refunds',
    refund: 'within 14 days of purchase, provided you have watched less than 20 % of the course',
    cancel: 'you keep access until the period already paid ends',
    footer: 'Terms of purchase',
    consent: 'terms of purchase (opens in a new tab)',
  },
] as const;

for (const l of LANGS) {
  // One tab: the footer's link leads to the terms page, which is then read (and, in Spanish, audited by axe).
  test(`the footer links the terms in ${l.locale}; the terms page states the refund rule and links the privacy policy${l.locale === 'es' ? ', with no serious axe violation' : ''}`, async ({ page }) => {
    await page.goto(`${l.prefix}/about-us`);
    const link = page.getByRole('contentinfo').getByRole('link', { name: l.footer, exact: true });
    await expect(link).toHaveAttribute('href', `${l.prefix}/terms`);
    const [response] = await Promise.all([page.waitForResponse((r) => r.request().isNavigationRequest() && new URL(r.url()).pathname === `${l.prefix}/terms`), link.click()]);
    expect(response.status()).toBe(200);
    await expect(page).toHaveURL(new RegExp(`${l.prefix}/terms$`));
    await expect(page.locator('html')).toHaveAttribute('lang', l.locale);
    await expect(page.getByRole('heading', { level: 2, name: l.heading })).toBeVisible();
    await expect(page.locator('article')).toContainText(l.refund);
    await expect(page.locator('article')).toContainText(l.cancel);
    await expect(page.locator('article a[href$="/privacity"]')).toHaveAttribute('href', `${l.prefix}/privacity`);
    if (l.locale === 'es') await expectNoSeriousViolations(page);
  });

  test(`the checkout's consent links the terms in ${l.locale}, in a new tab`, async ({ page }) => {
    const email = `legal.${l.locale}.${RUN}@example.com`;
    expect((await page.request.post('/_actions/auth.register', { form: registrationForm(email, 'Legal') })).status()).toBe(200);
    expect((await page.request.post('/_actions/cart.add', { form: { kind: 'course', id: '6', lang: l.locale } })).status()).toBe(200);
    await page.goto(`${l.prefix}/purchase-detail`);
    const link = page.locator('form').getByRole('link', { name: l.consent, exact: true });
    await expect(link).toHaveAttribute('href', `${l.prefix}/terms`);
    await expect(link).toHaveAttribute('target', '_blank');
    await expect(link).toHaveAttribute('rel', /noopener/);
    const [tab] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
    await expect(tab).toHaveURL(new RegExp(`${l.prefix}/terms$`));
    await expect(page).toHaveURL(new RegExp(`${l.prefix}/purchase-detail`));
  });
}

test('the sitemap lists the terms in both languages', async ({ request }) => {
  const xml = await (await request.get('/sitemap.xml')).text();
  expect(xml).toMatch(/\/terms<\/loc>/);
  expect(xml).toMatch(/\/en\/terms<\/loc>|hreflang="en"[^>]*\/en\/terms/);
});

test.describe('small screens', () => {
  test.use({ viewport: { width: 360, height: 780 } });
  test('axe finds no serious violations on the English terms page @mobile', async ({ page }) => {
    await page.goto('/en/terms');
    await expectNoSeriousViolations(page);
  });
});
