import { expect, test } from './fixtures';

const CASES = [
  {
    locale: 'es',
    url: '/esta-pagina-no-existe/otra',
    home: '/',
    message: 'No pudimos encontrar la página que buscabas.',
    hint: 'Es posible que la página que buscas haya sido eliminada, haya cambiado de nombre o no esté disponible temporalmente.',
    preview: 'Vista previa',
    backHome: 'Volver al inicio',
  },
  {
    locale: 'en',
    url: '/en/nothing/here',
    home: '/en/',
    message: "The Page you were looking for, couldn't be found.",
    hint: 'The page you are looking for might have been removed, had its name changed, or is temporarily unavailable.',
    preview: 'Preview',
    backHome: 'Back To Home',
  },
] as const;

for (const c of CASES) {
  test(`an unknown address answers 404 with the not-found page (${c.locale}) ${c.url}`, async ({ page }) => {
    const response = await page.goto(c.url);
    expect(response?.status()).toBe(404);
    await expect(page).toHaveURL(c.url);
    await expect(page.locator('html')).toHaveAttribute('lang', c.locale);

    const main = page.getByRole('main');
    await expect(main.getByText('404', { exact: true })).toBeVisible();
    await expect(main.getByRole('heading', { level: 1 })).toContainText(c.message);
    await expect(main.getByText(c.hint, { exact: true })).toBeVisible();

    const preview = main.getByRole('link', { name: c.preview, exact: true });
    const back = main.getByRole('link', { name: c.backHome, exact: true });
    await expect(preview).toHaveAttribute('href', c.home);
    await expect(back).toHaveAttribute('href', c.home);

    await back.click();
    await expect(page).toHaveURL(c.home);
    await expect(page.getByRole('heading', { level: 1 })).not.toContainText(c.message);
  });
}

test('plain HTTP clients also get status 404 and a noindex not-found page', async ({ request }) => {
  for (const c of CASES) {
    const res = await request.get(c.url);
    expect(res.status()).toBe(404);
    const html = await res.text();
    expect(html).toContain('<meta name="robots" content="noindex">');
    expect(html).toContain(c.backHome);
  }
});

/*
 * The page a person sees when rendering fails (Astro shows `/500` then, with status 500; checked by
 * hand with a page that throws). Here it is asked for directly: its texts in both languages, a way to
 * try again and a way home, and no cache.
 */
for (const c of [
  { url: '/500', lang: 'es', message: 'Algo salió mal de nuestro lado.', retry: 'Intentar de nuevo', home: '/', backHome: 'Volver al inicio' },
  { url: '/en/500', lang: 'en', message: 'Something went wrong on our side.', retry: 'Try again', home: '/en/', backHome: 'Back To Home' },
]) {
  test(`the server-error page speaks the page's language (${c.lang})`, async ({ page }) => {
    const response = await page.goto(c.url);
    expect(response?.status()).toBe(500);
    expect(response?.headers()['cache-control']).toBe('no-store');
    await expect(page.locator('html')).toHaveAttribute('lang', c.lang);
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { level: 1 })).toContainText(c.message);
    await expect(main.getByRole('link', { name: c.retry })).toHaveAttribute('href', c.url);
    await expect(main.getByRole('link', { name: c.backHome })).toHaveAttribute('href', c.home);
  });
}
