/**
 * Reading the mail a server wrote to its outbox (`<DATA_DIR>/outbox/*.eml`, without SMTP_URL), for
 * tests that run the server in their own process. Quoted-printable soft line breaks are undone, so a
 * link is never split.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** Every message in `dataDir`'s outbox containing all of `needles`, oldest first. */
export async function mailsIn(dataDir: string, ...needles: string[]): Promise<string[]> {
  const dir = join(dataDir, 'outbox');
  const found: string[] = [];
  for (const f of (await readdir(dir).catch(() => [] as string[])).sort()) {
    if (!f.endsWith('.eml')) continue;
    const text = (await readFile(join(dir, f), 'utf8')).replace(/=\r?\n/g, '');
    if (needles.every((n) => text.includes(n))) found.push(text);
  }
  return found;
}

/** Waits (up to `timeoutMs`) for `count` messages containing all of `needles`; the newest one. */
export async function waitForMail(dataDir: string, needles: string[], timeoutMs = 10_000, count = 1): Promise<string> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const found = await mailsIn(dataDir, ...needles);
    if (found.length >= count) return found.at(-1)!;
    if (Date.now() > until) throw new Error(`no mail with ${needles.join(', ')} in ${dataDir}/outbox`);
    await sleep(50);
  }
}

/** The token of the newest `confirm-email` link sent to `email` (sign-up or change of address). */
export async function linkToken(dataDir: string, email: string): Promise<string> {
  const mail = await waitForMail(dataDir, [email, 'confirm-email?token']);
  const token = /confirm-email\?token(?:=3D|=)([A-Za-z0-9_-]+)/.exec(mail)?.[1];
  if (!token) throw new Error(`no link in the mail to ${email}`);
  return token;
}
