/**
 * Memberships in the back office: the administrator (finance through the policy) finds the demo member
 * by e-mail, extends her Elite membership by 30 days, sets it to cancel at the period's end, undoes
 * that, and cancels it now; each change is in its history. Her lesson of a course the plan unlocked
 * opens before and is refused right after, with no wait (every process forgets her access). Bad input
 * is refused in words with nothing written (days out of range 400, an ended membership 409, a second
 * cancellation 409, an unknown id 404); an editor, support staff, a learner, an IBO guest and a visitor
 * are refused. On a 360 px phone the list and a membership's page fit the screen.
 */
import { expect, expectNoSeriousViolations, test } from './fixtures';
import { PEOPLE, playerPaths, registrationForm } from './support/seed';
import { browseAsAdministrator, EDITOR } from './support/staff';
import { messages } from '../../src/i18n';
import { format } from '../../src/i18n/format';

const t = messages('en').membershipAdmin;
const es = messages('es').membershipAdmin;
const RUN = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const MEMBER = { email: 'socia@academia.example', password: 'Socia2026', name: 'Isabel Moreno' };
/** Personal finance essentials: a paid course in the Elite plan's categories. */
const PLAN_COURSE = 6;

test('@staff finance finds a member, extends her membership, cancels it at the end, undoes that, cancels it now, and her course locks at once', async ({ browser, playwright, baseURL }) => {
  test.slow();
  const context = await browser.newContext({ baseURL: baseURL! });
  await browseAsAdministrator(context, baseURL!);
  const admin = await context.newPage();
  const member = await playwright.request.newContext({ baseURL: baseURL! });
  const lesson = playerPaths(PLAN_COURSE).lesson;
  try {
    expect((await member.post('/_actions/auth.login', { form: { email: MEMBER.email, password: MEMBER.password, lang: 'en' }, headers: { Origin: baseURL! } })).status()).toBe(200);
    // The membership opens the course's lessons.
    expect((await member.get(lesson, { maxRedirects: 0 })).status()).toBe(200);

    await admin.goto('/en/admin/memberships');
    await expectNoSeriousViolations(admin);
    await admin.getByLabel(t.search).fill(MEMBER.email);
    await admin.getByLabel(t.state).selectOption({ label: t.filterStates.active });
    await admin.getByRole('form', { name: t.filters }).getByRole('button', { name: t.apply }).click();
    await expect(admin.locator('.memberships p[role="status"]')).toHaveText(format(t.total.one, { count: 1 }));
    await admin.getByRole('link', { name: format(t.open, { name: MEMBER.name }) }).click();
    await expect(admin.getByRole('heading', { level: 2, name: MEMBER.name })).toBeVisible();
    await expect(admin.locator('[data-state]')).toHaveText(t.states.active);
    const ends = async () => new Date((await admin.locator('[data-ends] time').getAttribute('datetime'))!).getTime();
    const endsBefore = await ends();

    // Out of range: a sentence, nothing written.
    await admin.getByLabel(t.forms.days).fill('0');
    await admin.locator('#extend-reason').fill('Compensación');
    await admin.getByRole('button', { name: t.forms.extend }).click();
    await expect(admin.locator('p.notice[role="alert"]')).toHaveText(t.refusals.days);
    expect(await ends()).toBe(endsBefore);

    // Extend by 30 days: the end moves by 30 days, the history says why.
    await admin.getByLabel(t.forms.days).fill('30');
    await admin.locator('#extend-reason').fill('Compensación por la caída del servicio');
    await admin.getByRole('button', { name: t.forms.extend }).click();
    await expect(admin.locator('p.notice[role="status"]')).toContainText('Membership extended by 30 days');
    expect(await ends()).toBe(endsBefore + 30 * 86_400_000);
    await expect(admin.locator('[data-history] li').first()).toContainText(format(t.one.kinds.extend, { days: 30 }));
    await expect(admin.locator('[data-history] li').first()).toContainText('Compensación por la caída del servicio');

    // Cancel at the period's end, then undo it.
    await admin.locator('#end-reason').fill('Lo pidió por teléfono');
    await admin.getByRole('button', { name: t.forms.cancelAtEnd }).click();
    await expect(admin.locator('p.notice[role="status"]')).toContainText('will not renew');
    await expect(admin.locator('[data-state]')).toHaveText(t.states.cancelled);
    await expect(admin.locator('[data-next-renewal]')).toHaveText(t.one.noRenewal);
    expect((await member.get(lesson, { maxRedirects: 0 })).status()).toBe(200);
    await admin.locator('#end-reason').fill('Cambió de idea');
    await admin.getByRole('button', { name: t.forms.resume }).click();
    await expect(admin.locator('p.notice[role="status"]')).toContainText('Cancellation undone');
    await expect(admin.locator('[data-state]')).toHaveText(t.states.active);

    // Cancel now: access ends at once.
    await admin.locator('#now-reason').fill('Cargo desconocido');
    await admin.getByRole('button', { name: t.forms.cancelNow }).click();
    await expect(admin.locator('p.notice[role="status"]')).toHaveText(t.done.cancelNow);
    await expect(admin.locator('[data-state]')).toHaveText(t.states.lapsed);
    await expect(admin.getByText(t.forms.nothing)).toBeVisible();
    await expect(admin.locator('[data-history] li')).toHaveCount(4);
    expect((await member.get(lesson, { maxRedirects: 0 })).status()).toBe(403);
    await expectNoSeriousViolations(admin);

    // Refusals in words with nothing written: an ended membership, a second cancellation, an unknown id, days out of range.
    const id = /\/admin\/memberships\/(\d+)/.exec(admin.url())![1]!;
    const post = async (name: string, form: Record<string, string>) => {
      const r = await context.request.post(`/_actions/memberships.${name}`, { form: { id, reason: 'Prueba', key: `e2e-${name}-${RUN}-${Math.random().toString(36).slice(2)}`, lang: 'en', ...form }, headers: { Origin: baseURL! } });
      return { status: r.status(), body: await r.text() };
    };
    expect(await post('extend', { days: '30' })).toMatchObject({ status: 409, body: expect.stringContaining(t.refusals.ended) });
    expect(await post('cancelNow', {})).toMatchObject({ status: 409, body: expect.stringContaining(t.refusals.ended) });
    expect(await post('cancelAtEnd', {})).toMatchObject({ status: 409 });
    expect(await post('extend', { days: '100000' })).toMatchObject({ status: 400, body: expect.stringContaining(t.refusals.days) });
    expect(await post('extend', { days: '-3' })).toMatchObject({ status: 400 });
    expect(await post('extend', { id: '2147483647', days: '30' })).toMatchObject({ status: 404, body: expect.stringContaining(t.refusals.unknown) });
    await admin.reload();
    await expect(admin.locator('[data-history] li')).toHaveCount(4);
    expect((await admin.goto('/en/admin/memberships/2147483647'))!.status()).toBe(404);
    await expect(admin.getByRole('alert').filter({ hasText: t.refusals.unknown })).toBeVisible();
  } finally {
    await member.dispose();
    await context.close();
  }
});

