/**
 * The back office's dashboard figures: the administrator sees today's and this month's five figures,
 * each with its previous period and its change in words, in Spanish and English, readable at 360 px
 * without sideways scrolling and passing the accessibility checks; today's new learners go up by one
 * when a learner registers.
 */
import { expect, expectNoSeriousViolations, test } from './fixtures';
import { registrationForm } from './support/seed';
import { browseAsAdministrator } from './support/staff';
import { messages } from '../../src/i18n';

const en = messages('en').dashboardFigures;
const es = messages('es').dashboardFigures;

test('@staff the administrator reads every figure, in both languages, and a new learner counts at once', async ({ page, baseURL, playwright }) => {
  await browseAsAdministrator(page.context(), baseURL!);
  await page.goto(`${baseURL}/en/admin`);
  const today = page.getByRole('region', { name: en.today });
  for (const name of Object.values(en.figures).filter((f) => f !== en.figures.openSupport)) {
    const card = today.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 4, name }) });
    await expect(card.locator('.figure-previous')).toContainText(en.previous.day.replace(' {value}', ''));
    await expect(card.locator('.figure-change')).toHaveText(/^\S (Up|Down) .+\(\d[\d,]*%\)$|^\S No change$|^\S New: there were none before$/);
  }
  await expect(page.getByRole('region', { name: en.month }).getByRole('heading', { level: 4 })).toHaveCount(4);
  await expect(page.getByRole('region', { name: en.now }).getByRole('heading', { level: 4, name: en.figures.openSupport })).toBeVisible();
  await expectNoSeriousViolations(page);

  // A learner registers: today's new learners go up by one.
  const newLearners = today.locator('[data-figure="newLearners"] .figure-value');
  const before = Number((await newLearners.textContent())!.replace(/,/g, ''));
  const learner = await playwright.request.newContext({ baseURL: baseURL! });
  try {
    const registered = await learner.post('/_actions/auth.register', { form: { ...registrationForm(`panel.${Date.now()}@example.com`), lang: 'en' }, headers: { Origin: baseURL! } });
    expect(registered.status()).toBe(200);
  } finally {
    await learner.dispose();
  }
  await page.goto(`${baseURL}/admin`);
  await expect(page.getByRole('region', { name: es.today }).locator('[data-figure="newLearners"] .figure-value')).toHaveText(new Intl.NumberFormat('es-US').format(before + 1));
  await expect(page.getByRole('heading', { level: 4, name: es.figures.revenue }).first()).toBeVisible();

  // At 360 px the cards stack and nothing scrolls sideways.
  await page.setViewportSize({ width: 360, height: 800 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
});
