/**
 * Closing the cookie notice without JavaScript: sets `notice=seen` for a year and goes back to the page
 * the form was on (a path of this site only; anything else goes home). Cross-site posts are refused by
 * the middleware like every other post. Any other method: 405.
 */
import type { APIRoute } from 'astro';
import { NOTICE_COOKIE, NOTICE_SEEN, noticeCookieOptions } from '~/lib/http/site-cookies';
import { readBodyAtMost } from '~/lib/http/body.server';
import { safeNext } from '~/lib/paths';

export const prerender = false;

/** Enough for the form's one field (a path of at most 2 KB). */
const MAX_BODY = 4096;

export const POST: APIRoute = async ({ request, cookies, url }) => {
  const read = await readBodyAtMost(request, MAX_BODY).catch(() => null);
  let back: string | null = null;
  if (read?.complete) {
    const type = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
    if (type === 'application/x-www-form-urlencoded') back = safeNext(new URLSearchParams(Buffer.from(read.bytes).toString('utf8')).get('back'));
  }
  cookies.set(NOTICE_COOKIE, NOTICE_SEEN, noticeCookieOptions(url.protocol === 'https:'));
  return new Response(null, { status: 303, headers: { Location: back ?? '/', 'Cache-Control': 'no-store' } });
};

export const ALL: APIRoute = () => new Response(null, { status: 405, headers: { Allow: 'POST', 'Cache-Control': 'no-store' } });
