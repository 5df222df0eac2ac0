/**
 * The demo staff for tests: the administrator's second factor (its TOTP secret and recovery codes, as
 * seeded) and a way to prove it that survives a code already taken in the same 30 seconds by another
 * test (a code works once): it waits for the next code and tries again.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import * as people from '../../../src/lib/db/seed/people';
import { TOTP_PERIOD, totpCode } from '../../../src/lib/staff/staff';

const admin = people.staff.find((m) => m.email === 'admin@academia.example')!;
/** The demo administrator's TOTP secret and recovery codes (printed in the README). */
export const ADMIN_FACTOR = admin.factor!;
export const EDITOR = { email: 'editor@academia.example', password: 'Edita2026' };

/** The current code of `secret`. */
export const codeNow = (secret: string = ADMIN_FACTOR.secret) => totpCode(secret, new Date());

/** Milliseconds until the next 30-second step begins (a new code). */
export const untilNextCode = () => TOTP_PERIOD * 1000 - (Date.now() % (TOTP_PERIOD * 1000)) + 50;

/**
 * Sends the current code with `send`; when the answer is a 400 (the code was taken by someone else in
 * this step), waits for the next code and sends that, up to three times. Returns the last answer.
 */
export async function proveWithFreshCode<A extends { status: number }>(send: (code: string) => Promise<A>, secret: string = ADMIN_FACTOR.secret): Promise<A> {
  let answer = await send(codeNow(secret));
  for (let i = 0; i < 2 && answer.status === 400; i++) {
    await sleep(untilNextCode());
    answer = await send(codeNow(secret));
  }
  return answer;
}
