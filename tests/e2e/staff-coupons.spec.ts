/**
 * Coupons in the back office: the administrator (finance through the policy) creates a coupon, a
 * discount over 100 % is refused in words; a learner uses it at checkout; the coupon's page lists that
 * order (its number linking to the order, the buyer, the total, the discount given, paid); the administrator expires it now and
 * checkout then refuses it in words. An editor, a learner and a visitor are refused in words.
 */
import { confirmAddress, expect, expectNoSeriousViolations, test, type Page } from './fixtures';
import { registrationForm, PEOPLE } from './support/seed';
import { fillPayment } from './support/payment';
import { browseAsAdministrator, EDITOR } from './support/staff';
import { messages } from '../../src/i18n';
import { format } from '../../src/i18n/format';

const t = messages('en').couponAdmin;
const RUN = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const CODE = `FIN-${RUN}`.toUpperCase();
const NEXT_YEAR = new Date().getUTCFullYear() + 1;

/** A new learner, logged in in the page's context, with course 6 ($19.99) in the cart. */
async function newBuyer(page: Page, tag: string): Promise<void> {
  const email = `cupon.${tag}.${RUN}@example.com`;
  expect((await page.request.post('/_actions/auth.register', { form: registrationForm(email, 'Cupon') })).status()).toBe(200);
  await confirmAddress(page.request, email);
  expect((await page.request.post('/_actions/cart.add', { form: { kind: 'course', id: '6', lang: 'en' } })).status()).toBe(200);
}

