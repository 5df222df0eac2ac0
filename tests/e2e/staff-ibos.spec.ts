/**
 * IBOs in the back office: the administrator creates an IBO with a code (a code with bad characters and
 * a code another IBO has are refused in words, what was typed kept), gives it a logo (an SVG refused),
 * opens its affiliate link in a visitor's browser (the IBO's session starts), suspends it (that open
 * session stops working and the link answers the suspended message) and reinstates it (the link works
 * again). At 360 px the list finds it and its page fits the screen. An editor, support and finance
 * staff, a learner, an IBO guest and a visitor are refused in words.
 */
import sharp from 'sharp';
import { expect, expectNoSeriousViolations, test, type Page } from './fixtures';
import { registrationForm, PEOPLE } from './support/seed';
import { browseAsAdministrator, EDITOR } from './support/staff';
import { messages } from '../../src/i18n';
import { format } from '../../src/i18n/format';

const t = messages('en').iboAdmin;
const notFound = messages('en').ibo.notFound;
const RUN = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`.toUpperCase().replace(/[^A-Z0-9]/g, '');
const png = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#c33' } }).png().toBuffer();

async function fillIbo(page: Page, code: string): Promise<void> {
  await page.locator('form[data-ibo-form]').getByLabel(t.fields.code, { exact: true }).fill(code);
  await page.locator('form[data-ibo-form]').getByLabel(t.fields.companyName, { exact: true }).fill(`Viajes ${code}`);
  await page.locator('form[data-ibo-form]').getByLabel(t.fields.businessId, { exact: true }).selectOption({ index: 1 });
  await page.locator('form[data-ibo-form]').getByLabel(t.fields.contactName, { exact: true }).fill('Ana Ruiz');
  await page.locator('form[data-ibo-form]').getByLabel(t.fields.contactEmail, { exact: true }).fill('ana.ruiz@example.com');
  await page.locator('form[data-ibo-form]').getByLabel(t.fields.contactPhone, { exact: true }).fill('+57 300 123 4567');
  await page.locator('form[data-ibo-form]').getByLabel(t.fields.accountEmail, { exact: true }).fill('buyer@academia.example');
  await page.locator('form[data-ibo-form]').getByLabel(t.fields.sponsorCode, { exact: true }).fill('horizonte01');
}

/** Whether the visitor's IBO session still opens what only an IBO session may (the prospect look-up). */
const iboSessionWorks = async (visitor: Page, baseURL: string) =>
  (await visitor.request.post('/_actions/ibo.lookup', { data: { email: 'nadie@example.com', lang: 'en' }, headers: { Origin: baseURL } })).status();

test('@staff an IBO created in the back office: its link works, suspended it answers the suspended message and its session ends, reinstated it works again', async ({ browser, baseURL }) => {
  test.slow();
  const code = `ALTA${RUN}`.slice(0, 20) + '7';
  const context = await browser.newContext({ baseURL: baseURL! });
  await browseAsAdministrator(context, baseURL!);
  const admin = await context.newPage();
  const visitors = await browser.newContext({ baseURL: baseURL! });
  try {
    await admin.goto('/en/admin/ibos');
    await admin.getByRole('link', { name: t.newLink }).click();
    await expect(admin.getByRole('heading', { level: 1, name: t.newTitle })).toBeVisible();
    await expectNoSeriousViolations(admin);

    // A code with a dash and a code another IBO has: sentences, what was typed kept, nothing written.
    await fillIbo(admin, 'MAL-CODIGO1');
    await admin.getByRole('button', { name: t.create }).click();
    await expect(admin.locator('p.notice[role="alert"]')).toHaveText(format(t.problems.codeShape, { field: t.fields.code }));
    await expect(admin.locator('form[data-ibo-form]').getByLabel(t.fields.contactName, { exact: true })).toHaveValue('Ana Ruiz');
    await admin.locator('form[data-ibo-form]').getByLabel(t.fields.code, { exact: true }).fill('horizonte01');
    const taken = admin.waitForResponse((r) => r.request().method() === 'POST');
    await admin.getByRole('button', { name: t.create }).click();
    expect((await taken).status()).toBe(409);
    await expect(admin.locator('p.notice[role="alert"]')).toHaveText(format(t.refusals.taken, { code: 'HORIZONTE01' }));

    await admin.locator('form[data-ibo-form]').getByLabel(t.fields.code, { exact: true }).fill(code.toLowerCase());
    await admin.getByRole('button', { name: t.create }).click();
    await expect(admin.locator('p.notice[role="status"]')).toHaveText(format(t.created, { code }));
    await expect(admin.getByRole('heading', { level: 1, name: format(t.editTitle, { code }) })).toBeVisible();
    await expect(admin.locator('[data-ibo-status]')).toHaveText(t.statuses.active);
    const link = await admin.locator('[data-affiliate-link]').getAttribute('href');
    expect(link).toMatch(new RegExp(`/${code}$`));

    // A logo: an SVG is refused in words, a PNG becomes the server's WebP.
    await admin.getByLabel(t.logoField, { exact: true }).setInputFiles({ name: 'logo.svg', mimeType: 'image/svg+xml', buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>') });
    await admin.getByRole('button', { name: t.logoUpload }).click();
    await expect(admin.locator('p.notice[role="alert"]')).toHaveText(t.logoRefusals.notImage);
    await admin.getByLabel(t.logoField, { exact: true }).setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: png });
    await admin.getByRole('button', { name: t.logoUpload }).click();
    await expect(admin.locator('p.notice[role="status"]')).toHaveText(t.logoSaved);
    await expect(admin.locator('img.logo-preview')).toHaveAttribute('src', /^\/media\/ibo-logo\/\d+-[0-9a-f]{20}\.webp$/);
    await expectNoSeriousViolations(admin);

    // The link opens the home page in the IBO's session.
    const visitor = await visitors.newPage();
    const opened = await visitor.goto(`/en/${code}`);
    expect(opened?.status()).toBe(200);
    await expect(visitor).toHaveURL(new RegExp(`/en/${code}$`));
    expect(await iboSessionWorks(visitor, baseURL!)).toBe(200);

    // Suspended: the open session stops working and the link answers the suspended message.
    await admin.getByRole('button', { name: t.suspend }).click();
    await expect(admin.locator('p.notice[role="status"]')).toHaveText(format(t.suspended, { code }));
    await expect(admin.locator('[data-ibo-status]')).toHaveText(t.statuses.suspended);
    expect(await iboSessionWorks(visitor, baseURL!)).toBe(401);
    await visitor.goto(`/en/${code}`);
    await expect(visitor).toHaveURL(/\/en\/\?ibo=invalid$/);
    await expect(visitor.getByRole('alert')).toHaveText(notFound);
    await admin.goto(`/en/admin/ibos?q=${code}&status=suspended`);
    await expect(admin.locator(`tr[data-ibo="${code}"] [data-status]`)).toHaveText(t.statuses.suspended);

    // Reinstated: the link works again.
    await admin.getByRole('link', { name: format(t.editLabel, { code }) }).click();
    await admin.getByRole('button', { name: t.reinstate }).click();
    await expect(admin.locator('p.notice[role="status"]')).toHaveText(format(t.reinstated, { code }));
    await visitor.goto(`/en/${code}`);
    await expect(visitor).toHaveURL(new RegExp(`/en/${code}$`));
    expect(await iboSessionWorks(visitor, baseURL!)).toBe(200);
  } finally {
    await visitors.close();
    await context.close();
  }
});

test('@mobile at 360 px the IBO list finds an IBO by company and its page fits the screen', async ({ browser, baseURL }) => {
  test.slow();
  const context = await browser.newContext({ baseURL: baseURL!, viewport: { width: 360, height: 780 } });
  await browseAsAdministrator(context, baseURL!);
  const page = await context.newPage();
  try {
    await page.goto('/admin/ibos');
    const es = messages('es').iboAdmin;
    await page.getByLabel(es.searchLabel, { exact: true }).fill('horizonte');
    await page.getByRole('button', { name: es.apply }).click();
    await expect(page).toHaveURL(/\?q=horizonte(&status=)?$/);
    const row = page.locator('tr[data-ibo="HORIZONTE01"]');
    await expect(row).toBeVisible();
    await expect(page.locator('table[data-ibo-list] tbody tr')).toHaveCount(1);
    await row.getByRole('link').click();
    await expect(page.getByRole('heading', { level: 1, name: format(es.editTitle, { code: 'HORIZONTE01' }) })).toBeVisible();
    await expect(page.locator('form[data-ibo-form]').getByLabel(es.fields.companyName, { exact: true })).toHaveValue('Viajes Horizonte S.A.S.');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await expectNoSeriousViolations(page);
  } finally {
    await context.close();
  }
});

test('an editor, support and finance staff, a learner, an IBO guest and a visitor are refused IBOs in words', async ({ playwright, browser, baseURL }) => {
  const support = { email: `ibo.soporte.${RUN.toLowerCase()}@example.com`, password: 'Soporte2026x' };
  const finance = { email: `ibo.finanzas.${RUN.toLowerCase()}@example.com`, password: 'Finanzas2026x' };
  const granting = await browser.newContext({ baseURL: baseURL! });
  try {
    await browseAsAdministrator(granting, baseURL!);
    for (const [who, role] of [
      [support, 'support'],
      [finance, 'finance'],
    ] as const) {
      const signUp = await playwright.request.newContext({ baseURL: baseURL! });
      expect((await signUp.post('/_actions/auth.register', { form: registrationForm(who.email, 'Personal', who.password), headers: { Origin: baseURL! } })).status()).toBe(200);
      await signUp.dispose();
      expect((await granting.request.post('/_actions/staff.grantRole', { form: { email: who.email, role, lang: 'en' }, headers: { Origin: baseURL! } })).status()).toBe(200);
    }
  } finally {
    await granting.close();
  }

  const asks = async (who: { email: string; password: string } | 'ibo' | null) => {
    const c = await playwright.request.newContext({ baseURL: baseURL! });
    const headers = { Origin: baseURL! };
    try {
      if (who === 'ibo') expect((await c.post('/_actions/ibo.enter', { form: { code: 'HORIZONTE01', lang: 'en' }, headers })).status()).toBe(200);
      else if (who) expect((await c.post('/_actions/auth.login', { form: { ...who, lang: 'en' }, headers })).status()).toBe(200);
      const save = await c.post('/_actions/ibos.save', { form: { code: `NO${RUN}1`, companyName: 'No', contactName: 'No', contactEmail: 'no@example.com', accountEmail: 'buyer@academia.example', lang: 'en' }, headers });
      const suspend = await c.post('/_actions/ibos.suspend', { form: { id: '1', lang: 'en' }, headers });
      const page = await c.get('/en/admin/ibos', { maxRedirects: 0 });
      return { status: save.status(), body: await save.text(), suspend: suspend.status(), page: page.status() };
    } finally {
      await c.dispose();
    }
  };
  for (const [who, status] of [[EDITOR, 403], [support, 403], [finance, 403], [PEOPLE.learner, 403], ['ibo', 401], [null, 401]] as const) {
    const answer = await asks(who);
    expect(answer.status, JSON.stringify(who)).toBe(status);
    expect(answer.suspend, JSON.stringify(who)).toBe(status);
    expect(answer.body).toMatch(/[A-Z][a-z]+ [a-z]+/);
    expect(answer.body).not.toContain(`NO${RUN}1`);
    if (who !== null && who !== 'ibo') expect(answer.page, JSON.stringify(who)).toBe(403);
  }
});

test('a logo that is an SVG, an HTML page or a cut picture is refused in words and nothing changes', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL: baseURL! });
  await browseAsAdministrator(context, baseURL!);
  const headers = { Origin: baseURL! };
  try {
    const before = await context.request.get('/en/admin/ibos/2');
    const logo = /class="logo-preview" src="([^"]+)"/.exec(await before.text())?.[1];
    expect(logo).toBe('/images/people/4.webp');
    const cut = png.subarray(0, Math.floor(png.length / 2));
    for (const [name, mimeType, buffer, status, sentence] of [
      ['logo.svg', 'image/svg+xml', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'), 415, t.logoRefusals.notImage],
      ['logo.png', 'image/png', Buffer.from('<!doctype html><script>alert(1)</script>'), 415, t.logoRefusals.notImage],
      ['logo.png', 'image/png', cut, 400, t.logoRefusals.unreadable],
    ] as const) {
      const r = await context.request.post('/_actions/ibos.uploadLogo', { multipart: { id: '2', lang: 'en', logo: { name, mimeType, buffer } }, headers });
      expect(r.status(), name).toBe(status);
      expect(await r.text()).toContain(sentence);
    }
    const after = await context.request.get('/en/admin/ibos/2');
    expect(/class="logo-preview" src="([^"]+)"/.exec(await after.text())?.[1]).toBe(logo);
  } finally {
    await context.close();
  }
});