test('an editor, support staff, a learner, an IBO guest and a visitor are refused memberships in words', async ({ playwright, browser, baseURL }) => {
  const support = { email: `soporte.socios.${RUN}@example.com`, password: 'Soporte2026x' };
  const granting = await browser.newContext({ baseURL: baseURL! });
  try {
    const signUp = await playwright.request.newContext({ baseURL: baseURL! });
    expect((await signUp.post('/_actions/auth.register', { form: registrationForm(support.email, 'Soporte', support.password), headers: { Origin: baseURL! } })).status()).toBe(200);
    await signUp.dispose();
    await browseAsAdministrator(granting, baseURL!);
    expect((await granting.request.post('/_actions/staff.grantRole', { form: { email: support.email, role: 'support', lang: 'en' }, headers: { Origin: baseURL! } })).status()).toBe(200);
  } finally {
    await granting.close();
  }
  const asks = async (who: { email: string; password: string } | 'ibo' | null) => {
    const c = await playwright.request.newContext({ baseURL: baseURL! });
    const headers = { Origin: baseURL! };
    try {
      if (who === 'ibo') expect((await c.post('/_actions/ibo.enter', { form: { code: 'HORIZONTE01', lang: 'en' }, headers })).status()).toBe(200);
      else if (who) expect((await c.post('/_actions/auth.login', { form: { ...who, lang: 'en' }, headers })).status()).toBe(200);
      const r = await c.post('/_actions/memberships.cancelNow', { form: { id: '1', reason: 'No', key: `e2e-refused-${RUN}-000000`, lang: 'en' }, headers });
      const page = await c.get('/en/admin/memberships', { maxRedirects: 0 });
      return { status: r.status(), body: await r.text(), page: page.status(), pageBody: await page.text() };
    } finally {
      await c.dispose();
    }
  };
  for (const [who, status] of [[EDITOR, 403], [support, 403], [PEOPLE.learner, 403], ['ibo', 401], [null, 401]] as const) {
    const answer = await asks(who);
    expect(answer.status, JSON.stringify(who)).toBe(status);
    expect(answer.body).toMatch(/[A-Z][a-z]+ [a-z]+/);
    if (status === 403) {
      expect(answer.page, JSON.stringify(who)).toBe(403);
      expect(answer.pageBody).not.toContain(MEMBER.email);
    }
  }
});

test('the memberships list and a membership fit a 360 px screen, in Spanish @mobile', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL: baseURL!, viewport: { width: 360, height: 780 } });
  await browseAsAdministrator(context, baseURL!);
  const page = await context.newPage();
  try {
    const fits = async () => expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await page.goto(`/admin/memberships?q=${encodeURIComponent(MEMBER.email)}`);
    await expect(page.getByRole('heading', { level: 1, name: es.title })).toBeVisible();
    await fits();
    await page.getByRole('link', { name: format(es.open, { name: MEMBER.name }) }).click();
    await expect(page.getByRole('heading', { level: 2, name: MEMBER.name })).toBeVisible();
    await fits();
    await expectNoSeriousViolations(page);
  } finally {
    await context.close();
  }
});
