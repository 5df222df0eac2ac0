/**
 * IBO commissions in the back office: the administrator (with the second factor) sees each product
 * kind's rate, is refused in words a rate below 0 %, above 100 % and one that is not a number (what was
 * typed kept, nothing changed), sets a new rate (in force at once, listed in the latest changes) and sets
 * it back; a payout to an IBO with nothing approved is refused in words. At 360 px the page fits the
 * screen, in Spanish. An editor, a learner, an IBO guest and a visitor are refused in words.
 */
import { expect, expectNoSeriousViolations, test } from './fixtures';
import { PEOPLE } from './support/seed';
import { browseAsAdministrator, EDITOR } from './support/staff';
import { messages } from '../../src/i18n';
import { format } from '../../src/i18n/format';

const t = messages('en').commissions;
const es = messages('es').commissions;

test('@staff the administrator sets a product kind commission: out of range and not a number refused in words, a new rate in force at once', async ({ browser, baseURL }) => {
  test.slow();
  const context = await browser.newContext({ baseURL: baseURL! });
  await browseAsAdministrator(context, baseURL!);
  const admin = await context.newPage();
  try {
    await admin.goto('/en/admin/commissions');
    await expect(admin.getByRole('heading', { level: 1, name: t.title })).toBeVisible();
    const bookRow = admin.locator('table[data-commission-rates] tr[data-kind="book"]');
    const field = admin.getByLabel(format(t.rateField, { kind: t.kinds.book.toLowerCase() }), { exact: true });
    const before = await field.inputValue();
    await expectNoSeriousViolations(admin);

    for (const [typed, problem] of [
      ['-5', t.problems.outOfRange],
      ['150', t.problems.outOfRange],
      ['twenty', t.problems.notNumber],
      ['12.345', t.problems.tooPrecise],
    ] as const) {
      await field.fill(typed);
      const answer = admin.waitForResponse((r) => r.request().method() === 'POST');
      await bookRow.getByRole('button', { name: format(t.setRateLabel, { kind: t.kinds.book.toLowerCase() }) }).click();
      expect((await answer).status(), typed).toBe(400);
      await expect(admin.locator('p.notice[role="alert"]')).toHaveText(problem);
      await expect(field).toHaveValue(typed);
    }
    // Nothing changed: the rate in force is the one before.
    await admin.goto('/en/admin/commissions');
    await expect(field).toHaveValue(before);

    await field.fill('12.5');
    await bookRow.getByRole('button', { name: format(t.setRateLabel, { kind: t.kinds.book.toLowerCase() }) }).click();
    await expect(admin.locator('p.notice[role="status"]')).toHaveText(format(t.rateSet, { kind: t.kinds.book.toLowerCase(), rate: '12.5%' }));
    await expect(bookRow).toContainText('12.5%');
    await expect(admin.locator('table[data-commission-history] tbody tr').first()).toContainText('12.5%');

    // Set back (other journeys' orders earn the usual rate).
    await field.fill(before);
    await bookRow.getByRole('button', { name: format(t.setRateLabel, { kind: t.kinds.book.toLowerCase() }) }).click();
    await expect(admin.locator('p.notice[role="status"]')).toBeVisible();

    // A payout for an IBO with nothing approved, posted as a form would: refused in words, nothing recorded.
    const r = await context.request.post('/en/admin/commissions?_action=commissions.recordPayout', { form: { ibo: '2', key: `journey-${Date.now()}-payout`, reference: '', lang: 'en' }, headers: { Origin: baseURL! } });
    const body = await r.text();
    expect(r.status(), /<p class="notice[^]*?<\/p>/.exec(body)?.[0]).toBe(409);
    expect(body).toContain(t.refusals.nothingDue);
  } finally {
    await context.close();
  }
});

test('@mobile at 360 px the commissions page fits the screen, in Spanish', async ({ browser, baseURL }) => {
  test.slow();
  const context = await browser.newContext({ baseURL: baseURL!, viewport: { width: 360, height: 780 } });
  await browseAsAdministrator(context, baseURL!);
  const page = await context.newPage();
  try {
    await page.goto('/admin/commissions');
    await expect(page.getByRole('heading', { level: 1, name: es.title })).toBeVisible();
    await expect(page.getByLabel(format(es.rateField, { kind: es.kinds.course.toLowerCase() }), { exact: true })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await expectNoSeriousViolations(page);
  } finally {
    await context.close();
  }
});

test('@staff an editor, a learner, an IBO guest and a visitor cannot set a rate nor record a payout', async ({ playwright, baseURL }) => {
  const asks = async (who: { email: string; password: string } | 'ibo' | null) => {
    const c = await playwright.request.newContext({ baseURL: baseURL! });
    const headers = { Origin: baseURL! };
    try {
      if (who === 'ibo') expect((await c.post('/_actions/ibo.enter', { form: { code: 'HORIZONTE01', lang: 'en' }, headers })).status()).toBe(200);
      else if (who) expect((await c.post('/_actions/auth.login', { form: { ...who, lang: 'en' }, headers })).status()).toBe(200);
      const rate = await c.post('/_actions/commissions.setRate', { form: { kind: 'course', rate: '99', lang: 'en' }, headers });
      const payout = await c.post('/_actions/commissions.recordPayout', { form: { ibo: '1', key: `refused-${Date.now()}-payout`, lang: 'en' }, headers });
      const page = await c.get('/en/admin/commissions', { maxRedirects: 0 });
      return { rate: rate.status(), rateBody: await rate.text(), payout: payout.status(), page: page.status() };
    } finally {
      await c.dispose();
    }
  };
  for (const [who, status, pageStatus] of [[EDITOR, 403, 'refused'], [PEOPLE.learner, 403, 'refused'], ['ibo', 401, 'login'], [null, 401, 'login']] as const) {
    const answer = await asks(who);
    expect(answer.rate, JSON.stringify(who)).toBe(status);
    expect(answer.payout, JSON.stringify(who)).toBe(status);
    expect(answer.rateBody).toMatch(/[A-Z][a-z]+ [a-z]+/);
    if (pageStatus === 'refused') expect(answer.page, JSON.stringify(who)).toBe(403);
    else expect([302, 303], JSON.stringify(who)).toContain(answer.page);
  }
});
