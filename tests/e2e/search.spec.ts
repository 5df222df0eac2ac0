import { expect, test, type Page } from '@playwright/test';
import { DEBOUNCE_MS } from '../../src/lib/search/query';
import { expectNoSeriousViolations, languageTurns } from './fixtures';

/** What each language's header search reads and where it leads. */
const LANGS = [
  {
    locale: 'es',
    url: '/about-us',
    label: 'Buscar cursos',
    list: 'Cursos sugeridos',
    typed: 'visión',
    first: 'Real Vision básico',
    second: 'Real Vision intermedio',
    found: '2 cursos encontrados. Usa las flechas para recorrerlos.',
    typo: { q: 'marketng', name: 'Marketing digital básico' },
    none: 'Ningún curso coincide con «zzzqqq».',
    details: '/courses-details/31',
    results: '/courses',
    limitError: 'El límite debe ser un número entero entre 1 y 20.',
    menu: 'Abrir menú',
  },
  {
    locale: 'en',
    url: '/en/about-us',
    label: 'Search courses',
    list: 'Suggested courses',
    typed: 'Vision',
    first: 'Real Vision basic',
    second: 'Real Vision intermediate',
    found: '2 courses found. Use the arrow keys to browse them.',
    typo: { q: 'marketng', name: 'Digital marketing basics' },
    none: 'No course matches “zzzqqq”.',
    details: '/en/courses-details/31',
    results: '/en/courses',
    limitError: 'The limit must be a whole number between 1 and 20.',
    menu: 'Open menu',
  },
] as const;

/** Opens the page and waits until the search island is hydrated (`client:idle`). */
async function openSearch(page: Page, url: string, label: string) {
  await page.goto(url);
  await expect(page.locator('astro-island:has([data-slot="search"])')).not.toHaveAttribute('ssr', '');
  return page.getByRole('combobox', { name: label });
}

for (const l of LANGS) {
  const turn = languageTurns(LANGS, l);
  test.describe(`header search (${l.locale})`, () => {
    if (turn()) test('suggests nothing under 3 characters, then lists matching courses with category and thumbnail', async ({ page }) => {
      const calls: string[] = [];
      page.on('request', (r) => {
        if (r.url().includes('/api/search')) calls.push(r.url());
      });
      // The page's timers run on a clock the test can move: past the debounce at once, not after a wait.
      await page.clock.install();
      const box = await openSearch(page, l.url, l.label);
      await expect(box).toHaveAttribute('aria-expanded', 'false');

      await box.fill(l.typed.slice(0, 2));
      // Well past the debounce: a request for two characters would have been sent by now (and the one
      // request counted below, for the whole text, would be the second).
      await page.clock.runFor(DEBOUNCE_MS * 3);
      await expect(page.getByRole('listbox', { name: l.list })).toBeHidden();
      await expect(box).toHaveAttribute('aria-expanded', 'false');
      expect(calls).toEqual([]);

      await box.fill(l.typed);
      const list = page.getByRole('listbox', { name: l.list });
      await expect(list).toBeVisible();
      await expect(box).toHaveAttribute('aria-expanded', 'true');
      const options = list.getByRole('option');
      await expect(options.first()).toContainText(l.first);
      await expect(options.nth(1)).toContainText(l.second);
      await expect(options.first().locator('img')).toHaveAttribute('src', '/images/courses/31.webp');
      await expect(page.getByRole('status').filter({ hasText: l.found })).toBeAttached();
      // One request for the final text: the debounce swallowed the intermediate keystrokes.
      expect(calls).toHaveLength(1);
      expect(new URL(calls[0]!).searchParams.get('lang')).toBe(l.locale);
    });

    if (turn()) test('ArrowDown then Enter opens the course details page', async ({ page }) => {
      const box = await openSearch(page, l.url, l.label);
      await box.fill(l.typed);
      const first = page.getByRole('option').first();
      await expect(first).toContainText(l.first);
      await expect(first).toHaveAttribute('aria-selected', 'false');
      await box.press('ArrowDown');
      await expect(first).toHaveAttribute('aria-selected', 'true');
      await expect(box).toHaveAttribute('aria-activedescendant', (await first.getAttribute('id'))!);
      // ArrowUp from the first option wraps to the last; ArrowDown comes back.
      await box.press('ArrowUp');
      await expect(first).toHaveAttribute('aria-selected', 'false');
      await box.press('ArrowDown');
      await expect(first).toHaveAttribute('aria-selected', 'true');
      await box.press('Enter');
      await expect(page).toHaveURL(l.details);
    });

    if (turn()) test('a mouse click on a suggestion opens it', async ({ page }) => {
      const box = await openSearch(page, l.url, l.label);
      await box.fill(l.typed);
      await page.getByRole('option').first().click();
      await expect(page).toHaveURL(l.details);
    });

    if (turn()) test('Enter without an active option goes to the full results page', async ({ page }) => {
      const box = await openSearch(page, l.url, l.label);
      await box.fill(l.typo.q);
      await expect(page.getByRole('option').first()).toBeVisible();
      await box.press('Enter');
      await expect(page).toHaveURL(`${l.results}?q=${l.typo.q}`);
      // The results page keeps the term in the box, and opens no suggestions by itself.
      await expect(page.getByRole('combobox', { name: l.label })).toHaveValue(l.typo.q);
      await expect(page.getByRole('listbox')).toHaveCount(0);
    });

    // One page, the box used again for each behaviour (none of them leaves the page).
    if (turn()) test('tolerates a typo, says when nothing matches, closes with Escape and clears with a second one, and the open combobox has no serious accessibility violations', async ({ page }) => {
      const box = await openSearch(page, l.url, l.label);
      await test.step('tolerates a typo', async () => {
        await box.fill(l.typo.q);
        await expect(page.getByRole('option').first()).toContainText(l.typo.name);
      });

      await test.step('says when nothing matches', async () => {
        await box.fill('zzzqqq');
        await expect(page.getByText(l.none, { exact: true }).first()).toBeVisible();
        await expect(box).toHaveAttribute('aria-expanded', 'false');
      });

      const list = page.getByRole('listbox', { name: l.list });
      await test.step('Escape closes the list, a second Escape clears the box', async () => {
        await box.fill(l.typed);
        await expect(list).toBeVisible();
        await box.press('ArrowDown');
        await box.press('Escape');
        await expect(list).toBeHidden();
        await expect(box).toHaveAttribute('aria-expanded', 'false');
        await expect(box).not.toHaveAttribute('aria-activedescendant');
        await expect(box).toHaveValue(l.typed);
        await box.press('Escape');
        await expect(box).toHaveValue('');
        await expect(box).toBeFocused();
      });

      await test.step('the open combobox has no serious accessibility violations', async () => {
        await box.fill(l.typed);
        await expect(list).toBeVisible();
        await box.press('ArrowDown');
        await expectNoSeriousViolations(page, '[data-slot="search"]');
      });
    });

    if (turn()) test('the endpoint refuses a bad limit with a message in the asked language', async ({ request }) => {
      for (const limit of ['0', '21', 'abc']) {
        const response = await request.get(`/api/search?q=vision&lang=${l.locale}&limit=${limit}`);
        expect(response.status(), limit).toBe(400);
        expect(await response.json()).toEqual({ error: l.limitError });
      }
    });

    if (turn()) test(`works on a small screen from the menu @mobile`, async ({ page, isMobile }) => {
      test.skip(!isMobile, 'runs in the mobile project');
      const box = await openSearch(page, l.url, l.label);
      await expect(box).toBeHidden();
      await page.getByRole('button', { name: l.menu }).click();
      await box.fill(l.typed);
      const list = page.getByRole('listbox', { name: l.list });
      await expect(list).toBeVisible();
      const bounds = await list.boundingBox();
      expect(bounds!.x).toBeGreaterThanOrEqual(0);
      expect(bounds!.x + bounds!.width).toBeLessThanOrEqual(360);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    });
  });
}

