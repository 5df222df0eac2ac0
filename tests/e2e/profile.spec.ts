/**
 * Editing one's profile (/profile, /en/profile): with JavaScript and without, field errors in the
 * page's language, the saved name in the header on the next page, who may call the action, and the
 * page's accessibility at both widths. Each journey edits an account of its own, made here.
 */
import { expect, expectNoSeriousViolations, test, type Page } from './fixtures';
import { PEOPLE } from './support/seed';

let n = 0;
const unique = () => `${Date.now()}.${process.pid}.${++n}.${Math.floor(Math.random() * 1e6)}`;

/** A new account, logged in in this page's context (the registration action logs it in). */
async function newLearner(page: Page, baseURL: string) {
  const email = `perfil.${unique()}@example.com`;
  const response = await page.request.post('/_actions/auth.register', {
    headers: { origin: baseURL },
    form: { name: 'Nora', lastName: 'Quintero', email, confirmEmail: email, gender: 'female', birthDay: '7', birthMonth: '4', birthYear: '1990', password: 'Perfil2026', confirmPassword: 'Perfil2026', lang: 'es' },
  });
  expect(response.status()).toBe(200);
  return email;
}

const LANGS = [
  { prefix: '', name: 'Nombre', lastName: 'Apellido', save: 'Guardar los cambios', updated: 'Tu perfil se ha actualizado', account: (who: string) => `Menú de la cuenta de ${who}` },
  { prefix: '/en', name: 'Name', lastName: 'Last name', save: 'Save changes', updated: 'Your profile has been updated', account: (who: string) => `Account menu of ${who}` },
] as const;

const form = (page: Page) => page.locator('form.account-form');

for (const l of LANGS) {
  test.describe(`profile (${l.prefix || 'es'})`, () => {
    test('with JavaScript: errors in the page language, then the new name in the header', async ({ page, baseURL }) => {
      await newLearner(page, baseURL!);
      await page.goto(`${l.prefix}/profile`);
      await expect(form(page)).toHaveAttribute('data-enhanced', 'true');
      await expect(form(page).getByLabel(l.name, { exact: true })).toHaveValue('Nora');
      await form(page).getByLabel(l.name, { exact: true }).fill('');
      await form(page).getByRole('button', { name: l.save }).click();
      await expect(form(page).getByLabel(l.name, { exact: true })).toHaveAttribute('aria-invalid', 'true');
      await expect(form(page).locator('.field-error')).toHaveText([l.prefix ? /Name field is required/ : /nombre es obligatorio/i]);
      await form(page).getByLabel(l.name, { exact: true }).fill('Renata');
      await form(page).getByRole('button', { name: l.save }).click();
      await expect(page.locator('p.saved[role=status]')).toHaveText(l.updated);
      await expect(page.getByRole('heading', { level: 2, name: 'Renata Quintero' })).toBeVisible();
      await page.goto(`${l.prefix}/`);
      await expect(page.getByRole('banner').getByLabel(l.account('Renata Quintero'))).toBeAttached();
    });
  });
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  for (const l of LANGS) {
    test(`the form posts, shows field errors and saves (${l.prefix || 'es'})`, async ({ page, baseURL }) => {
      await newLearner(page, baseURL!);
      await page.goto(`${l.prefix}/profile`);
      await form(page).getByLabel(l.lastName, { exact: true }).fill('Ana\u202Eevil');
      await form(page).getByRole('button', { name: l.save }).click();
      await expect(form(page).getByLabel(l.lastName, { exact: true })).toHaveAttribute('aria-invalid', 'true');
      await expect(page.getByRole('heading', { level: 2, name: 'Nora Quintero' })).toBeVisible();
      await form(page).getByLabel(l.lastName, { exact: true }).fill('Ibáñez');
      await form(page).getByRole('button', { name: l.save }).click();
      await expect(page).toHaveURL(new RegExp(`${l.prefix}/profile\\?updated=1$`));
      await expect(page.locator('p.saved[role=status]')).toHaveText(l.updated);
      await expect(page.getByRole('heading', { level: 2, name: 'Nora Ibáñez' })).toBeVisible();
      await expect(page.getByRole('banner').getByLabel(l.account('Nora Ibáñez')).first()).toBeAttached();
    });
  }
});

test('only a logged-in learner may change a profile, and only their own', async ({ page, playwright, baseURL }) => {
  const valid = { name: 'Intrusa', lastName: 'Nadie', gender: 'other', birthDay: '1', birthMonth: '1', birthYear: '1990', language: 'es', lang: 'en' };
  const visitor = await playwright.request.newContext({ baseURL: baseURL! });
  const anonymous = await visitor.post('/_actions/account.updateProfile', { headers: { origin: baseURL! }, form: valid });
  expect(anonymous.status()).toBe(401);
  await visitor.dispose();
  // The learner's own form cannot name another row: an id field is ignored.
  await newLearner(page, baseURL!);
  const mine = await page.request.post('/_actions/account.updateProfile', { headers: { origin: baseURL! }, form: { ...valid, id: '1', userId: '1' } });
  expect(mine.status()).toBe(200);
  await page.goto('/en/profile');
  await expect(page.getByRole('heading', { level: 2, name: 'Intrusa Nadie' })).toBeVisible();
  const other = await playwright.request.newContext({ baseURL: baseURL! });
  const login = await other.post('/_actions/auth.login', { headers: { origin: baseURL! }, form: { email: PEOPLE.learner.email, password: PEOPLE.learner.password, lang: 'en' } });
  expect(login.status()).toBe(200);
  await other.get('/en/profile');
  expect(await (await other.get('/en/profile')).text()).toContain(`${PEOPLE.learner.firstName} ${PEOPLE.learner.lastName}`);
  await other.dispose();
});

test('the profile page has no serious axe violation, with errors shown @mobile', async ({ page, baseURL }) => {
  await newLearner(page, baseURL!);
  for (const l of LANGS) {
    await page.goto(`${l.prefix}/profile`);
    await expect(form(page)).toHaveAttribute('data-enhanced', 'true');
    await expectNoSeriousViolations(page);
    await form(page).getByLabel(l.name, { exact: true }).fill('');
    await form(page).getByRole('button', { name: l.save }).click();
    await expect(form(page).getByLabel(l.name, { exact: true })).toHaveAttribute('aria-invalid', 'true');
    await expectNoSeriousViolations(page);
    const width = page.viewportSize()!.width;
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  }
});
