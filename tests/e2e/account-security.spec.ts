/**
 * The account's security page and the confirmation of an address, as a person goes through them:
 * a new account confirms its address from the mail in the outbox (the banner then goes); changing the
 * password in one browser logs the other browser out while this one stays; a wrong current password
 * is refused in words without JavaScript; and the page fits a phone in both languages.
 */
import { confirmationToken, expect, expectNoSeriousViolations, test, type Page } from './fixtures';
import { registrationForm } from './support/seed';

let n = 0;
const unique = () => `${Date.now()}.${process.pid}.${++n}.${Math.floor(Math.random() * 1e6)}`;
const PASSWORD = 'Segura2026x';

/** A new account, registered (so logged in) in this page's context. */
async function newLearner(page: Page, baseURL: string): Promise<string> {
  const email = `seguridad.${unique()}@example.com`;
  const r = await page.request.post('/_actions/auth.register', { headers: { origin: baseURL }, form: { ...registrationForm(email, 'Nora', PASSWORD), lang: 'en' } });
  expect(r.status()).toBe(200);
  return email;
}

const EN = {
  banner: (email: string) => `Confirm your e-mail address ${email} to buy and earn certificates.`,
  confirm: 'Confirm the address',
  verified: 'Your e-mail address is confirmed. You can now buy and earn certificates.',
  current: 'Current password',
  newPassword: 'New password',
  confirmPassword: 'Confirm password',
  change: 'Change the password',
  changed: 'Your password changed. Your other sessions were logged out.',
};

test('a new account confirms its address from the mail; changing the password logs the other browser out, this one stays', async ({ page, browser, baseURL }) => {
  test.slow();
  const email = await newLearner(page, baseURL!);

  // The banner asks on every page until the address is confirmed.
  await page.goto('/en/courses');
  await expect(page.getByText(EN.banner(email))).toBeVisible();
  const token = await confirmationToken(email);
  await page.goto(`/en/confirm-email?token=${token}`);
  await page.getByRole('button', { name: EN.confirm }).click();
  await expect(page.locator('main').getByRole('status')).toHaveText(EN.verified);
  await page.goto('/en/courses');
  await expect(page.getByText(EN.banner(email))).toHaveCount(0);

  // Another browser logs in to the same account.
  const other = await browser.newContext();
  try {
    const otherPage = await other.newPage();
    const login = await otherPage.request.post(`${baseURL}/_actions/auth.login`, { headers: { origin: baseURL! }, form: { email, password: PASSWORD, lang: 'en' } });
    expect(login.status()).toBe(200);
    await otherPage.goto(`${baseURL}/en/mylearning`);
    await expect(otherPage).toHaveURL(/\/en\/mylearning$/);

    // Both sessions are listed, this one marked.
    await page.goto('/en/profile/security');
    await expect(page.locator('[data-session]')).toHaveCount(2);
    await expect(page.locator('[data-session="current"]')).toContainText('This device');

    const form = page.getByRole('form', { name: EN.change });
    await expect(form).toHaveAttribute('data-enhanced', 'true');
    await form.getByLabel(EN.current, { exact: true }).fill(PASSWORD);
    await form.getByLabel(EN.newPassword, { exact: true }).fill('Cambiada2026x');
    await form.getByLabel(EN.confirmPassword, { exact: true }).fill('Cambiada2026x');
    await form.getByRole('button', { name: EN.change }).click();
    await expect(page.getByText(EN.changed)).toBeVisible();
    await expect(page.locator('[data-session]')).toHaveCount(1);

    // The other browser is logged out; this one is not.
    await otherPage.goto(`${baseURL}/en/mylearning`);
    await expect(otherPage).toHaveURL(/\/en\/login/);
    await page.goto('/en/mylearning');
    await expect(page).toHaveURL(/\/en\/mylearning$/);
  } finally {
    await other.close();
  }
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('a wrong current password is refused in words with a 400, and the password stays', async ({ page, baseURL }) => {
    const email = await newLearner(page, baseURL!);
    await page.goto('/profile/security');
    const form = page.getByRole('form', { name: 'Cambiar la contraseña' });
    await form.getByLabel('Contraseña actual', { exact: true }).fill('NoEsLaMia1');
    await form.getByLabel('Nueva contraseña', { exact: true }).fill('Cambiada2026x');
    await form.getByLabel('Confirmar contraseña', { exact: true }).fill('Cambiada2026x');
    const [answer] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), form.getByRole('button', { name: 'Cambiar la contraseña' }).click()]);
    expect(answer.status()).toBe(400);
    await expect(form.getByRole('alert')).toHaveText('La contraseña actual no es correcta.');
    const again = await page.request.post('/_actions/auth.login', { headers: { origin: baseURL! }, form: { email, password: PASSWORD, lang: 'es' } });
    expect(again.status()).toBe(200);
  });
});

for (const prefix of ['', '/en']) {
  test(`the security page fits a 360 px screen and passes the accessibility rules (${prefix || 'es'}) @mobile`, async ({ page, baseURL }) => {
    await newLearner(page, baseURL!);
    await page.goto(`${prefix}/profile/security`);
    await expect(page.locator('[data-session="current"]')).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(page.viewportSize()!.width);
    await expectNoSeriousViolations(page);
  });
}
