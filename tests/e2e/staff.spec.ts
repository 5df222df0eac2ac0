/**
 * The back office as staff go through it: the administrator logs in with the password, then the code
 * from the authenticator app (computed here from the demo secret), lands on the dashboard, grants the
 * editor role to a learner's account by e-mail (the keyboard submits the form), and finds the change in
 * the audit log, filtered. The pages pass the accessibility checks.
 */
import { expect, expectNoSeriousViolations, test, type Page } from './fixtures';
import { registrationForm } from './support/seed';
import { claimedCode } from './support/staff';
import { messages } from '../../src/i18n';

const t = messages('en').staff;

/** Types the current code; a code another test took in these 30 seconds is refused, so then the next one. */
async function enterCode(page: Page) {
  for (let attempt = 0; attempt < 3; attempt++) {
    await page.getByLabel(t.code.label, { exact: true }).fill(await claimedCode());
    await page.getByRole('button', { name: t.code.submit }).click();
    const landed = await Promise.race([
      page.waitForURL('**/en/admin', { timeout: 15_000 }).then(() => true),
      page.getByRole('alert').waitFor({ timeout: 15_000 }).then(() => false),
    ]);
    if (landed) return;
  }
  throw new Error('no code was accepted');
}

test('the administrator signs in with a second factor, grants the editor role to a learner and finds it in the audit log', async ({ page, browser, baseURL }) => {
  test.slow();
  // A learner's account (new each run, so the seeded learner's own journeys are untouched).
  const email = `personal.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.com`;
  const other = await browser.newContext();
  const registered = await other.request.post(`${baseURL}/_actions/auth.register`, { headers: { origin: baseURL! }, form: { ...registrationForm(email, 'Nora', 'Personal2026x'), lang: 'en' } });
  expect(registered.status()).toBe(200);
  await other.close();

  await page.goto('/en/login');
  const form = page.locator('form.account-form').first();
  await expect(form).toHaveAttribute('data-enhanced', 'true');
  await form.getByLabel('Email', { exact: true }).fill('admin@academia.example');
  await form.getByLabel('Password', { exact: true }).fill('Admin2026');
  await form.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL('**/en/second-factor**');
  await expect(page.getByRole('heading', { level: 1, name: t.code.title })).toBeVisible();
  await enterCode(page);

  await expect(page.getByRole('heading', { level: 1, name: t.dashboard.title })).toBeVisible();
  await expectNoSeriousViolations(page);
  // The header's menu links the back office.
  await page.locator('details.user-menu summary').click();
  await expect(page.locator('details.user-menu').getByRole('link', { name: t.backOffice })).toBeVisible();
  await page.keyboard.press('Escape');

  await page.getByRole('link', { name: new RegExp(t.dashboard.areas.staff.title) }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: t.people.title })).toBeVisible();
  await page.getByLabel(t.people.role, { exact: true }).selectOption('editor');
  const field = page.getByLabel(t.people.email, { exact: true });
  await field.fill(email);
  await field.press('Enter');
  await expect(page.locator('main').getByRole('status')).toHaveText(t.people.granted);
  const row = page.locator('tr', { hasText: email });
  await expect(row).toContainText(t.roles.editor);
  await expect(row).toContainText(t.people.factors.none);
  const userRef = (await row.locator('.ref').textContent())!.trim();
  await expectNoSeriousViolations(page);

  await page.locator('.staff-nav').getByRole('link', { name: t.audit.title }).click();
  await page.getByLabel(t.audit.action, { exact: true }).selectOption('staff.role.granted');
  await page.getByRole('button', { name: t.audit.apply }).click();
  await page.waitForURL(/action=staff\.role\.granted/);
  const event = page.locator('li[data-action="staff.role.granted"]', { hasText: userRef }).first();
  await expect(event).toContainText('["editor"]');
  await expect(event).toContainText(/user:\d+/);
  await expect(page.locator('main')).not.toContainText(email);
  await expectNoSeriousViolations(page);
});
