/**
 * The browser side of real-time progress tracking: the lesson player reports `tracking play`,
 * `tracking` and `tracking end` over the socket (the progress-event fields), falls back to
 * `POST /api/tracking` when the socket is not connected or does not answer in time, and sends a last
 * position with `navigator.sendBeacon` when the page goes away. Every answer is the server's
 * `TrackingAck`, checked with zod before the player believes it. The socket comes back by itself
 * after any disconnection but a refusal (`keepConnected`); an event whose answer was lost with the
 * connection goes over HTTP. Browser-only module.
 */
import { io, type Socket } from 'socket.io-client';
import { z } from '../zod';
import { paths } from '../paths';
import { LESSON_ENTITY_ID, type ProgressEvent, type TrackingAck, type TrackingBroadcast, type TrackingEventName } from '../learning/learning';

/** How long the socket may take to acknowledge an event before the HTTP fallback is used. */
export const ACK_TIMEOUT_MS = 5000;

const ackSchema = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    Identificador: z.number(),
    Avance: z.number().min(0),
    furthest: z.number(),
    played: z.number(),
    completed: z.boolean(),
  }),
  z.object({ ok: z.literal(false), error: z.enum(['invalid', 'unauthorized', 'forbidden', 'rate-limited', 'unavailable']) }),
]);

const broadcastSchema = z.object({ Identificador: z.number().int().positive(), Avance: z.number().min(0), completed: z.boolean() });

/** An answer that is not a valid acknowledgement counts as the service being unavailable. */
export function parseAck(raw: unknown): TrackingAck {
  const r = ackSchema.safeParse(raw);
  return r.success ? r.data : { ok: false, error: 'unavailable' };
}

/** The acknowledgement an HTTP fallback answer stands for (by status when its body says nothing usable). */
export function ackFromHttp(status: number, body: unknown): TrackingAck {
  const parsed = ackSchema.safeParse(body);
  if (parsed.success) return parsed.data;
  if (status === 401) return { ok: false, error: 'unauthorized' };
  if (status === 403) return { ok: false, error: 'forbidden' };
  if (status === 429) return { ok: false, error: 'rate-limited' };
  if (status === 400) return { ok: false, error: 'invalid' };
  return { ok: false, error: 'unavailable' };
}

/** A broadcast from the person's other tabs, or `null` when it is not one. */
export function parseBroadcast(raw: unknown): TrackingBroadcast | null {
  const r = broadcastSchema.safeParse(raw);
  return r.success ? r.data : null;
}

/** Who is watching which course (from the page; the server checks it against the session anyway). */
export interface TrackingIdentity {
  courseId: number;
  contactId: number;
  userId: number | null;
}

/** A progress event for a lesson at a position. */
export function progressEvent(who: TrackingIdentity, lessonId: number, position: number, playing: boolean): ProgressEvent {
  const avance = Number.isFinite(position) && position > 0 ? Math.round(position * 100) / 100 : 0;
  return { Identificador: lessonId, IdEntidad: LESSON_ENTITY_ID, IdContacto: who.contactId, Avance: avance, Activo: playing, CreadoPor: who.userId };
}

/** The body of `POST /api/tracking` (and of the beacon). */
export function fallbackBody(who: TrackingIdentity, event: TrackingEventName, payload: ProgressEvent): string {
  return JSON.stringify({ event, courseId: who.courseId, payload });
}

export interface TrackingClientOptions extends TrackingIdentity {
  /** Another tab or device of the same person stored progress. */
  onBroadcast(b: TrackingBroadcast): void;
  /** The socket refused the connection: the session is gone, or the course may not be watched. */
  onRefused(reason: 'unauthorized' | 'forbidden'): void;
  /** The socket connected or lost its connection (events go over HTTP meanwhile). */
  onConnectionChange?(connected: boolean): void;
}

