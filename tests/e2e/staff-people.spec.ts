/**
 * People in the back office: support (the administrator, who holds every staff role) searches a learner
 * by e-mail, opens their page, grants them a course with a reason (shown on the page), blocks them — their
 * login is then answered "your account is blocked, contact support" with the way to the contact page — and
 * unblocks them, after which they log in. On a phone (360 px) the search and a person's page fit the
 * screen. The pages pass the accessibility checks. The learner is one of this journey's own, so blocking
 * them never disturbs another journey's demo account.
 */
import { expect, expectNoSeriousViolations, test, type Page } from './fixtures';
import { registrationForm } from './support/seed';
import { browseAsAdministrator } from './support/staff';
import { messages } from '../../src/i18n';

const t = messages('en').people;
const es = messages('es').people;
const login = messages('en').identity.login;
const RUN = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** Logs in through the login page; answers the information dialog's text on a refusal, or null once logged in. */
async function tryLogin(page: Page, email: string, password: string): Promise<string | null> {
  await page.goto('/en/login');
  const form = page.locator('form.account-form[data-enhanced="true"][action*="auth.login"]');
  await expect(form).toBeAttached();
  await form.locator('input[name="email"]').fill(email);
  await form.locator('input[name="password"]').fill(password);
  await form.getByRole('button', { name: login.submit }).click();
  const dialog = page.locator('#login-info-text');
  const outcome = await Promise.race([dialog.waitFor({ state: 'visible' }).then(() => 'dialog' as const), page.waitForURL((u) => !u.pathname.endsWith('/login')).then(() => 'in' as const)]);
  return outcome === 'dialog' ? dialog.innerText() : null;
}

test('@staff support finds a learner, grants a course with a reason, blocks them (their login is told to contact support) and unblocks them', async ({ browser, baseURL }) => {
  test.slow();
  const email = `people.journey.${RUN}@example.com`;
  const learnerContext = await browser.newContext({ baseURL: baseURL! });
  const learner = await learnerContext.newPage();
  expect((await learner.request.post('/_actions/auth.register', { form: registrationForm(email, 'Personas') })).status()).toBe(200);

  const context = await browser.newContext({ baseURL: baseURL! });
  await browseAsAdministrator(context, baseURL!);
  const admin = await context.newPage();
  try {
    await admin.goto('/en/admin/people');
    await expect(admin.getByRole('heading', { level: 1, name: t.title })).toBeVisible();
    await admin.getByLabel(t.searchLabel).fill(email);
    await admin.getByRole('search', { name: t.title }).getByRole('button', { name: t.search }).click();
    await expect(admin.getByRole('status').filter({ hasText: 'person' })).toHaveText('1 person');
    await expectNoSeriousViolations(admin);
    await admin.getByRole('link', { name: "Open Personas Registro’s page" }).click();
    await expect(admin.getByRole('heading', { level: 1, name: 'Personas Registro' })).toBeVisible();
    await expect(admin.getByText(email)).toBeVisible();
    await expectNoSeriousViolations(admin);

    // A course granted with a reason: on the page with who granted it and why.
    const course = (await admin.getByLabel(t.forms.courseLabel).locator('option').first().innerText()).trim();
    await admin.getByLabel(t.forms.reasonLabel).fill(`Compensation for the outage (${RUN})`);
    await admin.getByRole('button', { name: t.forms.grant }).click();
    await expect(admin.getByRole('status').filter({ hasText: t.done.granted })).toBeVisible();
    const grant = admin.locator('[data-grant]');
    await expect(grant).toHaveCount(1);
    await expect(grant).toContainText(course);
    await expect(grant).toContainText(`Compensation for the outage (${RUN})`);
    await expect(grant).toContainText('Andrés Salazar');

    // Blocked: the learner's login is refused with the sentence and the way to the contact page.
    await admin.getByRole('button', { name: t.forms.block, exact: true }).click();
    await expect(admin.getByRole('status').filter({ hasText: t.done.blocked })).toBeVisible();
    await expect(admin.locator('[data-state]')).toHaveText(t.blocked);
    await learnerContext.clearCookies();
    expect(await tryLogin(learner, email, 'Prueba2026x')).toBe(login.blocked);
    await expect(learner.getByRole('dialog').getByRole('link', { name: login.contactSupport })).toHaveAttribute('href', '/en/contact-us');

    // Unblocked: they log in.
    await admin.getByRole('button', { name: t.forms.unblock }).click();
    await expect(admin.getByRole('status').filter({ hasText: t.done.unblocked })).toBeVisible();
    await expect(admin.locator('[data-state]')).toHaveText(t.active);
    expect(await tryLogin(learner, email, 'Prueba2026x')).toBeNull();
  } finally {
    await context.close();
    await learnerContext.close();
  }
});

test('@mobile @staff the people search and a person’s page fit a 360 px phone', async ({ browser, baseURL }) => {
  test.slow();
  const context = await browser.newContext({ baseURL: baseURL!, viewport: { width: 360, height: 780 } });
  await browseAsAdministrator(context, baseURL!);
  const page = await context.newPage();
  try {
    await page.goto('/admin/people?q=learner%40academia.example');
    await expect(page.getByRole('heading', { level: 1, name: es.title })).toBeVisible();
    const fits = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    expect(await fits()).toBe(true);
    await expectNoSeriousViolations(page);
    await page.getByRole('link', { name: 'Abrir la ficha de Laura Méndez' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Laura Méndez' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: es.person.courses })).toBeVisible();
    expect(await fits()).toBe(true);
    await expectNoSeriousViolations(page);
  } finally {
    await context.close();
  }
});
