import { expect, expectNoSeriousViolations, test } from './fixtures';


const PAGES: { url: string; status: number; audit?: boolean; mobile?: boolean }[] = [
  { url: '/', status: 200, audit: true, mobile: true },
  // The home page's desktop layout (header menus, carousel); its phone layout is the @mobile audit of `/`.
  { url: '/en/', status: 200, audit: true },
  { url: '/privacity', status: 200 },
  { url: '/en/privacity', status: 200, audit: true },
  { url: '/about-us', status: 200, audit: true },
  { url: '/en/about-us', status: 200 },
  { url: '/no-existe', status: 404, audit: true },
];

test('every audited page answers its status in both languages', async ({ request }) => {
  for (const p of PAGES) expect((await request.get(p.url)).status(), p.url).toBe(p.status);
});

// axe audits each template once (both languages draw the same markup): Spanish and English by turns.
for (const p of PAGES.filter((x) => x.audit)) {
  test(`axe finds no serious or critical violations on ${p.url}${p.mobile ? ' @mobile' : ''}`, async ({ page }) => {
    const response = await page.goto(p.url);
    expect(response?.status()).toBe(p.status);
    await expectNoSeriousViolations(page);
  });
}

test.describe('small screens', () => {
  test.use({ viewport: { width: 360, height: 780 } });
  // The mobile project (Pixel 7 at 360 px) runs these; the desktop project would only repeat them.
  test.skip(({ isMobile }) => !isMobile, 'runs in the mobile project');

  for (const l of [
    { url: '/', open: 'Abrir menú', close: 'Cerrar menú', nav: 'Navegación principal', link: 'Todos los cursos' },
    { url: '/en/about-us', open: 'Open menu', close: 'Close menu', nav: 'Main navigation', link: 'All courses' },
  ]) {
    test(`the menu button opens the navigation at 360 px without horizontal overflow (${l.url}) @mobile`, async ({ page }) => {
      await page.goto(l.url);
      const overflow = () => page.evaluate(() => document.documentElement.scrollWidth);
      expect(await overflow()).toBeLessThanOrEqual(360);

      const toggle = page.getByRole('button', { name: l.open });
      await expect(toggle).toBeVisible();
      await expect(toggle).toHaveAttribute('aria-expanded', 'false');
      const nav = page.getByRole('navigation', { name: l.nav });
      await expect(nav).toBeHidden();

      await toggle.click();
      const closeToggle = page.getByRole('button', { name: l.close });
      await expect(closeToggle).toHaveAttribute('aria-expanded', 'true');
      await expect(nav).toBeVisible();
      await expect(nav.getByRole('link', { name: l.link })).toBeVisible();
      expect(await overflow()).toBeLessThanOrEqual(360);
      await expectNoSeriousViolations(page);

      await closeToggle.click();
      await expect(page.getByRole('button', { name: l.open })).toHaveAttribute('aria-expanded', 'false');
      await expect(nav).toBeHidden();
    });
  }
});
