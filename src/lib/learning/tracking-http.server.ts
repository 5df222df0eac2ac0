/**
 * The HTTP fallback of progress tracking (`navigator.sendBeacon` or `fetch` when the socket is not
 * there): the same rules as the socket, answered as a status and a JSON acknowledgement.
 */
import type { Store } from '../access/store.server';
import type { SessionInfo } from '../identity/session.server';
import type { TrackingAck, TrackingError } from './learning';
import { MAX_TRACKING_BODY_BYTES, TRACKING_HTTP_STATUS, trackingRequestSchema } from './tracking';
import { authorizeTracking } from './tracking-access.server';
import type { Tracker } from './tracking.server';

/** The answer of the HTTP fallback: a status and the acknowledgement (or refusal) to send as JSON. */
export interface HttpTrackingResult {
  status: number;
  ack: TrackingAck;
  /** The language asked for in the body, if any (for the error message). */
  lang: string | undefined;
}

/**
 * One HTTP fallback request (`navigator.sendBeacon` or `fetch`): the body is the JSON text
 * `{ event, courseId, payload }`, whatever its content type. Same rules as the socket, plus a
 * per-person flood limit; refusals are 4xx, a storage failure 503, never a 500.
 */
export async function trackOverHttp(deps: { store: Store; tracker: Tracker }, session: SessionInfo | null, body: string, now = Date.now()): Promise<HttpTrackingResult> {
  const fail = (error: TrackingError, lang?: string): HttpTrackingResult => ({ status: TRACKING_HTTP_STATUS[error], ack: { ok: false, error }, lang });
  const contactId = session?.identity.contactId ?? null;
  if (!session || contactId === null) return fail('unauthorized');
  if (!deps.tracker.allowHttp(contactId, now)) return fail('rate-limited');
  if (Buffer.byteLength(body) > MAX_TRACKING_BODY_BYTES) return fail('invalid');
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return fail('invalid');
  }
  const req = trackingRequestSchema.safeParse(json);
  if (!req.success) return fail('invalid');
  const { event, courseId, payload, lang } = req.data;
  const auth = await authorizeTracking(deps.store, session, courseId);
  if (!auth.ok) return fail(auth.error, lang);
  const ack = await deps.tracker.track(auth.who, auth.course, event, payload, now);
  if (!ack.ok) return fail(ack.error, lang);
  deps.tracker.announce(auth.who.contactId, auth.course.id, { Identificador: ack.Identificador, Avance: ack.Avance, completed: ack.completed });
  return { status: 200, ack, lang };
}
