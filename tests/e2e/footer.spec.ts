import { expect, test } from './fixtures';

const LANGS = [
  {
    locale: 'es',
    url: '/about-us',
    prefix: '',
    homeLabel: 'Inicio de la academia',
    company: 'Compañía',
    companyLinks: [
      ['Sobre nosotros', '/about-us'],
      ['Política de privacidad', '/privacity'],
      ['Términos de compra', '/terms'],
      ['Contáctanos', '/contact-us'],
    ],
    courses: 'Cursos',
    mostWanted: 'Curso más buscado',
    chat: 'Chatea con nosotros',
    copyright: '© 2022 Academia. Todos los derechos reservados.',
  },
  {
    locale: 'en',
    url: '/en/privacity',
    prefix: '/en',
    homeLabel: 'Academy home',
    company: 'Company',
    companyLinks: [
      ['About us', '/en/about-us'],
      ['Privacy policy', '/en/privacity'],
      ['Terms of purchase', '/en/terms'],
      ['Contact us', '/en/contact-us'],
    ],
    courses: 'Courses',
    mostWanted: 'Most wanted course',
    chat: 'Chat with us',
    copyright: '© 2022 Academia. All rights reserved.',
  },
] as const;

const SOCIAL = [
  ['Facebook', /^https:\/\/(www\.)?facebook\.com\//],
  ['Instagram', /^https:\/\/(www\.)?instagram\.com\//],
  ['YouTube', /^https:\/\/(www\.)?youtube\.com\//],
  ['TikTok', /^https:\/\/(www\.)?tiktok\.com\//],
] as const;

for (const l of LANGS) {
  test(`footer links and copyright (${l.locale}) on ${l.url}`, async ({ page }) => {
    await page.goto(l.url);
    const footer = page.getByRole('contentinfo');
    await expect(footer).toBeVisible();

    await expect(footer.getByRole('link', { name: l.homeLabel })).toHaveAttribute('href', `${l.prefix}/`);

    for (const [name, href] of SOCIAL) {
      const link = footer.getByRole('link', { name, exact: true });
      await expect(link).toBeVisible();
      await expect(link).toHaveAttribute('href', href);
      await expect(link).toHaveAttribute('rel', /noopener/);
    }

    const company = footer.getByRole('navigation', { name: l.company });
    await expect(company.getByRole('heading', { name: l.company })).toBeVisible();
    await expect(company.getByRole('link')).toHaveText(l.companyLinks.map(([name]) => name));
    for (const [name, href] of l.companyLinks) {
      await expect(company.getByRole('link', { name, exact: true })).toHaveAttribute('href', href);
    }

    const courses = footer.getByRole('navigation', { name: l.courses, exact: true });
    await expect(courses.getByRole('link', { name: l.mostWanted })).toHaveAttribute('href', `${l.prefix}/`);
    const chat = courses.getByRole('link', { name: l.chat });
    await expect(chat).toBeVisible();
    await expect(chat).toHaveAttribute('href', /^https:\/\/wa\.me\/\d+/);

    await expect(footer.getByText(l.copyright, { exact: true })).toBeVisible();
  });
}

test('footer company link leads to the page in the same language', async ({ page }) => {
  await page.goto('/en/');
  await page.getByRole('contentinfo').getByRole('link', { name: 'About us', exact: true }).click();
  await expect(page).toHaveURL('/en/about-us');
  await expect(page.getByRole('heading', { level: 1, name: 'About us' })).toBeVisible();
});
