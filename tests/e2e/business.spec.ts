/**
 * My business, as an IBO uses it on a phone (360 px, in Spanish) and on a computer (in English): the
 * IBO logs in, opens My business from the account menu, copies the link ("copied" is announced),
 * downloads the QR code as PNG and SVG (images of the right type; the PNG decodes to the link), and
 * a course link opened in a new browser lands on that course in the IBO's session. A suspended IBO's
 * owner sees the notice and nothing to share.
 */
import { readFile } from 'node:fs/promises';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import type { Browser, Page } from '@playwright/test';
import { expect, expectNoSeriousViolations, test } from './fixtures';
import { IBO_OWNERS } from './support/seed';

const TEXTS = {
  es: { prefix: '', sales: 'Ventas', salesTitle: 'Mis ventas y comisiones', pending: 'Pendientes', reversedState: 'Revertida', paidState: 'Pagada', badPage: 'Esa página no existe', team: 'Equipo', teamTitle: 'Mi equipo', level2: 'Nivel 2', tooLong: 'El periodo es demasiado largo', cameThrough: 'Entró por tu enlace', noActivity: 'Sin actividad todavía', oneCourse: 'Cursos: 1', nudge: 'Enviar un recordatorio', nudged: 'Recordatorio enviado a Ana', nudgedAlready: 'Ya le enviaste un recordatorio esta semana', funnel: 'Embudo', funnelTitle: 'Mi embudo', last7: 'Últimos 7 días', visits: 'Visitas por tus enlaces', from: 'Desde', to: 'Hasta', show: 'Ver periodo', reversed: 'La fecha de inicio es posterior', menu: 'Menú de la cuenta de Camila Torres', business: 'Mi negocio', copy: 'Copiar enlace', copied: 'Enlace copiado.', png: 'Descargar PNG', svg: 'Descargar SVG', link: 'Tu enlace', suspended: 'Tu código IBO RUTAS99 está suspendido' },
  en: { prefix: '/en', sales: 'Sales', salesTitle: 'My sales and commissions', pending: 'Pending', reversedState: 'Reversed', paidState: 'Paid', badPage: 'That page does not exist', team: 'Team', teamTitle: 'My team', level2: 'Level 2', tooLong: 'The period is too long', cameThrough: 'Came through your link', noActivity: 'No activity yet', oneCourse: 'Courses: 1', nudge: 'Send a reminder', nudged: 'Reminder sent to Ana', nudgedAlready: 'You already sent them a reminder this week', funnel: 'Funnel', funnelTitle: 'My funnel', last7: 'Last 7 days', visits: 'Visits through your links', from: 'From', to: 'To', show: 'Show period', reversed: 'The start date is after', menu: 'Account menu of Camila Torres', business: 'My business', copy: 'Copy link', copied: 'Link copied.', png: 'Download PNG', svg: 'Download SVG', link: 'Your link', suspended: 'Your IBO code RUTAS99 is suspended' },
} as const;

async function logIn(page: Page, who: { email: string; password: string }) {
  const origin = test.info().project.use.baseURL!;
  const r = await page.request.post('/_actions/auth.login', { headers: { origin }, form: { email: who.email, password: who.password, lang: 'es' } });
  expect(r.status(), await r.text()).toBe(200);
}

