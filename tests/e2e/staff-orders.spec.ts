/**
 * Orders in the back office: a buyer of this journey's own pays for a course and a book; finance (the
 * administrator, who holds every staff role) finds the order by the buyer's e-mail, opens it (its lines,
 * its payment attempt and the gateway's references) and refunds the course line with a reason. The
 * buyer's lesson is refused at once, with no wait. The same form sent again is the same refund; a line
 * refunded again, a line of no order, an unknown order and a short reason are refused in words with
 * nothing written. Then the rest is refunded: the order is refunded and nothing is left to refund. Editors,
 * learners and visitors are refused. On a 360 px phone the list and an order fit the screen.
 */
import { confirmAddress, expect, expectNoSeriousViolations, test, type Page } from './fixtures';
import { courseNames, playerPaths, registrationForm } from './support/seed';
import { paymentForm } from './support/payment';
import { browseAsAdministrator, EDITOR } from './support/staff';
import { messages } from '../../src/i18n';
import { format } from '../../src/i18n/format';

const t = messages('en').orders;
const es = messages('es').orders;
const RUN = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
/** Personal finance essentials ($19.99), and the first demo book. */
const COURSE = 6;
const BOOK = 1;

/** Registers a buyer of this journey's own, confirms the address and pays for the course and the book; answers the e-mail. */
async function buyCourseAndBook(page: Page, baseURL: string, tag: string): Promise<string> {
  const email = `pedidos.${tag}.${RUN}@example.com`;
  const headers = { origin: baseURL };
  expect((await page.request.post('/_actions/auth.register', { form: registrationForm(email, 'Pedidos'), headers })).status()).toBe(200);
  await confirmAddress(page.request, email);
  expect((await page.request.post('/_actions/cart.add', { form: { kind: 'course', id: String(COURSE), lang: 'en' }, headers })).status()).toBe(200);
  expect((await page.request.post('/_actions/cart.add', { form: { kind: 'book', id: String(BOOK), lang: 'en' }, headers })).status()).toBe(200);
  const html = await (await page.request.get('/en/purchase-detail')).text();
  const idempotencyKey = /name="idempotencyKey" value="([^"]+)"/.exec(html)![1]!;
  const paid = await page.request.post('/_actions/commerce.checkout', { headers, form: paymentForm({ idempotencyKey }) });
  expect(paid.status(), await paid.text()).toBe(200);
  return email;
}

/** Opens the buyer's only order from the list searched by their e-mail; answers its id. */
async function openOrderOf(admin: Page, email: string): Promise<string> {
  await admin.goto('/en/admin/orders');
  await admin.getByLabel(t.search).fill(email);
  await admin.getByRole('form', { name: t.filters }).getByRole('button', { name: t.apply }).click();
  await expect(admin.locator('.support-inbox p[role="status"]')).toContainText(format(t.total.one, { count: 1 }));
  await admin.locator('tr[data-order] th a').click();
  await expect(admin).toHaveURL(/\/en\/admin\/orders\/\d+$/);
  return /\/admin\/orders\/(\d+)$/.exec(admin.url())![1]!;
}