test.describe('search endpoint', () => {
  test('answers 200 with no results under 3 characters, and visitors may cache briefly', async ({ request }) => {
    const response = await request.get('/api/search?q=vi&lang=es');
    expect(response.status()).toBe(200);
    expect(await response.json()).toEqual({ results: [] });
    expect(response.headers()['cache-control']).toBe('public, max-age=60');
  });

  test('returns result objects, never the test course or buyer-only courses to a visitor', async ({ request }) => {
    const body = await (await request.get('/api/search?q=vision&lang=es&limit=5')).json();
    expect(body.results[0]).toMatchObject({ id: 31, name: 'Real Vision básico', categoryName: 'Básico', thumbnail: '/images/courses/31.webp' });
    expect(typeof body.results[0].score).toBe('number');
    for (const q of ['prueba', 'élite', 'mastermind']) {
      const { results } = await (await request.get(`/api/search?q=${encodeURIComponent(q)}&lang=es`)).json();
      expect(results.map((r: { id: number }) => r.id), q).not.toEqual(expect.arrayContaining([12]));
      for (const r of results) expect([10, 12, 16]).not.toContain(r.id);
    }
  });

  test('treats SQL, HTML and 1000 characters as plain text; refuses longer queries and unknown languages with 400', async ({ request }) => {
    for (const q of ["'; drop table courses; --", '<script>alert(1)</script>', 'a'.repeat(1000)]) {
      const response = await request.get(`/api/search?q=${encodeURIComponent(q)}&lang=en`);
      expect(response.status(), q.slice(0, 20)).toBe(200);
      expect(await response.json()).toEqual({ results: [] });
    }
    const long = await request.get(`/api/search?q=${'a'.repeat(1001)}&lang=en`);
    expect(long.status()).toBe(400);
    expect(await long.json()).toEqual({ error: 'The search accepts at most 1000 characters.' });
    const lang = await request.get('/api/search?q=vision&lang=fr');
    expect(lang.status()).toBe(400);
    expect(await lang.json()).toEqual({ error: 'El idioma debe ser «es» o «en».' });
  });
});

test('a NUL or another control character in a search is searched as a space, never a 500 (Trust #6)', async ({ request }) => {
  for (const q of ['abc%00def', '%00', 'fin%00anzas', 'vision%1B%7F', '%00%00%00vision']) {
    const api = await request.get(`/api/search?q=${q}&lang=en`);
    expect(api.status(), q).toBe(200);
    expect(Array.isArray((await api.json()).results), q).toBe(true);
    const page = await request.get(`/en/courses?q=${q}`);
    expect(page.status(), q).toBe(200);
    expect(await page.text(), q).not.toContain('\u0000');
  }
  const found = await (await request.get('/api/search?q=%00vision%00&lang=es')).json();
  expect(found.results[0]).toMatchObject({ id: 31 });
  expect(await (await request.get('/en/courses?q=abc%00def')).text()).toContain('abc def');
});

test('without JavaScript the search box is a plain form to the results page', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/about-us');
  const box = page.getByRole('combobox', { name: 'Buscar cursos' });
  await box.fill('finanzas');
  await box.press('Enter');
  await expect(page).toHaveURL('/courses?q=finanzas');
  await context.close();
});