/** Reports a lesson's progress to the server. */
export interface TrackingClient {
  /** Sends one event and resolves with the server's acknowledgement (never rejects). */
  send(event: TrackingEventName, lessonId: number, position: number, playing: boolean): Promise<TrackingAck>;
  /** Sends a last position while the page is going away (no answer). */
  beacon(lessonId: number, position: number, playing: boolean): void;
  /** Closes the socket. */
  close(): void;
}

/** The wait before the n-th attempt to come back (from 1): 0.5 s, 1 s, 2 s… up to 10 s, give or take a fifth, so a restarted server is not met by every browser at once. */
export function comeBackDelayMs(attempt: number, random = Math.random): number {
  const base = Math.min(10_000, 500 * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (0.8 + 0.4 * random()));
}

/**
 * Keeps a socket connected. socket.io comes back by itself after a lost connection (a server that
 * stops closes it so), but not after the server disconnected the socket (`io server disconnect`):
 * then this connects it again after `delayMs(attempt)`. The handshake carries the course again (its
 * `auth`), so the server puts the socket back in its rooms. A refusal (`unauthorized`, `forbidden`:
 * the session is gone) is final. Returns what stops it.
 */
export function keepConnected(socket: Socket, delayMs: (attempt: number) => number = comeBackDelayMs): () => void {
  let attempt = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const comeBack = () => {
    if (stopped || socket.active) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (!stopped && !socket.active) socket.connect();
    }, delayMs(++attempt));
  };
  socket.on('connect', () => (attempt = 0));
  socket.on('disconnect', (reason: string) => {
    if (reason === 'io server disconnect') comeBack();
  });
  socket.on('connect_error', (err: Error) => {
    if (err.message === 'unauthorized' || err.message === 'forbidden') stopped = true;
    // socket.io retries a failed connection itself while the socket is active; one started here is not.
    else comeBack();
  });
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

/** Connects to the tracking socket for one course (same origin; the session cookie rides along). */
export function createTrackingClient(options: TrackingClientOptions): TrackingClient {
  const who: TrackingIdentity = { courseId: options.courseId, contactId: options.contactId, userId: options.userId };
  const socket: Socket = io({ auth: { courseId: who.courseId } });
  const stopComingBack = keepConnected(socket);
  socket.on('connect_error', (err: Error) => {
    // A refusal by the server's middleware is final (socket.io does not retry it); anything else retries.
    if (err.message === 'unauthorized' || err.message === 'forbidden') options.onRefused(err.message);
  });
  socket.on('connect', () => options.onConnectionChange?.(true));
  socket.on('disconnect', () => options.onConnectionChange?.(false));
  socket.on('tracking', (raw: unknown) => {
    const b = parseBroadcast(raw);
    if (b) options.onBroadcast(b);
  });

  async function overHttp(event: TrackingEventName, payload: ProgressEvent): Promise<TrackingAck> {
    try {
      const res = await fetch(paths.trackingApi, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: fallbackBody(who, event, payload),
        credentials: 'same-origin',
      });
      const body: unknown = await res.json().catch(() => null);
      return ackFromHttp(res.status, body);
    } catch {
      return { ok: false, error: 'unavailable' };
    }
  }

  return {
    send(event, lessonId, position, playing) {
      const payload = progressEvent(who, lessonId, position, playing);
      if (!socket.connected) return overHttp(event, payload);
      return new Promise<TrackingAck>((resolve) => {
        socket.timeout(ACK_TIMEOUT_MS).emit(event, payload, (err: Error | null, ack: unknown) => {
          if (err) resolve(overHttp(event, payload));
          else resolve(parseAck(ack));
        });
      });
    },
    beacon(lessonId, position, playing) {
      const body = fallbackBody(who, 'tracking', progressEvent(who, lessonId, position, playing));
      try {
        if (navigator.sendBeacon?.(paths.trackingApi, new Blob([body], { type: 'application/json' }))) return;
      } catch {
        /* fall through to a keepalive request */
      }
      void fetch(paths.trackingApi, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body, keepalive: true, credentials: 'same-origin' }).catch(() => undefined);
    },
    close() {
      stopComingBack();
      socket.close();
    },
  };
}
