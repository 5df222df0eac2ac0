import { expect, test, type Page } from './fixtures';

const stored = (page: Page, key: string) => page.evaluate((k) => localStorage.getItem(k), key);

test.describe('language preference', () => {
  test('switching to English sticks across reloads and Spanish addresses; switching back to Spanish sticks too', async ({ page }) => {
    await page.goto('/about-us');
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await expect(page.getByRole('heading', { level: 1, name: 'Sobre nosotros' })).toBeVisible();
    expect(await stored(page, 'language')).toBeNull();

    await page.getByRole('link', { name: 'English', exact: true }).click();
    await expect(page).toHaveURL('/en/about-us');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('heading', { level: 1, name: 'About us' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'Our story' })).toBeVisible();
    expect(await stored(page, 'language')).toBe('en');

    await page.reload();
    await expect(page).toHaveURL('/en/about-us');
    await expect(page.getByRole('heading', { level: 1, name: 'About us' })).toBeVisible();

    // A Spanish address takes an English-preferring visitor to the English page.
    await page.goto('/privacity');
    await expect(page).toHaveURL('/en/privacity');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('navigation', { name: 'Breadcrumb' }).getByText('Privacy', { exact: true })).toBeVisible();

    // Back to Spanish.
    await page.getByRole('link', { name: 'Español', exact: true }).click();
    await expect(page).toHaveURL('/privacity');
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await expect(page.getByRole('navigation', { name: 'Ruta de navegación' }).getByText('Privacidad', { exact: true })).toBeVisible();
    expect(await stored(page, 'language')).toBe('es');

    await page.goto('/about-us');
    await expect(page).toHaveURL('/about-us');
    await expect(page.getByRole('heading', { level: 1, name: 'Sobre nosotros' })).toBeVisible();
    await page.reload();
    await expect(page).toHaveURL('/about-us');
    // An English address now takes the visitor to the Spanish page.
    await page.goto('/en/');
    await expect(page).toHaveURL('/');
    await expect(page.getByRole('link', { name: 'Selecciona tu curso' }).first()).toBeVisible();
  });

  test('keeps the query string and hash when following the stored language', async ({ page }) => {
    await page.goto('/about-us');
    await page.evaluate(() => localStorage.setItem('language', 'en'));
    await page.goto('/about-us?ref=abc#main');
    await expect(page).toHaveURL('/en/about-us?ref=abc#main');
  });
});

test('a stored tracking value is removed on load unless it is a list', async ({ page }) => {
  await page.goto('/');
  for (const bad of ['{"a":1}', 'oops', '42', 'null']) {
    await page.evaluate((v) => localStorage.setItem('tracking', v), bad);
    await page.reload();
    await expect(page.getByRole('link', { name: 'Selecciona tu curso' }).first()).toBeVisible();
    expect(await stored(page, 'tracking'), `tracking=${bad} must be removed`).toBeNull();
  }
  for (const good of ['[]', '[{"course":1}]']) {
    await page.evaluate((v) => localStorage.setItem('tracking', v), good);
    await page.reload();
    await expect(page.getByRole('link', { name: 'Selecciona tu curso' }).first()).toBeVisible();
    expect(await stored(page, 'tracking'), `tracking=${good} must be kept`).toBe(good);
  }
});

test.describe('footer sign-up link', () => {
  for (const l of [
    { url: '/', name: 'Regístrate', href: '/plans' },
    { url: '/en/privacity', name: 'Sign up', href: '/en/plans' },
  ]) {
    test(`is shown only when a contact value is stored (${l.url})`, async ({ page }) => {
      await page.goto(l.url);
      const footer = page.getByRole('contentinfo');
      await expect(footer.getByRole('link', { name: l.name })).toBeHidden();
      await expect(footer.locator(`a[href="${l.href}"]`)).toBeHidden();

      await page.evaluate(() => localStorage.setItem('contact', JSON.stringify({ email: 'ana@example.com' })));
      await page.reload();
      const link = footer.getByRole('link', { name: l.name });
      await expect(link).toBeVisible();
      await expect(link).toHaveAttribute('href', l.href);

      await page.evaluate(() => localStorage.removeItem('contact'));
      await page.reload();
      await expect(footer.getByRole('link', { name: l.name })).toBeHidden();
    });
  }
});