async function journey(page: Page, browser: Browser, lang: keyof typeof TEXTS) {
  const T = TEXTS[lang];
  const base = test.info().project.use.baseURL!;
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
  await logIn(page, IBO_OWNERS.owner);
  await page.goto(`${T.prefix}/mylearning`);
  // On a phone the account menu sits in the navigation the menu button opens.
  const menu = page.getByLabel(T.menu);
  if (!(await menu.isVisible())) await page.locator('button.menu-toggle').click();
  await menu.click();
  await page.getByRole('link', { name: T.business }).click();
  await expect(page).toHaveURL((u) => u.pathname === `${T.prefix}/mybusiness`);
  await expect(page.getByRole('heading', { level: 1, name: T.business })).toBeVisible();
  // Nothing sticks out of a phone's screen.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(page.viewportSize()!.width);

  const link = page.getByLabel(T.link, { exact: true });
  await expect(link).toHaveValue(`${base}${T.prefix}/HORIZONTE01`);
  await page.getByRole('button', { name: T.copy, exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: T.copied })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${base}${T.prefix}/HORIZONTE01`);

  const [png] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: T.png }).click()]);
  expect(png.suggestedFilename()).toBe('HORIZONTE01-qr.png');
  const image = PNG.sync.read(await readFile((await png.path())!));
  expect(jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data).toBe(`${base}${T.prefix}/HORIZONTE01`);
  const [svg] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: T.svg }).click()]);
  expect(svg.suggestedFilename()).toBe('HORIZONTE01-qr.svg');
  const svgText = await readFile((await svg.path())!, 'utf8');
  expect(svgText).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*viewBox="0 0 \d+ \d+"[\s\S]*<path[\s\S]*<\/svg>\s*$/);

  await expectNoSeriousViolations(page);

  // A course link, opened by someone else in a browser of their own, lands on the course with the code applied.
  const courseLink = page.locator('[data-course-id="1"]').getByRole('link');
  const href = await courseLink.getAttribute('href');
  expect(href).toBe(`${base}${T.prefix}/HORIZONTE01?course=1`);
  const stranger = await browser.newContext({ baseURL: base });
  try {
    await stranger.addInitScript("sessionStorage.setItem('welcome-dismissed', '1')");
    const other = await stranger.newPage();
    await other.goto(href!);
    await expect(other).toHaveURL((u) => u.pathname === `${T.prefix}/courses-details/1`);
    await expect.poll(() => other.evaluate(() => JSON.parse(localStorage.getItem('ibo') ?? 'null'))).toMatchObject({ code: 'HORIZONTE01' });
    expect((await stranger.cookies()).some((c) => c.name === 'session' && c.httpOnly)).toBe(true);
  } finally {
    await stranger.close();
  }
}

/**
 * The funnel: a visit through the IBO's link is counted today; the owner opens the funnel from the
 * sections, picks the last 7 days and reads the visits among the steps and beside the period before;
 * a period typed backwards is refused in words (400) and shows no figure.
 */
async function funnelJourney(page: Page, browser: Browser, lang: keyof typeof TEXTS) {
  const T = TEXTS[lang];
  const base = test.info().project.use.baseURL!;
  const stranger = await browser.newContext({ baseURL: base });
  try {
    await (await stranger.newPage()).goto(`${T.prefix}/HORIZONTE01`);
  } finally {
    await stranger.close();
  }
  await logIn(page, IBO_OWNERS.owner);
  await page.goto(`${T.prefix}/mybusiness`);
  await page.getByRole('navigation', { name: /negocio|business/ }).getByRole('link', { name: T.funnel }).click();
  await expect(page.getByRole('heading', { level: 1, name: T.funnelTitle })).toBeVisible();
  await page.getByRole('link', { name: T.last7 }).click();
  await expect(page.getByRole('link', { name: T.last7 })).toHaveAttribute('aria-current', 'true');
  const visits = page.locator('.bar-row').filter({ hasText: T.visits }).locator('.bar-value');
  await expect.poll(async () => Number((await visits.textContent())?.replace(/\D/g, ''))).toBeGreaterThan(0);
  await expect(page.getByRole('region', { name: /Comparado|Compared/ }).getByRole('row', { name: new RegExp(T.visits) })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(page.viewportSize()!.width);
  await expectNoSeriousViolations(page);

  await page.getByLabel(T.from, { exact: true }).fill('2026-11-20');
  await page.getByLabel(T.to, { exact: true }).fill('2026-11-01');
  const [answer] = await Promise.all([page.waitForResponse((r) => r.url().includes('/mybusiness/funnel?')), page.getByRole('button', { name: T.show }).click()]);
  expect(answer.status()).toBe(400);
  await expect(page.getByRole('alert')).toContainText(T.reversed);
  await expect(page.locator('.bar-row')).toHaveCount(0);
}

/**
 * My people, live: someone opens the IBO's link and signs up sharing their progress; the IBO finds
 * them on My people (searching their name), keeps the page open, and when they finish their first
 * lesson the card changes by itself and the change is announced. The IBO nudges them once; a second
 * nudge the same week is refused in words (429).
 */
async function peopleJourney(page: Page, browser: Browser, lang: keyof typeof TEXTS) {
  const T = TEXTS[lang];
  const base = test.info().project.use.baseURL!;
  const last = `Vivo${Date.now().toString(36)}${lang}`;
  const email = `${last.toLowerCase()}@example.com`;
  const newcomer = await browser.newContext({ baseURL: base });
  try {
    await newcomer.addInitScript("sessionStorage.setItem('welcome-dismissed', '1')");
    const np = await newcomer.newPage();
    await np.goto('/HORIZONTE01');
    const password = 'Aprende2026';
    const registered = await np.request.post('/_actions/auth.register', {
      headers: { origin: base },
      form: { name: 'Ana', lastName: last, email, confirmEmail: email, gender: 'female', birthDay: '7', birthMonth: '4', birthYear: '1990', password, confirmPassword: password, lang: 'es', iboSharingOffered: '1', iboSharing: 'on' },
    });
    expect(registered.status(), await registered.text()).toBe(200);

    await logIn(page, IBO_OWNERS.owner);
    await page.goto(`${T.prefix}/mybusiness/people?q=${last}`);
    const card = page.locator('.biz-person').filter({ hasText: `Ana ${last}` });
    await expect(card).toContainText(T.cameThrough);
    await expect(card).toContainText(T.noActivity);
    await expect(page.locator('[data-live-said]')).toHaveText('');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(page.viewportSize()!.width);
    await expectNoSeriousViolations(page);

    // Ana finishes her first lesson in her own browser; the IBO's page follows without a reload.
    const login = await np.request.post('/_actions/auth.login', { headers: { origin: base }, form: { email, password, lang: 'es' } });
    expect(login.status()).toBe(200);
    await np.goto('/course-tracking/1');
    await expect(np.locator('[data-ready="true"]')).toHaveAttribute('data-connected', 'true');
    await np.getByLabel('Velocidad de reproducción').selectOption('1.5');
    await np.locator('video').evaluate((v: HTMLVideoElement) => v.play());
    await expect(page.locator('[data-live-said]')).toHaveText(new RegExp(`Ana ${last}`), { timeout: 30_000 });
    await expect(page.locator('.biz-person').filter({ hasText: `Ana ${last}` })).toContainText(T.oneCourse);
    // Her lesson changed the IBO's business as it was stored: a reload shows it too.
    await page.reload();
    await expect(page.locator('.biz-person').filter({ hasText: `Ana ${last}` })).toContainText(T.oneCourse);
  } finally {
    await newcomer.close();
  }

  // One nudge; a second the same week is refused in words.
  const nudge = () => page.locator('.biz-person').filter({ hasText: `Ana ${last}` }).getByRole('button', { name: new RegExp(T.nudge) });
  await nudge().click();
  await expect(page.getByRole('status').filter({ hasText: T.nudged })).toBeVisible();
  const [again] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST' && r.url().includes('business.nudge')), nudge().click()]);
  expect(again.status()).toBe(429);
  await expect(page.getByRole('alert')).toContainText(T.nudgedAlready);
}

/**
 * Sales and team: the owner opens Sales from the sections and reads the commissions by state and the
 * orders (a commission paid, one reversed), downloads this month's statement as a PDF, and is refused a
 * page that is not one in words; then opens Team and reads MUNDO2026 (level 1) and RUTAS99 (level 2,
 * suspended), and is refused a period of ten years in words.
 */
async function salesAndTeamJourney(page: Page, lang: keyof typeof TEXTS) {
  const T = TEXTS[lang];
  await logIn(page, IBO_OWNERS.owner);
  await page.goto(`${T.prefix}/mybusiness`);
  const sections = page.getByRole('navigation', { name: /negocio|business/ });
  await sections.getByRole('link', { name: T.sales }).click();
  await expect(page.getByRole('heading', { level: 1, name: T.salesTitle })).toBeVisible();
  await expect(page.locator('.biz-totals')).toContainText(T.pending);
  await expect(page.locator('.biz-sale').filter({ hasText: T.reversedState })).toHaveCount(1);
  await expect(page.locator('.biz-sale').filter({ hasText: T.paidState }).first()).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(page.viewportSize()!.width);
  await expectNoSeriousViolations(page);
  const [pdf] = await Promise.all([page.waitForEvent('download'), page.locator('.biz-statements li').first().getByRole('link', { name: /PDF/ }).click()]);
  expect(pdf.suggestedFilename()).toMatch(/HORIZONTE01.*\d{4}-\d{2}\.pdf$/);
  expect((await readFile((await pdf.path())!)).subarray(0, 5).toString()).toBe('%PDF-');
  const bad = await page.goto(`${T.prefix}/mybusiness/sales?page=-1`);
  expect(bad?.status()).toBe(400);
  await expect(page.getByRole('alert')).toContainText(T.badPage);

  await page.goto(`${T.prefix}/mybusiness/sales`);
  await sections.getByRole('link', { name: T.team }).click();
  await expect(page.getByRole('heading', { level: 1, name: T.teamTitle })).toBeVisible();
  await expect(page.locator('tr[data-ibo-code="MUNDO2026"]')).toBeVisible();
  await expect(page.locator('tr[data-ibo-code="RUTAS99"]')).toContainText(T.level2);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(page.viewportSize()!.width);
  await expectNoSeriousViolations(page);
  const long = await page.goto(`${T.prefix}/mybusiness/team?from=2016-01-01&to=2026-01-01`);
  expect(long?.status()).toBe(400);
  await expect(page.getByRole('alert')).toContainText(T.tooLong);
  await expect(page.locator('tr[data-ibo-code]')).toHaveCount(0);
}

async function suspendedNotice(page: Page, lang: keyof typeof TEXTS) {
  const T = TEXTS[lang];
  await logIn(page, IBO_OWNERS.suspended);
  await page.goto(`${T.prefix}/mybusiness`);
  await expect(page.getByRole('heading', { name: T.suspended })).toBeVisible();
  await expect(page.getByRole('link', { name: T.png })).toHaveCount(0);
  await expect(page.getByLabel(T.link, { exact: true })).toHaveCount(0);
  expect(await page.content()).not.toContain('RUTAS99?course=');
}

test('an IBO shares from My business on the phone: copies the link, downloads the QR code, a course link opens the course with the code (es) @mobile', async ({ page, browser }) => {
  test.setTimeout(90_000);
  await journey(page, browser, 'es');
});

test('an IBO shares from My business on a computer: copies the link, downloads the QR code, a course link opens the course with the code (en)', async ({ page, browser }) => {
  test.setTimeout(90_000);
  await journey(page, browser, 'en');
});

test("an IBO reads the funnel of the last 7 days on the phone, and a period typed backwards is refused in words (es) @mobile", async ({ page, browser }) => {
  await funnelJourney(page, browser, 'es');
});

test("an IBO reads the funnel of the last 7 days on a computer, and a period typed backwards is refused in words (en)", async ({ page, browser }) => {
  await funnelJourney(page, browser, 'en');
});

test('an IBO sees a newcomer of its link on My people, the card follows their first lesson live, and a second nudge the same week is refused (es) @mobile', async ({ page, browser }) => {
  test.setTimeout(90_000);
  await peopleJourney(page, browser, 'es');
});

test('an IBO sees a newcomer of its link on My people, the card follows their first lesson live, and a second nudge the same week is refused (en)', async ({ page, browser }) => {
  test.setTimeout(90_000);
  await peopleJourney(page, browser, 'en');
});

test("an IBO reads its commissions by state, downloads a statement and reads its team's figures two levels deep (es) @mobile", async ({ page }) => {
  await salesAndTeamJourney(page, 'es');
});

test("an IBO reads its commissions by state, downloads a statement and reads its team's figures two levels deep (en)", async ({ page }) => {
  await salesAndTeamJourney(page, 'en');
});

test('a suspended IBO sees the notice and nothing to share (es) @mobile', async ({ page }) => {
  await suspendedNotice(page, 'es');
});

test('a suspended IBO sees the notice and nothing to share (en)', async ({ page }) => {
  await suspendedNotice(page, 'en');
});
