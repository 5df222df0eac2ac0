/**
 * Every cookie the site sets, in one list: the privacy policy names each of them (a test compares the
 * policy's list, this one and the cookies a journey through the site receives). All are essential:
 * without any of them a feature the person asked for stops working, so the site asks no choice and only
 * tells, once (the cookie notice, remembered by `notice`).
 */

/** The cookie that remembers the cookie notice was read and closed (its value is `seen`). */
export const NOTICE_COOKIE = 'notice';
export const NOTICE_SEEN = 'seen';

/** The names of the cookies the site sets (`session`: the login; `cart`: a visitor's cart; `ref`: the IBO link a visitor came through; `notice`). */
export const SITE_COOKIES = ['session', 'cart', 'ref', NOTICE_COOKIE] as const;
export type SiteCookie = (typeof SITE_COOKIES)[number];

/** One year: the notice is told once. Readable by the page's script, which hides the notice before it paints. */
export function noticeCookieOptions(secure: boolean) {
  return { path: '/', httpOnly: false, sameSite: 'lax' as const, secure, maxAge: 60 * 60 * 24 * 365 };
}

/** True when a `Cookie` header (or `document.cookie`) says the notice was closed. */
export function noticeSeen(cookieHeader: string | null | undefined): boolean {
  return (cookieHeader ?? '').split(';').some((part) => part.trim() === `${NOTICE_COOKIE}=${NOTICE_SEEN}`);
}

/** The stylesheet that hides the notice for a browser without JavaScript that closed it (linked inside `<noscript>`). */
export const NOTICE_HIDDEN_CSS = '.cookie-notice{display:none}\n';
