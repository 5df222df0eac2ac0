/**
 * The support inbox: a visitor sends a contact message holding `<script>` and a very long line; support
 * (the administrator, who holds every staff role) finds it among the new messages, sees its text as text,
 * assigns it, adds an internal note and replies by e-mail; the reply arrives in the sender's mailbox in
 * their language, is kept in the thread, and the message is answered. The pages pass the accessibility checks.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, expectNoSeriousViolations, outboxMail, test } from './fixtures';
import { browseAsAdministrator } from './support/staff';
import { messages } from '../../src/i18n';

const t = messages('en').support;

/** How many mails of the server's outbox contain `needle`. */
async function outboxCount(needle: string): Promise<number> {
  const dir = join(process.env.E2E_DATA_DIR!, 'outbox');
  const files = (await readdir(dir)).filter((f) => f.endsWith('.eml'));
  const texts = await Promise.all(files.map(async (f) => (await readFile(join(dir, f), 'utf8')).replace(/=\r?\n/g, '')));
  return texts.filter((text) => text.includes(needle)).length;
}

test('@staff a contact message with <script> is found, assigned, noted and answered by e-mail from the back office', async ({ page, browser, baseURL }) => {
  test.slow();
  const ref = `r${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const email = `ana.${ref}@example.com`;
  const hostile = `<script>window.__pwned = 1</script> <b>bold</b> ref ${ref}`;
  const longLine = 'x'.repeat(600);

  // A visitor writes in English.
  const visitor = await browser.newContext();
  const v = await visitor.newPage();
  await v.goto(`${baseURL}/en/contact-us`);
  await expect(v.locator('form.contact-form[data-enhanced="true"]')).toBeAttached();
  const form = v.locator('form.contact-form');
  await form.getByLabel('Name', { exact: true }).fill('Ana');
  await form.getByLabel('Last name', { exact: true }).fill('Pérez');
  await form.getByLabel('Email', { exact: true }).fill(email);
  await form.getByLabel('Phone', { exact: true }).fill('3001234567');
  await form.getByLabel('Message', { exact: true }).fill(`${hostile}\n${longLine}`);
  await form.getByLabel(/accept the privacy policy/).check();
  await form.getByRole('button', { name: 'Send message' }).click();
  await expect(v.locator('#contact-status')).toHaveText('Message sent');
  await visitor.close();

  // Support finds it among the new messages.
  await browseAsAdministrator(page.context(), baseURL!);
  await page.goto(`${baseURL}/en/admin/support?status=new`);
  await expect(page.getByRole('heading', { level: 1, name: t.title })).toBeVisible();
  const row = page.locator('tr', { hasText: ref });
  await expect(row).toHaveCount(1);
  await expect(row.getByText(t.statuses.new)).toBeVisible();
  await expectNoSeriousViolations(page);
  await row.getByRole('link').click();
  await expect(page.getByRole('heading', { level: 1, name: /^Message \d+$/ })).toBeVisible();

  // The text is shown as text: the tags are read, never run; the long line wraps inside the page.
  const original = page.locator('[data-entry="original"] .message-text');
  await expect(original).toContainText(hostile);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  await expect(page.locator('.message-text b')).toHaveCount(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await expectNoSeriousViolations(page);

  // Assigned to a person holding the support or administrator role.
  await page.getByLabel(t.fields.assignee, { exact: true }).selectOption({ label: 'Andrés Salazar' });
  await page.getByRole('button', { name: t.forms.assignSave }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Message assigned to Andrés Salazar.' })).toBeVisible();

  // An internal note, kept in the thread with who wrote it.
  await page.getByLabel(t.forms.noteLabel).fill(`Call her on Monday (${ref})`);
  await page.getByRole('button', { name: t.forms.noteSave }).click();
  await expect(page.getByRole('status').filter({ hasText: t.done.note })).toBeVisible();
  const note = page.locator('[data-entry="note"]', { hasText: `Call her on Monday (${ref})` });
  await expect(note).toContainText(t.message.note);
  await expect(note).toContainText('by Andrés Salazar');

  // The reply: mailed to the sender, in English (the language she wrote in), kept in the thread.
  await expect(page.getByText(`Sent to ${email}, in English.`, { exact: false })).toBeVisible();
  await page.getByLabel(t.forms.replyLabel).fill(`Thanks for writing. Your answer ${ref}.`);
  const key = await page.locator('input[name="key"]').inputValue();
  const messageId = /\/admin\/support\/(\d+)/.exec(page.url())![1]!;
  await page.getByRole('button', { name: t.forms.replySave }).click();
  await expect(page.getByRole('status').filter({ hasText: t.done.reply })).toBeVisible();
  // The same form posted again (a double submit) is the same reply: answered, nothing more written or sent.
  const again = await page.request.post(`${baseURL}/_actions/support.reply`, { headers: { origin: baseURL! }, form: { id: messageId, body: `Thanks for writing. Your answer ${ref}.`, key, lang: 'en' } });
  expect(again.status()).toBe(200);
  await expect.poll(() => outboxMail(`Your answer ${ref}.`), { timeout: 15_000 }).toBeTruthy();
  const mail = (await outboxMail(`Your answer ${ref}.`))!;
  expect(mail).toContain(`To: ${email}`);
  expect(mail).toContain(`Subject: ${t.mail.subject}`);
  expect(mail).toContain('Hello Ana,');

  // The thread records it as sent, and the message is answered.
  await expect(async () => {
    await page.reload();
    await expect(page.locator('[data-entry="reply"]', { hasText: `Your answer ${ref}.` })).toContainText(t.message.reply, { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  await expect(page.locator('[data-entry="reply"]')).toHaveCount(1);
  expect(await outboxCount(`Your answer ${ref}.`)).toBe(1);
  await expect(page.locator('.facts [data-status]')).toHaveText(t.statuses.answered);
  await page.goto(`${baseURL}/en/admin/support?status=answered`);
  await expect(page.locator('tr', { hasText: ref }).getByText(t.statuses.answered)).toBeVisible();
});
