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
import { MAX_TRACKING_BODY_BYTES, trackOverHttp, TRACKING_ERROR_KEY, type TrackingAck } from '~/lib/learning';

export const prerender = false;

export const POST: APIRoute = async ({ request, locals, url }) => {
  // An unreadable body (the client went away) is treated like an empty one: invalid.
  const body = await readLimited(request, MAX_TRACKING_BODY_BYTES + 1).catch(() => '');
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

/** The body as text, reading no more than `max` bytes (a longer body is cut, and so refused as invalid). */
async function readLimited(request: Request, max: number): Promise<string> {
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
    if (size >= max) {
      await reader.cancel().catch(() => undefined);
      break;
    }
  }
  return Buffer.concat(chunks).toString('utf8');
}
