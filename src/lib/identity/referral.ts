/** The `ref` cookie: a random id of this browser, so affiliate visits can be attributed later. */
export const REFERRAL_COOKIE = 'ref';

/** A year, HttpOnly (no script needs it), SameSite=Lax. */
export function referralCookieOptions(secure: boolean) {
  return { path: '/', httpOnly: true, sameSite: 'lax' as const, secure, maxAge: 60 * 60 * 24 * 365 };
}
