/**
 * Course authoring as an editor goes through it (the administrator holds the editor's grants): create a
 * course, add a module and two lessons, see a missing English name flagged and blocking publication,
 * complete it, give each lesson a video from the media library, reorder the lessons with the keyboard (drag and drop's keyboard sensor)
 * and carry one into a second module the same way, and back by pointer, set a price and
 * show the course, preview the draft in English, publish, and find it live on the learner's course page
 * at once. The editor passes the accessibility checks.
 */
import { expect, expectNoSeriousViolations, test } from './fixtures';
import { browseAsAdministrator } from './support/staff';
import { format, messages, plural } from '../../src/i18n';

const t = messages('en');

const e = t.authoring.editor;

test('an editor creates a bilingual course, orders its lessons by keyboard, previews and publishes it, and learners see it at once', async ({ page, baseURL }) => {
  test.slow();
  // The administrator holds the editor's grants; the run's one proved session (logging in is proved elsewhere).
  await browseAsAdministrator(page.context(), baseURL!);
  await page.goto('/en/admin/courses');
  await expect(page.getByRole('heading', { level: 1, name: t.authoring.list.title })).toBeVisible();

  const code = `E2E-${Date.now().toString(36)}`.toUpperCase();
  const create = page.getByRole('region', { name: t.authoring.list.createTitle });
  await create.getByLabel(t.authoring.list.code).fill(code);
  await create.getByLabel(e.nameEs).fill('Ventas en línea');
  await create.getByLabel(e.nameEn).fill('Online sales');
  await create.getByRole('button', { name: t.authoring.list.create }).click();
  await page.waitForURL(/\/en\/admin\/courses\/\d+$/);
  const courseId = Number(new URL(page.url()).pathname.split('/').pop());
  await expect(page.getByRole('heading', { level: 1, name: format(e.title, { name: 'Online sales' }) })).toBeVisible();

  const addModule = page.getByRole('group', { name: e.addModule });
  await addModule.getByLabel(e.nameEs).fill('Primeros pasos');
  await addModule.getByLabel(e.nameEn).fill('First steps');
  await page.getByRole('button', { name: e.addModule }).click();
  await expect(page.getByRole('status').filter({ hasText: t.authoring.done.saved })).toBeVisible();
  for (const [es, en] of [
    ['Prospectar', 'Prospecting'],
    ['Cerrar la venta', ''],
  ]) {
    const addLesson = page.getByRole('group', { name: e.addLesson });
    await addLesson.getByLabel(e.nameEs).fill(es!);
    await addLesson.getByLabel(e.nameEn).fill(en!);
    await page.getByRole('button', { name: e.addLesson }).click();
    await expect(page.getByRole('status').filter({ hasText: t.authoring.done.saved })).toBeVisible();
  }

  // The lesson without its English name is flagged, and publishing is refused in words.
  const missing = page.getByRole('region', { name: e.missingTitle });
  await expect(missing).toContainText('Cerrar la venta');
  await page.getByRole('button', { name: e.publish, exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText(plural('en', t.authoring.refusals.missingTranslations, 1));
  await page.locator('summary', { hasText: 'Cerrar la venta' }).click();
  const lesson = page.locator('li.lesson', { hasText: 'Cerrar la venta' });
  await lesson.getByLabel(e.nameEn).fill('Closing the sale');
  await lesson.getByRole('button', { name: e.saveLesson }).click();
  await expect(page.getByRole('region', { name: e.missingTitle })).toHaveCount(0);

  // Each lesson takes a video from the media library (a lesson without one is not shown to learners).
  for (const name of ['Prospecting', 'Closing the sale']) {
    const row = page.locator('li.lesson', { hasText: name });
    if (!(await row.locator('details').evaluate((d) => (d as HTMLDetailsElement).open))) await row.locator('summary').click();
    await row.getByLabel(e.chooseVideo).selectOption({ index: 1 });
    await row.getByRole('button', { name: e.setVideo }).click();
    await expect(page.getByRole('status').filter({ hasText: t.authoring.done.saved })).toBeVisible();
  }
  await expectNoSeriousViolations(page);

  // The keyboard moves "Closing the sale" above "Prospecting"; the order is saved to the draft.
  // Each step waits for what screen readers hear (the sensor listens for arrows once the item is picked up).
  const heard = (text: string, timeout?: number) => expect(page.getByText(text, { exact: true })).toBeAttached(timeout ? { timeout } : {});
  // The keyboard sensor starts listening for arrows in a timer it sets at the pick-up: the page's timers
  // already set have run once a timer set now has.
  const listening = () => page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
  /**
   * Picks `name` up with Space, presses `key`, hears `over`, drops with Space and sees the order saved. A
   * drop the page took back to the item's own place (its layout settling under the dragged item) saves
   * nothing and is done again.
   */
  const carry = (name: string, key: string, over: string) =>
    expect(async () => {
      await page.getByRole('button', { name: format(e.dragHandle, { name }), exact: true }).focus();
      await page.keyboard.press('Space');
      await listening();
      await page.keyboard.press(key);
      await heard(over, 2000);
      await page.keyboard.press('Space');
      await expect(page.getByRole('status').filter({ hasText: e.orderSaved })).toBeVisible({ timeout: 2000 });
    }).toPass({ timeout: 20_000 });
  await carry('Closing the sale', 'ArrowUp', format(e.announce.over, { name: 'Closing the sale', n: 1, total: 2 }));
  await page.reload();
  await expect(page.locator('li.lesson summary')).toHaveText([/Closing the sale/, /Prospecting/]);

  // A second, empty module; the keyboard carries "Prospecting" into it, and the draft keeps it there.
  const addSecond = page.getByRole('group', { name: e.addModule });
  await addSecond.getByLabel(e.nameEs).fill('Seguimiento');
  await addSecond.getByLabel(e.nameEn).fill('Follow-up');
  await page.getByRole('button', { name: e.addModule }).click();
  await expect(page.getByRole('status').filter({ hasText: t.authoring.done.saved })).toBeVisible();
  const second = `${format(e.module, { n: 2 })}: Follow-up`;
  await carry('Prospecting', 'ArrowDown', format(e.announce.overModule, { name: 'Prospecting', module: second, n: 1, total: 1 }));
  // The page's own forms follow at once, and the saved draft agrees after a reload.
  const lessonsOf = (module: string) => page.locator('li.module').filter({ has: page.getByRole('heading', { level: 3, name: module }) }).locator('li.lesson summary');
  await expect(lessonsOf(second)).toHaveText([/Prospecting/]);
  await page.reload();
  await expect(lessonsOf(second)).toHaveText([/Prospecting/]);
  const first = `${format(e.module, { n: 1 })}: First steps`;
  await expect(lessonsOf(first)).toHaveText([/Closing the sale/]);

  // The pointer carries it back: dropped on "Closing the sale", it takes that place in the first module.
  // (Measured at the moment of each move: pictures above the outline may still be loading and moving it.)
  const handleOf = (name: string) => page.getByRole('button', { name: format(e.dragHandle, { name }), exact: true });
  await handleOf('Prospecting').hover();
  await page.mouse.down();
  await expect(handleOf('Prospecting')).toHaveAttribute('aria-pressed', 'true');
  let wiggle = 0;
  await expect(async () => {
    const to = (await handleOf('Closing the sale').boundingBox())!;
    await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2 + (wiggle++ % 2 ? 2 : -2), { steps: 5 });
    await expect(page.getByText(format(e.announce.overModule, { name: 'Prospecting', module: first, n: 1, total: 2 }), { exact: true })).toBeAttached({ timeout: 500 });
  }).toPass({ timeout: 10_000 });
  await page.mouse.up();
  await expect(lessonsOf(first)).toHaveText([/Prospecting/, /Closing the sale/]);
  await page.reload();
  await expect(lessonsOf(first)).toHaveText([/Prospecting/, /Closing the sale/]);
  await expect(lessonsOf(second)).toHaveCount(0);

  // A price as money, shown in the catalogue.
  const settings = page.getByRole('region', { name: e.settings });
  await settings.getByLabel(e.price).fill('12.50');
  await settings.getByLabel(e.hidden).uncheck();
  await settings.getByRole('button', { name: e.save }).click();
  await expect(page.getByRole('status').filter({ hasText: t.authoring.done.saved })).toBeVisible();

  // The preview in English is the learner's course page of the draft.
  await page.getByRole('link', { name: e.previewEn }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Online sales' })).toBeVisible();
  await expect(page.getByText(t.authoring.preview.banner).first()).toBeVisible();
  await expect(page.locator('.lessons .lesson-name')).toHaveText(['Prospecting', 'Closing the sale']);
  await page.getByRole('link', { name: t.authoring.preview.back }).click();

  // Not live before publishing; live at once after.
  expect((await page.request.get(`/en/courses-details/${courseId}`)).status()).toBe(404);
  await page.getByRole('button', { name: e.publish, exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: t.authoring.done.published })).toBeVisible();
  await page.goto(`/en/courses-details/${courseId}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Online sales' })).toBeVisible();
  await expect(page.getByText('$12.50')).toBeVisible();
  await expect(page.locator('.lessons .lesson-name')).toHaveText(['Prospecting', 'Closing the sale']);
});

test('every page of the back office fits a 360 px screen, the course editor with its outline too @mobile', async ({ page, baseURL, isMobile }) => {
  test.skip(!isMobile, 'runs in the mobile project');
  await browseAsAdministrator(page.context(), baseURL!);
  for (const path of ['/admin', '/en/admin/courses', '/en/admin/courses/1', '/admin/courses/2', '/admin/videos', '/en/admin/questions/2', '/admin/books', '/en/admin/plans', '/admin/staff', '/en/admin/audit', '/en/admin/coupons', '/admin/coupons?coupon=1']) {
    await page.goto(path);
    await expect(page.locator('h1')).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(360);
  }
});
