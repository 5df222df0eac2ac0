/**
 * Moving a course as an editor does it (the administrator holds the editor's grants): download the
 * archive of a published course from its editor, upload it on the courses list, find the new hidden
 * course with unpublished changes under a code of its own; a cut-short download is refused in words
 * and adds nothing. The import form passes the accessibility checks.
 */
import { readFile } from 'node:fs/promises';
import { expect, expectNoSeriousViolations, test, type Page } from './fixtures';
import { claimedCode } from './support/staff';
import { messages } from '../../src/i18n';

const t = messages('en');
const a = t.courseArchive;

async function logInAsAdministrator(page: Page) {
  await page.goto('/en/login?next=%2Fen%2Fadmin%2Fcourses');
  const form = page.locator('form.account-form').first();
  await expect(form).toHaveAttribute('data-enhanced', 'true');
  await form.getByLabel('Email', { exact: true }).fill('admin@academia.example');
  await form.getByLabel('Password', { exact: true }).fill('Admin2026');
  await form.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL('**/en/second-factor**');
  for (let attempt = 0; attempt < 3; attempt++) {
    await page.getByLabel(t.staff.code.label, { exact: true }).fill(await claimedCode());
    await page.getByRole('button', { name: t.staff.code.submit }).click();
    const landed = await Promise.race([
      page.waitForURL('**/en/admin/courses', { timeout: 15_000 }).then(() => true),
      page.getByRole('alert').waitFor({ timeout: 15_000 }).then(() => false),
    ]);
    if (landed) return;
  }
  throw new Error('no code was accepted');
}

test('an editor exports a published course and imports it as a new hidden course; a cut-short archive is refused in words', async ({ page }) => {
  await logInAsAdministrator(page);
  await page.goto('/en/admin/courses/1');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: a.exportLink }).click()]);
  expect(download.suggestedFilename()).toBe('INTRO-ACADEMY.zip');
  const archive = await readFile((await download.path())!);
  expect(archive.subarray(0, 2).toString()).toBe('PK');

  await page.goto('/en/admin/courses');
  const rows = page.locator('table.courses tbody tr');
  const before = await rows.count();
  const upload = page.getByRole('region', { name: a.importTitle });
  await expectNoSeriousViolations(page, 'section.import');

  // Cut short: refused in words, nothing added.
  await upload.getByLabel(a.file).setInputFiles({ name: 'INTRO-ACADEMY.zip', mimeType: 'application/zip', buffer: archive.subarray(0, archive.length - 40) });
  await upload.getByRole('button', { name: a.importButton }).click();
  await expect(page.getByRole('alert').filter({ hasText: a.refusals.truncated })).toBeVisible();
  await expect(rows).toHaveCount(before);

  await page.getByRole('region', { name: a.importTitle }).getByLabel(a.file).setInputFiles({ name: 'INTRO-ACADEMY.zip', mimeType: 'application/zip', buffer: archive });
  await page.getByRole('region', { name: a.importTitle }).getByRole('button', { name: a.importButton }).click();
  const done = page.getByRole('status').filter({ hasText: /Course imported as INTRO-ACADEMY-\d+/ });
  await expect(done).toBeVisible();
  const code = /INTRO-ACADEMY-\d+/.exec((await done.textContent()) ?? '')![0];
  await expect(rows).toHaveCount(before + 1);
  const created = rows.filter({ hasText: `${code} ·` });
  await expect(created.getByText(t.authoring.list.states.hidden, { exact: true })).toBeVisible();
  await expect(created.getByText(t.authoring.list.states.draft, { exact: true })).toBeVisible();
});
