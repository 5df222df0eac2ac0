import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousViolations } from './fixtures';

/**
 * Blog, events, FAQ and portfolio (src/content/{blog,events,faq,portfolio}, src/i18n/sections/content.ts).
 * Texts below are the content's own, in both languages.
 */

const BLOG_LAYOUTS = ['classic-grid', 'classic-sidebar', 'list-sidebar', 'standard-sidebar'] as const;
const POST_COUNT = 7;
const EVENT_COUNT = 5;
const FAQ_COUNT = 17;
const STORY_COUNT = 7;

const L = {
  es: {
    prefix: '',
    articles: 'Artículos',
    events: 'Eventos',
    upcoming: 'Próximos eventos',
    past: 'Eventos pasados',
    faq: 'Preguntas frecuentes',
    topics: 'Temas',
    portfolio: 'Casos de éxito',
    filter: 'Filtrar por categoría',
    morePosts: 'Más artículos',
    previous: 'Artículo anterior',
    next: 'Artículo siguiente',
    related: 'Artículos relacionados',
    post: { slug: 'group-trips', title: 'Viajes en grupo rentables: de la idea al último pasajero' },
    event: {
      slug: 'group-travel-workshop',
      title: 'Taller presencial: diseña tu primer viaje en grupo',
      facts: 'Datos del evento',
      when: 'Cuándo',
      where: 'Dónde',
      date: ['sábado', '20 de febrero de 2027', '9:00', '13:00'],
      place: ['Auditorio Parque Norte', 'Avenida de las Palmas 210, sala 3', 'Bogotá, Colombia'],
    },
    onlineEvent: { slug: 'shoulder-season-webinar', where: 'En línea' },
  },
  en: {
    prefix: '/en',
    articles: 'Articles',
    events: 'Events',
    upcoming: 'Upcoming events',
    past: 'Past events',
    faq: 'Frequently asked questions',
    topics: 'Topics',
    portfolio: 'Success stories',
    filter: 'Filter by category',
    morePosts: 'More articles',
    previous: 'Previous article',
    next: 'Next article',
    related: 'Related articles',
    post: { slug: 'group-trips', title: 'Profitable group trips: from the idea to the last passenger' },
    event: {
      slug: 'group-travel-workshop',
      title: 'In-person workshop: design your first group trip',
      facts: 'Event details',
      when: 'When',
      where: 'Where',
      date: ['Saturday', '20 February 2027', '09:00', '13:00'],
      place: ['North Park Auditorium', 'Avenida de las Palmas 210, room 3', 'Bogotá, Colombia'],
    },
    onlineEvent: { slug: 'shoulder-season-webinar', where: 'Online' },
  },
} as const;
const LOCALES = ['es', 'en'] as const;

/** Every page of this part of the site with a heading that exists only in its language. */
function pages(locale: (typeof LOCALES)[number]) {
  const l = L[locale];
  return [
    ...BLOG_LAYOUTS.map((layout) => ({ url: `${l.prefix}/blog-${layout}`, heading: l.articles })),
    { url: `${l.prefix}/blog-details/${l.post.slug}`, heading: l.post.title },
    { url: `${l.prefix}/event`, heading: l.events },
    { url: `${l.prefix}/events-details/${l.event.slug}`, heading: l.event.title },
    { url: `${l.prefix}/faq-1`, heading: l.faq },
    { url: `${l.prefix}/faq-2`, heading: l.faq },
    { url: `${l.prefix}/portfolio`, heading: l.portfolio },
  ];
}