test('@staff finance finds an order, refunds its course line with a reason (the buyer loses the course at once), then the rest; refusals in words', async ({ browser, page, baseURL }) => {
  test.slow();
  const email = await buyCourseAndBook(page, baseURL!, 'refund');
  const lesson = playerPaths(COURSE).lesson;
  expect((await page.request.get(lesson, { maxRedirects: 0 })).status()).toBe(200);

  const context = await browser.newContext({ baseURL: baseURL! });
  await browseAsAdministrator(context, baseURL!);
  const admin = await context.newPage();
  try {
    const id = await openOrderOf(admin, email);
    await expectNoSeriousViolations(admin);
    await expect(admin.locator('[data-status]').first()).toHaveText(t.statuses.paid);
    await expect(admin.locator('tr[data-line]')).toHaveCount(2);
    // The payment attempt, with the key the checkout page drew and the sandbox's charge.
    await expect(admin.locator('tr[data-attempt="1"]')).toContainText(t.order.attemptStatuses.approved);
    await expect(admin.locator('tr[data-attempt="1"] code')).toHaveCount(2);
    await expect(admin.locator('[data-refunded]')).toHaveAttribute('data-refunded', '0');

    // Refund the course line: the buyer's lesson is refused right after.
    const courseTitle = courseNames(COURSE)[1]!;
    const courseBox = admin.getByRole('checkbox', { name: new RegExp(courseTitle) });
    const courseLine = (await courseBox.getAttribute('value'))!;
    const key = (await admin.locator('input[name="key"]').getAttribute('value'))!;
    await courseBox.check();
    await admin.getByLabel(t.forms.reason).fill('Lo compró por error');
    await admin.getByRole('button', { name: t.forms.submit, exact: true }).click();
    await expect(admin.locator('p.notice[role="status"]')).toHaveText(format(t.done.refunded, { amount: '$19.99' }));
    await expect(admin.locator(`tr[data-line="${courseLine}"]`)).toContainText(t.order.lineRefunded);
    await expect(admin.locator('[data-refunded]')).toHaveAttribute('data-refunded', '1999');
    await expect(admin.locator('li[data-refund]')).toHaveCount(1);
    await expect(admin.locator('li[data-refund]')).toContainText('Lo compró por error');
    await expect(admin.locator('[data-status]').first()).toHaveText(t.statuses.paid);
    expect((await page.request.get(lesson, { maxRedirects: 0 })).status()).toBe(403);
    await expectNoSeriousViolations(admin);

    // The same form again is the same refund; other refusals are sentences with nothing written.
    const post = async (form: Record<string, string>) => {
      const r = await context.request.post('/_actions/orders.refund', { form: { id, scope: 'lines', reason: 'Prueba', key: `e2e-orders-${RUN}-${Math.random().toString(36).slice(2)}`, lang: 'en', ...form }, headers: { origin: baseURL! } });
      return { status: r.status(), body: await r.text() };
    };
    expect(await post({ lines: courseLine, reason: 'Lo compró por error', key })).toMatchObject({ status: 200 });
    expect(await post({ lines: courseLine })).toMatchObject({ status: 409, body: expect.stringContaining(t.refusals.alreadyRefunded) });
    expect(await post({ lines: '2147483647' })).toMatchObject({ status: 400, body: expect.stringContaining(t.refusals.unknownLine) });
    expect(await post({ id: '2147483647', lines: courseLine })).toMatchObject({ status: 404, body: expect.stringContaining(t.refusals.unknown) });
    expect((await post({ scope: 'all', reason: 'x' })).status).toBe(400);
    await admin.reload();
    await expect(admin.locator('li[data-refund]')).toHaveCount(1);
    await expect(admin.locator('[data-refunded]')).toHaveAttribute('data-refunded', '1999');

    // All that is left: the order is refunded, nothing is left to refund.
    await admin.getByLabel(t.forms.scopeAll).check();
    await admin.getByLabel(t.forms.reason).fill('Devolución completa');
    await admin.getByRole('button', { name: t.forms.submit, exact: true }).click();
    await expect(admin.locator('p.notice[role="status"]')).toContainText('Refund of $');
    await expect(admin.locator('[data-status]').first()).toHaveText(t.statuses.refunded);
    await expect(admin.locator('li[data-refund]')).toHaveCount(2);
    await expect(admin.getByText(t.forms.nothingLeft)).toBeVisible();
    await expect(admin.locator('tr[data-line]').filter({ hasText: t.order.lineRefunded })).toHaveCount(2);

    // The list says what was charged and refunded; in Spanish too.
    await admin.goto(`/admin/orders?q=${encodeURIComponent(email)}`);
    await expect(admin.locator(`tr[data-order="${id}"]`)).toContainText(es.statuses.refunded);
    await expectNoSeriousViolations(admin);
  } finally {
    await context.close();
  }
});

test('an editor and a learner are refused the orders (403), a visitor is sent to log in', async ({ page, playwright, baseURL }) => {
  const editor = await playwright.request.newContext({ baseURL: baseURL! });
  try {
    expect((await editor.post('/_actions/auth.login', { form: { ...EDITOR, lang: 'en' }, headers: { origin: baseURL! } })).status()).toBe(200);
    expect((await editor.get('/en/admin/orders', { maxRedirects: 0 })).status()).toBe(403);
    const refused = await editor.post('/_actions/orders.refund', { form: { id: '1', scope: 'all', reason: 'Prueba', key: `e2e-editor-${RUN}`, lang: 'en' }, headers: { origin: baseURL! } });
    expect(refused.status()).toBe(403);
  } finally {
    await editor.dispose();
  }
  expect((await page.request.post('/_actions/auth.register', { form: registrationForm(`pedidos.alumno.${RUN}@example.com`, 'Alumno'), headers: { origin: baseURL! } })).status()).toBe(200);
  expect((await page.request.get('/en/admin/orders/1', { maxRedirects: 0 })).status()).toBe(403);
  expect((await page.request.post('/_actions/orders.resendReceipt', { form: { id: '1', lang: 'en' }, headers: { origin: baseURL! } })).status()).toBe(403);
  const visitor = await playwright.request.newContext({ baseURL: baseURL! });
  try {
    const r = await visitor.get('/en/admin/orders', { maxRedirects: 0 });
    expect([302, 303]).toContain(r.status());
    expect(r.headers()['location']).toContain('/en/login');
  } finally {
    await visitor.dispose();
  }
});

test('@mobile @staff on a 360 px phone the orders and one order fit the screen', async ({ browser, baseURL, page }) => {
  const email = await buyCourseAndBook(page, baseURL!, 'phone');
  const context = await browser.newContext({ baseURL: baseURL!, viewport: { width: 360, height: 780 }, isMobile: true, hasTouch: true });
  await browseAsAdministrator(context, baseURL!);
  const admin = await context.newPage();
  try {
    await admin.goto(`/en/admin/orders?q=${encodeURIComponent(email)}`);
    const fits = () => admin.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    expect(await fits()).toBe(true);
    await admin.locator('tr[data-order] th a').click();
    await expect(admin.getByRole('heading', { name: t.forms.refundTitle, level: 2, exact: true })).toBeVisible();
    expect(await fits()).toBe(true);
    await expectNoSeriousViolations(admin);
  } finally {
    await context.close();
  }
});
