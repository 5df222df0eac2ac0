import { expect, languageTurns, test, type Page } from './fixtures';

/** What each language's home page must show; the course names come from the seeded database. */
const LANGS = [
  {
    locale: 'es',
    url: '/',
    selectCourse: 'Selecciona tu curso',
    lists: {
      'Cursos introductorios': ['Bienvenida a la academia'],
      'Cursos premium': ['Finanzas personales esenciales', 'Redes sociales para vendedores de viajes'],
    },
    courseLinkPrefix: '/courses-details/',
    hidden: ['Curso de prueba interno', 'Certificación Agente de Viajes Élite', 'Mastermind'],
    nav: 'Navegación principal',
    categories: { label: 'Categorías', items: ['Introductorio', 'Básico', 'Intermedio', 'Entrenamientos'] },
    business: { label: 'Negocios', items: ['Viajes', 'Emprendimiento', 'Marketing digital', 'Finanzas personales'] },
  },
  {
    locale: 'en',
    url: '/en/',
    selectCourse: 'Select your course',
    lists: {
      'Introductory courses': ['Welcome to the academy'],
      'Premium courses': ['Personal finance essentials', 'Social media for travel sellers'],
    },
    courseLinkPrefix: '/en/courses-details/',
    hidden: ['Internal test course', 'Elite Travel Agent Certification', 'Mastermind'],
    nav: 'Main navigation',
    categories: { label: 'Categories', items: ['Introductory', 'Basic', 'Intermediate', 'Trainings'] },
    business: { label: 'Business', items: ['Travel', 'Entrepreneurship', 'Digital marketing', 'Personal finance'] },
  },
] as const;

/** Course ids that must never be listed publicly: the test course and the buyer-only courses. */
const NEVER_LISTED = [12, 10, 16];

async function hrefs(page: Page, selector: string): Promise<string[]> {
  return page.locator(selector).evaluateAll((els) => els.map((e) => e.getAttribute('href') ?? ''));
}

for (const l of LANGS) {
  const turn = languageTurns(LANGS, l);
  test.describe(`home (${l.locale})`, () => {
    if (turn()) test(`renders the database's public courses in its language, with hreflang alternates, at ${l.url}`, async ({ page }) => {
      const response = await page.goto(l.url);
      expect(response?.status()).toBe(200);
      await expect(page.locator('html')).toHaveAttribute('lang', l.locale);
      // hreflang links are absolute, as search engines require.
      await expect(page.locator('link[rel="alternate"][hreflang="es"]')).toHaveAttribute('href', /^https?:\/\/[^/]+\/$/);
      await expect(page.locator('link[rel="alternate"][hreflang="en"]')).toHaveAttribute('href', /^https?:\/\/[^/]+\/en\/$/);
      await expect(page.locator('link[rel="alternate"][hreflang="x-default"]')).toHaveAttribute('href', /^https?:\/\/[^/]+\/$/);

      const main = page.getByRole('main');
      await expect(main.getByRole('link', { name: l.selectCourse }).first()).toBeVisible();
      for (const [title, names] of Object.entries(l.lists)) {
        const section = main.getByRole('region', { name: title });
        await expect(section.getByRole('heading', { level: 2, name: title })).toBeVisible();
        for (const name of names) {
          await expect(section.getByRole('heading', { level: 3, name, exact: true })).toBeVisible();
        }
      }
      // The first introductory course links to its page, in the page's language.
      const intro = main.getByRole('region', { name: Object.keys(l.lists)[0]! });
      const firstName = Object.values(l.lists)[0]![0]!;
      await expect(intro.getByRole('link', { name: new RegExp(firstName) })).toHaveAttribute('href', `${l.courseLinkPrefix}1`);

      // Test courses and buyer-only courses are never listed.
      for (const name of l.hidden) await expect(page.getByText(name)).toHaveCount(0);
      const links = await hrefs(page, 'main a[href*="courses-details/"]');
      expect(links.length).toBeGreaterThan(0);
      for (const id of NEVER_LISTED) expect(links, `course ${id} must not be linked`).not.toContain(`${l.courseLinkPrefix}${id}`);
    });

    if (turn()) test(`header menus list categories and business lines from the database at ${l.url}`, async ({ page }) => {
      await page.goto(l.url);
      const nav = page.getByRole('navigation', { name: l.nav });
      for (const [menu, param] of [
        [l.categories, 'category'],
        [l.business, 'business'],
      ] as const) {
        const summary = nav.locator('summary', { hasText: menu.label });
        await expect(nav.getByRole('link', { name: menu.items[0], exact: true })).toBeHidden();
        await summary.click();
        const list = nav.locator('details[open]');
        await expect(list).toHaveCount(1);
        const links = list.getByRole('link');
        await expect(links).toHaveText([...menu.items]);
        for (const item of menu.items) await expect(list.getByRole('link', { name: item, exact: true })).toBeVisible();
        const first = await links.first().getAttribute('href');
        expect(first).toMatch(new RegExp(`^${l.locale === 'en' ? '/en' : ''}/courses\\?${param}=\\d+$`));
      }
      // Opening the business menu closed the categories menu.
      await expect(nav.getByRole('link', { name: l.categories.items[0], exact: true })).toBeHidden();
      await page.keyboard.press('Escape');
      await expect(nav.locator('details[open]')).toHaveCount(0);
    });
  });
}
