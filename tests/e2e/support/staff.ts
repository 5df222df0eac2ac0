/**
 * The demo staff for tests: the administrator's second factor (its TOTP secret and recovery codes, as
 * seeded) and a way to prove it while other tests of the run prove it too. A code works once (the server
 * refuses a 30-second step not newer than the last one it accepted), so each proof first claims a step
 * no other test of this run has claimed: a folder made atomically in the run's data folder. A proof that
 * still loses the race (another step accepted first) claims a later step and tries again.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import * as people from '../../../src/lib/db/seed/people';
import type { BrowserContext } from '@playwright/test';
import { Client, loopback } from './http';
import { TOTP_PERIOD, totpCode } from '../../../src/lib/staff/staff';

const admin = people.staff.find((m) => m.email === 'admin@academia.example')!;
/** The demo administrator's TOTP secret and recovery codes (printed in the README). */
export const ADMIN_FACTOR = admin.factor!;
export const EDITOR = { email: 'editor@academia.example', password: 'Edita2026' };

/** The current code of `secret`. */
export const codeNow = (secret: string = ADMIN_FACTOR.secret) => totpCode(secret, new Date());

/** Milliseconds until the next 30-second step begins (a new code). */
export const untilNextCode = () => TOTP_PERIOD * 1000 - (Date.now() % (TOTP_PERIOD * 1000)) + 50;

/** Milliseconds a claimed step must still have: a code sent at the very end of its step may arrive after a later one. */
const CLAIM_MARGIN_MS = 5_000;

/**
 * The code of a 30-second step that no other test of this run has claimed for `secret`, waiting for the
 * next step while the current one is taken (or about to end). The claims are kept in the data folder of
 * the server the code is for (`serverDataDir`, else the journeys' server's).
 */
export async function claimedCode(secret: string = ADMIN_FACTOR.secret, serverDataDir?: string): Promise<string> {
  const folder = join(serverDataDir ?? process.env.E2E_DATA_DIR ?? tmpdir(), 'totp-steps');
  mkdirSync(folder, { recursive: true });
  for (;;) {
    const now = Date.now();
    const step = Math.floor(now / 1000 / TOTP_PERIOD);
    if (TOTP_PERIOD * 1000 - (now % (TOTP_PERIOD * 1000)) > CLAIM_MARGIN_MS) {
      try {
        mkdirSync(join(folder, `${secret.slice(0, 8)}-${step}`));
        return totpCode(secret, new Date(now));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
    }
    await sleep(untilNextCode());
  }
}

/**
 * Sends a claimed code with `send`; when the answer is a 400 (a later step was accepted first), sends the
 * code of a newly claimed step, up to four times in all. Returns the last answer.
 */
export async function proveWithFreshCode<A extends { status: number }>(send: (code: string) => Promise<A>, secret: string = ADMIN_FACTOR.secret, serverDataDir?: string): Promise<A> {
  let answer = await send(await claimedCode(secret, serverDataDir));
  for (let i = 0; i < 3 && answer.status === 400; i++) answer = await send(await claimedCode(secret, serverDataDir));
  return answer;
}

/**
 * Makes `c` the administrator with a proved second factor: the session of one login and one proof made
 * for the whole run (the first caller makes it, under a lock folder; the others wait and take its
 * cookie). The journeys that are about logging in and proving a code do both themselves.
 */
export async function asAdministrator(c: Client): Promise<void> {
  c.cookies.set('session', await administratorSession(c.origin));
}

/**
 * A browser context as the administrator with a proved second factor (the run's one session, as
 * `asAdministrator`). A journey on a server of its own passes that server's data folder: the session is
 * then made once for that server and kept there.
 */
export async function browseAsAdministrator(context: BrowserContext, baseURL: string, serverDataDir?: string): Promise<void> {
  await context.addCookies([{ name: 'session', value: await administratorSession(baseURL, serverDataDir), url: baseURL, httpOnly: true, sameSite: 'Lax' }]);
}

/** The session token of the proved administrator of the run's server (or of the server whose data folder is `serverDataDir`), made by the first caller. */
async function administratorSession(origin: string, serverDataDir?: string): Promise<string> {
  const folder = serverDataDir ?? process.env.E2E_DATA_DIR ?? tmpdir();
  const file = join(folder, 'administrator-session');
  for (;;) {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      // Not made yet.
    }
    try {
      mkdirSync(`${file}.lock`, { recursive: false });
    } catch {
      await sleep(200);
      continue;
    }
    try {
      const admin = new Client(origin, loopback(249));
      const login = await admin.post('/_actions/auth.login', { form: { email: 'admin@academia.example', password: 'Admin2026', lang: 'en' } });
      if (login.status !== 200) throw new Error(`the administrator's login answered ${login.status}`);
      const proved = await proveWithFreshCode((code) => admin.post('/_actions/staff.proveCode', { form: { code, lang: 'en' } }));
      if (proved.status !== 200) throw new Error(`the administrator's code answered ${proved.status}`);
      writeFileSync(file, admin.cookies.get('session')!);
    } finally {
      rmSync(`${file}.lock`, { recursive: true, force: true });
    }
  }
}