/** The text of every heading (h1–h6) of a page's HTML, tags removed and entities read. */
function headings(html: string): string[] {
  const entities: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&#x27;': "'" };
  return [...html.matchAll(/<h([1-6])\b[^>]*>([\s\S]*?)<\/h\1>/g)].map((m) =>
    m[2]!
      .replace(/<[^>]+>/g, '')
      .replace(/&(amp|lt|gt|quot|#39|#x27);/g, (e) => entities[e]!)
      .replace(/\s+/g, ' ')
      .trim(),
  );
}

/** The list of posts on a blog index page. */
const postList = (page: Page, locale: (typeof LOCALES)[number]) =>
  page.getByRole('region', { name: L[locale].articles, exact: true }).getByRole('listitem').filter({ has: page.getByRole('heading', { level: 3 }) });

test.describe('content pages answer in their own language', () => {
  for (const locale of LOCALES) {
    // What the server sends, read as a crawler reads it: these are properties of the HTML (the pages are
    // drawn and looked at by the journeys below and audited by axe at the end).
    test(`every ${locale} content page answers 200 with lang="${locale}", its heading, one h1, a title and a description`, async ({ request }) => {
      for (const p of pages(locale)) {
        const response = await request.get(p.url);
        expect(response.status(), p.url).toBe(200);
        const html = await response.text();
        expect(html, p.url).toMatch(new RegExp(`<html[^>]* lang="${locale}"`));
        expect(headings(html), p.url).toContain(p.heading);
        expect(html.match(/<h1[\s>]/g), p.url).toHaveLength(1);
        expect(html, p.url).toMatch(/<title>[^<]*· Academia<\/title>/);
        expect(html, p.url).toMatch(/<meta name="description" content="[^"]+"/);
      }
    });

    test(`${L[locale].prefix}/blog-details without a post shows the newest post`, async ({ page }) => {
      await page.goto(`${L[locale].prefix}/blog-classic-grid`);
      const newest = await postList(page, locale).first().getByRole('heading', { level: 3 }).getByRole('link').getAttribute('href');
      expect(newest).toMatch(new RegExp(`^${L[locale].prefix}/blog-details/[a-z0-9-]+$`));

      const response = await page.goto(`${L[locale].prefix}/blog-details`);
      expect(response?.status()).toBe(200);
      // The newest post is shown here, and its own address is the canonical one.
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', new RegExp(`${newest}$`));
      await expect(page.locator('html')).toHaveAttribute('lang', locale);
      const title = await page.getByRole('heading', { level: 1 }).textContent();
      await page.goto(newest!);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(title!);
    });

    test(`${L[locale].prefix}/events-details without an event shows the next one`, async ({ page }) => {
      await page.goto(`${L[locale].prefix}/event`);
      const upcoming = page.getByRole('region', { name: L[locale].upcoming }).getByRole('heading', { level: 3 }).getByRole('link');
      const past = page.getByRole('region', { name: L[locale].past }).getByRole('heading', { level: 3 }).getByRole('link');
      const next = (await upcoming.count()) > 0 ? upcoming.first() : past.first();
      const href = await next.getAttribute('href');

      const response = await page.goto(`${L[locale].prefix}/events-details`);
      expect(response?.status()).toBe(200);
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', new RegExp(`${href}$`));
      await expect(page.locator('html')).toHaveAttribute('lang', locale);
      const title = await page.getByRole('heading', { level: 1 }).textContent();
      await page.goto(href!);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(title!);
      await expect(page.locator('script[type="application/ld+json"]')).toHaveCount(1);
    });
  }
});

test.describe('blog', () => {
  test(`every blog layout (${BLOG_LAYOUTS.join(', ')}) lists every post, each opening its page`, async ({ page }) => {
    // One tab visits the layouts in turn (each check names its layout).
    for (const layout of BLOG_LAYOUTS) {
      await page.goto(`/blog-${layout}`);
      const items = postList(page, 'es');
      await expect(items, layout).toHaveCount(POST_COUNT);
      const links = items.getByRole('heading', { level: 3 }).getByRole('link');
      const titles = await links.allTextContents();
      expect(new Set(titles).size, layout).toBe(POST_COUNT);
      // Newest first.
      const dates = await items.locator('time').evaluateAll((ts) => ts.map((t) => t.getAttribute('datetime') ?? ''));
      expect(dates, layout).toEqual([...dates].sort().reverse());

      // The sidebar is part of the layout's data: every layout but the plain grid has one.
      const sidebar = page.getByRole('complementary', { name: 'Más del blog' });
      await expect(sidebar, layout).toHaveCount(layout === 'classic-grid' ? 0 : 1);

      const pick = titles[2]!;
      await links.nth(2).click();
      await expect(page, layout).toHaveURL(/\/blog-details\/[a-z0-9-]+$/);
      await expect(page.getByRole('heading', { level: 1 }), layout).toHaveText(pick);
    }
  });

  test('the English list links to English posts', async ({ page }) => {
    await page.goto('/en/blog-list-sidebar');
    const links = postList(page, 'en').getByRole('heading', { level: 3 }).getByRole('link');
    await expect(links).toHaveCount(POST_COUNT);
    for (const href of await links.evaluateAll((as) => as.map((a) => a.getAttribute('href')))) expect(href).toMatch(/^\/en\/blog-details\//);
    await links.first().click();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  });

  test('the sidebar counts posts per category and lists recent posts and tags', async ({ page }) => {
    await page.goto('/blog-classic-sidebar');
    const sidebar = page.getByRole('complementary', { name: 'Más del blog' });
    await expect(sidebar.getByRole('heading', { level: 2 })).toHaveText(['Categorías', 'Artículos recientes', 'Etiquetas']);
    const categories = sidebar.getByRole('region', { name: 'Categorías', exact: true }).getByRole('listitem');
    const counts = await categories.locator('[aria-hidden="true"]').allTextContents();
    expect(counts.map(Number).reduce((a, b) => a + b, 0)).toBe(POST_COUNT);
    await expect(categories.filter({ hasText: 'Ventas' })).toContainText('2 artículos');
    await expect(sidebar.getByRole('region', { name: 'Artículos recientes' }).getByRole('link')).toHaveCount(4);
    await expect(sidebar.getByRole('region', { name: 'Etiquetas' }).getByText('clientes', { exact: true })).toBeVisible();
  });

  for (const locale of LOCALES) {
    test(`previous and next lead through the posts in time (${locale})`, async ({ page }) => {
      const l = L[locale];
      await page.goto(`${l.prefix}/blog-details/${l.post.slug}`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(l.post.title);
      const nav = page.getByRole('navigation', { name: l.morePosts });
      const older = nav.getByRole('link', { name: new RegExp(l.previous) });
      const newer = nav.getByRole('link', { name: new RegExp(l.next) });
      await expect(older).toHaveAttribute('rel', 'prev');
      await expect(newer).toHaveAttribute('rel', 'next');

      const publishedOn = async () => page.locator('article.post time').first().getAttribute('datetime');
      const here = await publishedOn();
      await newer.click();
      await expect(page).not.toHaveURL(new RegExp(`${l.post.slug}$`));
      expect((await publishedOn())! > here!).toBe(true);

      // Back through "previous" from the newer post returns to the post we started from.
      await page.getByRole('navigation', { name: l.morePosts }).getByRole('link', { name: new RegExp(l.previous) }).click();
      await expect(page).toHaveURL(`${l.prefix}/blog-details/${l.post.slug}`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(l.post.title);

      // Related posts are other posts.
      const related = page.getByRole('region', { name: l.related }).getByRole('heading', { level: 3 });
      await expect(related).toHaveCount(3);
      await expect(related.filter({ hasText: l.post.title })).toHaveCount(0);
    });
  }

  test('the oldest post has no previous link and the newest no next link', async ({ page }) => {
    await page.goto('/blog-classic-grid');
    const links = postList(page, 'es').getByRole('heading', { level: 3 }).getByRole('link');
    const newest = await links.first().getAttribute('href');
    const oldest = await links.last().getAttribute('href');
    await page.goto(newest!);
    const nav = page.getByRole('navigation', { name: 'Más artículos' });
    await expect(nav.getByRole('link', { name: /Artículo siguiente/ })).toHaveCount(0);
    await expect(nav.getByRole('link', { name: /Artículo anterior/ })).toHaveCount(1);
    await page.goto(oldest!);
    await expect(nav.getByRole('link', { name: /Artículo anterior/ })).toHaveCount(0);
    await expect(nav.getByRole('link', { name: /Artículo siguiente/ })).toHaveCount(1);
  });
});

test.describe('events', () => {
  for (const locale of LOCALES) {
    test(`the events page lists every event once, upcoming soonest first and past latest first (${locale})`, async ({ page }) => {
      const l = L[locale];
      await page.goto(`${l.prefix}/event`);
      const upcoming = page.getByRole('region', { name: l.upcoming });
      const past = page.getByRole('region', { name: l.past });
      await expect(upcoming.getByRole('heading', { level: 2 })).toBeVisible();
      await expect(past.getByRole('heading', { level: 2 })).toBeVisible();
      const times = async (region: typeof upcoming) => region.locator('article time').evaluateAll((ts) => ts.map((t) => t.getAttribute('datetime') ?? ''));
      const up = await times(upcoming);
      const gone = await times(past);
      expect(up.length + gone.length).toBe(EVENT_COUNT);
      expect(up).toEqual([...up].sort());
      expect(gone).toEqual([...gone].sort().reverse());
      const now = new Date().toISOString();
      for (const t of gone) expect(t < now).toBe(true);

      await page.getByRole('link', { name: l.event.title }).click();
      await expect(page).toHaveURL(`${l.prefix}/events-details/${l.event.slug}`);
    });

    test(`an event page shows its date and place and carries schema.org Event data (${locale})`, async ({ page }) => {
      const l = L[locale];
      await page.goto(`${l.prefix}/events-details/${l.event.slug}`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(l.event.title);
      const facts = page.getByRole('complementary', { name: l.event.facts });
      const when = facts.locator('dd[data-fact="when"]');
      const where = facts.locator('dd[data-fact="where"]');
      await expect(facts.getByText(l.event.when, { exact: true })).toBeVisible();
      await expect(facts.getByText(l.event.where, { exact: true })).toBeVisible();
      for (const part of l.event.date) await expect(when).toContainText(part);
      for (const part of l.event.place) await expect(where).toContainText(part);
      await expect(when.locator('time')).toHaveAttribute('datetime', '2027-02-20T14:00:00.000Z');

      const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? '{}');
      expect(ld).toMatchObject({
        '@context': 'https://schema.org',
        '@type': 'Event',
        name: l.event.title,
        startDate: '2027-02-20T14:00:00.000Z',
        endDate: '2027-02-20T18:00:00.000Z',
        eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
        location: { '@type': 'Place', name: l.event.place[0] },
        inLanguage: locale,
      });
      expect(ld.url).toMatch(new RegExp(`${l.prefix}/events-details/${l.event.slug}$`));

      await page.goto(`${l.prefix}/events-details/${l.onlineEvent.slug}`);
      await expect(page.locator('dd[data-fact="where"]')).toContainText(l.onlineEvent.where);
      const online = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? '{}');
      expect(online.location['@type']).toBe('VirtualLocation');
    });
  }
});

test.describe('FAQ', () => {
  test('/faq-1 groups the questions by topic in an accordion that opens and closes', async ({ page }) => {
    await page.goto('/faq-1');
    await expect(page.getByRole('main').getByRole('heading', { level: 2 })).toHaveText([
      'Cuenta y acceso',
      'Cursos y certificados',
      'Pagos y membresías',
      'IBO y afiliados',
      '¿No encuentras tu respuesta?',
    ]);
    const questions = page.getByRole('main').locator('details');
    await expect(questions).toHaveCount(FAQ_COUNT);
    await expect(questions.first()).toHaveAttribute('open', '');
    await expect(page.getByText('Pulsa «Iniciar sesión»')).toBeVisible();

    const exams = page.getByRole('main').locator('details', { has: page.getByText('¿Cómo funcionan los exámenes?') });
    const answer = exams.getByText('Cada examen tiene un tiempo límite');
    await expect(answer).toBeHidden();
    await exams.locator('summary').click();
    await expect(exams).toHaveAttribute('open', '');
    await expect(answer).toBeVisible();
    await exams.locator('summary').click();
    await expect(answer).toBeHidden();

    // The keyboard opens a question too.
    const refunds = page.getByRole('main').locator('details', { has: page.getByText('¿Puedo pedir un reembolso?') });
    await refunds.locator('summary').focus();
    await page.keyboard.press('Enter');
    await expect(refunds.getByText('catorce días')).toBeVisible();
  });

  test('/en/faq-2 has a topic index beside the questions', async ({ page }) => {
    await page.goto('/en/faq-2');
    const index = page.getByRole('navigation', { name: 'Topics' });
    await expect(index.getByRole('link')).toHaveCount(4);
    await expect(index.getByRole('link', { name: /Payments and memberships/ })).toContainText('4 questions');
    await index.getByRole('link', { name: /IBOs and affiliates/ }).click();
    await expect(page).toHaveURL(/#faq-ibos$/);
    await expect(page.getByRole('heading', { level: 2, name: 'IBOs and affiliates' })).toBeInViewport();

    await expect(page.getByRole('main').locator('details[open]')).toHaveCount(0);
    const code = page.getByRole('main').locator('details', { has: page.getByText('What is my IBO code for?') });
    await code.locator('summary').click();
    await expect(code.getByText('Your code identifies you within the network.')).toBeVisible();
  });
});

test.describe('portfolio', () => {
  // The filter is links to fragments and CSS :target, so it must work with scripts off.
  test.use({ javaScriptEnabled: false });

  test('the category filter shows only that category, without JavaScript', async ({ page }) => {
    await page.goto('/portfolio');
    const visibleStories = page.locator('article[data-story]:visible');
    await expect(visibleStories).toHaveCount(STORY_COUNT);
    const filter = page.getByRole('navigation', { name: 'Filtrar por categoría' });
    await expect(filter).toHaveCount(1); // one visible filter bar (the other panels are hidden)
    await expect(filter.getByRole('link', { name: 'Todos' })).toHaveAttribute('aria-current', 'true');

    await filter.getByRole('link', { name: 'Equipos' }).click();
    await expect(page).toHaveURL(/#portfolio-teams$/);
    await expect(visibleStories).toHaveCount(2);
    await expect(page.getByRole('main').getByRole('heading', { level: 2 })).toHaveText('Equipos: 2 casos');
    await expect(page.getByRole('navigation', { name: 'Filtrar por categoría' }).getByRole('link', { name: 'Equipos' })).toHaveAttribute(
      'aria-current',
      'true',
    );

    await page.getByRole('navigation', { name: 'Filtrar por categoría' }).getByRole('link', { name: 'Viajes' }).click();
    await expect(visibleStories).toHaveCount(3);
    await expect(page.getByRole('heading', { level: 3, name: 'Luna de miel entre islas' })).toBeVisible();

    await page.getByRole('navigation', { name: 'Filtrar por categoría' }).getByRole('link', { name: 'Todos' }).click();
    await expect(visibleStories).toHaveCount(STORY_COUNT);
  });

  test('an English filter address opens filtered', async ({ page }) => {
    await page.goto('/en/portfolio#portfolio-events');
    await expect(page.locator('article[data-story]:visible')).toHaveCount(2);
    await expect(page.getByRole('main').getByRole('heading', { level: 2 })).toHaveText('Events and groups: 2 stories');
  });
});

test.describe('accessibility', () => {
  const all = LOCALES.flatMap((l) => pages(l).map((p) => p.url));

  test('axe finds no serious or critical violation on any content page', async ({ page }) => {
    test.setTimeout(240_000);
    // Each template once (both languages render the same markup): Spanish and English by turns.
    const es = pages('es').map((p) => p.url);
    const en = pages('en').map((p) => p.url);
    const audited = es.map((url, i) => (i % 2 ? en[i]! : url));
    for (const url of [...audited, '/portfolio#portfolio-trips']) {
      await page.goto(url);
      await expectNoSeriousViolations(page);
    }
  });

  test.describe('small screens', () => {
    test.use({ viewport: { width: 360, height: 780 } });
    test.skip(({ isMobile }) => !isMobile, 'runs in the mobile project');

    test('content pages fit 360 px without horizontal scrolling @mobile', async ({ page }) => {
      test.setTimeout(90_000);
      for (const url of all) {
        await page.goto(url);
        expect(await page.evaluate(() => document.documentElement.scrollWidth), url).toBeLessThanOrEqual(360);
      }
    });
  });
});
