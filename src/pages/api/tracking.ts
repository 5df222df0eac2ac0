/**
 * HTTP fallback of the progress socket: POST /api/tracking with the JSON text
 * `{ event: 'tracking play' | 'tracking' | 'tracking end', courseId, payload }` (any content type, so
 * `navigator.sendBeacon` works). Answers the socket's acknowledgement with 200, or a refusal with
 * 400/401/403/429/503 and a localized `message` (`?lang=en`, `"lang": "en"` or the browser's
 * Accept-Language for English).
 */
import type { APIRoute } from 'astro';
import { messages } from '~/i18n';
import { answerLocale } from '~/lib/http/locale';
import { readBodyAtMost } from '~/lib/http/body.server';
import { MAX_TRACKING_BODY_BYTES, trackOverHttp, TRACKING_ERROR_KEY, type TrackingAck } from '~/lib/learning';

export const prerender = false;

export const POST: APIRoute = async ({ request, locals, url }) => {
  // An unreadable body (the client went away) is treated like an empty one: invalid.
  // A longer body is cut one byte past the limit, and so refused as invalid.
  const body = await readBodyAtMost(request, MAX_TRACKING_BODY_BYTES + 1).then(
    (r) => Buffer.from(r.bytes).toString('utf8'),
    () => '',
  );
  let result;
  try {
    result = await trackOverHttp({ store: locals.runtime.store, tracker: locals.runtime.tracker }, locals.session, body);
  } catch {
    result = { status: 503, ack: { ok: false, error: 'unavailable' } as TrackingAck, lang: undefined };
  }
  const { status, ack, lang } = result;
  const payload = ack.ok ? ack : { ...ack, message: messages(answerLocale(url.searchParams.get('lang') ?? lang, request.headers.get('accept-language'))).learning.trackingErrors[TRACKING_ERROR_KEY[ack.error]] };
  return new Response(JSON.stringify(payload), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' },
  });
};
