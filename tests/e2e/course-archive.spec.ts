/**
 * Moving a course as an editor does it (the administrator holds the editor's grants): download the
 * archive of a published course from its editor, upload it on the courses list, find the new hidden
 * course with unpublished changes under a code of its own; a cut-short download is refused in words
 * and adds nothing. The import form passes the accessibility checks.
 */
import { readFile } from 'node:fs/promises';
import { expect, expectNoSeriousViolations, test } from './fixtures';
import { browseAsAdministrator } from './support/staff';
import { messages } from '../../src/i18n';

const t = messages('en');
const a = t.courseArchive;


test('an editor exports a published course and imports it as a new hidden course; a cut-short archive is refused in words', async ({ page, baseURL }) => {
  // The administrator holds the editor's grants; the run's one proved session (logging in is proved elsewhere).
  await browseAsAdministrator(page.context(), baseURL!);
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