test('@staff a coupon created in the back office is used at checkout, its use is listed, and once expired checkout refuses it', async ({ browser, baseURL }) => {
  test.slow();
  const context = await browser.newContext({ baseURL: baseURL! });
  await browseAsAdministrator(context, baseURL!);
  const admin = await context.newPage();
  const buyers = await browser.newContext({ baseURL: baseURL! });
  try {
    await admin.goto('/en/admin/coupons');
    await expect(admin.getByRole('heading', { level: 2, name: t.newTitle })).toBeVisible();
    await expectNoSeriousViolations(admin);
    await admin.getByLabel(t.fields.code).fill(` ${CODE.toLowerCase()} `);
    await admin.getByLabel(t.kinds.percent).check();
    await admin.getByLabel(t.fields.percent, { exact: true }).fill('101');
    await admin.getByLabel(t.fields.endsAt).fill(`${NEXT_YEAR}-01-31T23:59`);
    await admin.getByRole('button', { name: t.create }).click();
    // Over 100 %: a sentence, what was typed kept, nothing written.
    await expect(admin.locator('p.notice[role="alert"]')).toHaveText(t.problems.percentRange);
    await expect(admin.getByLabel(t.fields.percent, { exact: true })).toHaveValue('101');
    await expect(admin.locator(`tr[data-coupon="${CODE}"]`)).toHaveCount(0);
    await admin.getByLabel(t.fields.percent, { exact: true }).fill('25');
    await admin.getByRole('button', { name: t.create }).click();
    await expect(admin.locator('p.notice[role="status"]')).toHaveText(format(t.created, { code: CODE }));
    const row = admin.locator(`tr[data-coupon="${CODE}"]`);
    await expect(row).toContainText('25%');
    await expect(row).toContainText(`0 / ${t.unlimited}`);
    await expect(row.locator('[data-state]')).toHaveText(t.states.active);

    // A learner pays with it: 25 % of $19.99 is $5.00 off.
    const buyer = await buyers.newPage();
    await newBuyer(buyer, 'usa');
    await buyer.goto(`/en/purchase-detail?coupon=${CODE.toLowerCase()}`);
    await expect(buyer.locator('[data-checkout-total]')).toHaveText('$14.99');
    await fillPayment(buyer, 'en', '4242 4242 4242 4242');
    await buyer.getByRole('button', { name: 'Pay $14.99' }).click();
    await buyer.waitForURL(/\/myshopping-detail\/\d+\?paid=1$/);
    const number = /A-\d{6}/.exec((await buyer.getByRole('heading', { level: 1 }).textContent()) ?? '')![0];

    // Finance sees the use: the order's number (linking to its page), the buyer, the total, the discount given, paid.
    await admin.getByRole('link', { name: format(t.editLabel, { code: CODE }) }).click();
    await expect(admin.getByRole('heading', { level: 2, name: format(t.editTitle, { code: CODE }) })).toBeVisible();
    await expect(admin.getByText(t.kept)).toBeVisible();
    const use = admin.locator('table[data-coupon-uses] tbody tr');
    await expect(use).toHaveCount(1);
    await expect(use).toContainText(number);
    await expect(use).toContainText('$5.00');
    await expect(use).toContainText(t.orderStates.paid);
    await expect(use).toContainText(`cupon.usa.${RUN}@example.com`);
    await expect(use).toContainText('$14.99');
    await expect(use.getByRole('link', { name: number })).toHaveAttribute('href', /\/en\/admin\/orders\/\d+$/);
    await expect(admin.locator(`tr[data-coupon="${CODE}"]`)).toContainText(`1 / ${t.unlimited}`);
    // The list links each coupon to its uses.
    await expect(admin.getByRole('link', { name: format(t.usesLink, { code: CODE }) })).toHaveAttribute('href', /coupon=\d+#uses$/);
    await expectNoSeriousViolations(admin);

    // Expired now: the list says so, and checkout refuses it in words.
    await admin.getByRole('button', { name: t.expire }).click();
    await expect(admin.locator('p.notice[role="status"]')).toHaveText(format(t.expired, { code: CODE }));
    await expect(admin.locator(`tr[data-coupon="${CODE}"] [data-state]`)).toHaveText(t.states.expired);
    const late = await (await browser.newContext({ baseURL: baseURL! })).newPage();
    await newBuyer(late, 'tarde');
    await late.goto(`/en/purchase-detail?coupon=${CODE}`);
    await expect(late.getByText(`The coupon ${CODE} has expired.`)).toBeVisible();
    await expect(late.locator('[data-checkout-total]')).toHaveText('$19.99');
    await late.context().close();
  } finally {
    await buyers.close();
    await context.close();
  }
});

test('an editor, support staff, a learner, an IBO guest and a visitor are refused coupons in words', async ({ playwright, browser, baseURL }) => {
  // Support staff: a new account the administrator grants the support role.
  const support = { email: `soporte.${RUN}@example.com`, password: 'Soporte2026x' };
  const granting = await browser.newContext({ baseURL: baseURL! });
  try {
    const signUp = await playwright.request.newContext({ baseURL: baseURL! });
    expect((await signUp.post('/_actions/auth.register', { form: registrationForm(support.email, 'Soporte', support.password), headers: { Origin: baseURL! } })).status()).toBe(200);
    await signUp.dispose();
    await browseAsAdministrator(granting, baseURL!);
    const grant = await granting.request.post('/_actions/staff.grantRole', { form: { email: support.email, role: 'support', lang: 'en' }, headers: { Origin: baseURL! } });
    expect(grant.status()).toBe(200);
  } finally {
    await granting.close();
  }

  const asks = async (who: { email: string; password: string } | 'ibo' | null) => {
    const c = await playwright.request.newContext({ baseURL: baseURL! });
    const headers = { Origin: baseURL! };
    try {
      if (who === 'ibo') expect((await c.post('/_actions/ibo.enter', { form: { code: 'HORIZONTE01', lang: 'en' }, headers })).status()).toBe(200);
      else if (who) expect((await c.post('/_actions/auth.login', { form: { ...who, lang: 'en' }, headers })).status()).toBe(200);
      const r = await c.post('/_actions/coupons.save', { form: { code: `NO-${RUN}`, kind: 'percent', percent: '10', endsAt: `${NEXT_YEAR}-01-01T00:00`, lang: 'en' }, headers });
      const page = await c.get('/en/admin/coupons', { maxRedirects: 0 });
      return { status: r.status(), body: await r.text(), page: page.status() };
    } finally {
      await c.dispose();
    }
  };
  for (const [who, status] of [[EDITOR, 403], [support, 403], [PEOPLE.learner, 403], ['ibo', 401], [null, 401]] as const) {
    const answer = await asks(who);
    expect(answer.status, JSON.stringify(who)).toBe(status);
    expect(answer.body).toMatch(/[A-Z][a-z]+ [a-z]+/);
    expect(answer.body).not.toContain(`NO-${RUN}`);
  }
  expect((await asks(EDITOR)).page).toBe(403);
});
