/**
 * Progress tracking over socket.io. A socket connects for one course (`io({ auth: { courseId } })`)
 * with the session cookie; the connection is refused with `unauthorized`, `invalid` or `forbidden`
 * (the error's message) before any event is heard. Events `tracking play`, `tracking` and
 * `tracking end` carry a progress event and are answered through the acknowledgement callback only
 * after the write is committed; the sender and the person's other open tabs of the same course hear
 * `tracking` with the position to resume from (one room per person and course).
 */
import type { Server, Socket } from 'socket.io';
import { SESSION_COOKIE } from '../http/page-cache';
import { cookieValue } from '../http/cookies';
import { hashToken, readSession, type SessionInfo } from '../identity/session.server';
import type { SessionRef } from '../identity/session-cache.server';
import type { Store } from '../access/store.server';
import {
  authorizeTracking,
  newBucket,
  progressRoom,
  takeToken,
  TRACKING_EVENTS,
  TRACKING_FLOOD_LIMIT,
  type Bucket,
  type BucketSpec,
  type TrackedCourse,
  type Tracked,
  type Tracker,
  type TrackingAck,
  type TrackingBroadcast,
} from '../learning';

/** How often (ms of activity) a connected socket's session is read again; a revoked one is disconnected. */
export const SESSION_RECHECK_MS = 60_000;

export interface RealtimeTrackingOptions {
  /** The tracker events go to. */
  tracker: Tracker;
  /** Where access is read from. */
  store: Store;
  /** How a cookie token becomes a session (default: a database read each time; the runtime's session cache). */
  sessions?: { read(token: string | undefined): Promise<SessionInfo | null> };
  /** The clock (ms): tests move it instead of waiting. */
  now?: () => number;
  /** Flood limit of one socket. */
  flood?: BucketSpec;
  recheckMs?: number;
}

interface TrackingSocketData {
  token: string;
  tokenHash: string;
  session: SessionInfo;
  who: Tracked;
  course: TrackedCourse;
  bucket: Bucket;
  checkedAt: number;
  checking: Promise<boolean> | null;
  revoked: boolean;
}

/** Registers the connection check and the tracking events on a socket.io server. */
export function registerTracking(io: Server, opts: RealtimeTrackingOptions): { sessionEnded(ref: SessionRef): void; cookieOf(socket: Socket): string | undefined } {
  const tracker = () => opts.tracker;
  const sessions = opts.sessions ?? { read: (token: string | undefined) => readSession(opts.store.db, token) };
  const now = opts.now ?? Date.now;
  const flood = opts.flood ?? TRACKING_FLOOD_LIMIT;
  const recheckMs = opts.recheckMs ?? SESSION_RECHECK_MS;

  // Each connection's first HTTP request is kept by engine.io for its whole life; only its cookie is
  // needed here, so keep that and let the request go (socket.io's memory-usage advice).
  const cookies = new WeakMap<object, string | undefined>();
  io.engine.on('connection', (raw: { request: { headers: { cookie?: string } } | null }) => {
    cookies.set(raw, raw.request?.headers.cookie);
    raw.request = null;
  });

  // Progress stored through the HTTP fallback reaches the person's open tabs of that course too.
  tracker().onAnnounce((contactId, courseId, message) => io.to(progressRoom(contactId, courseId)).emit('tracking', message));

  io.use(async (socket, next) => {
    try {
      const token = cookieValue(cookies.get(socket.conn) ?? socket.request?.headers.cookie, SESSION_COOKIE);
      const session = token ? await sessions.read(token) : null;
      const auth = await authorizeTracking(opts.store, session, (socket.handshake.auth as { courseId?: unknown } | undefined)?.courseId);
      if (!auth.ok) return next(new Error(auth.error));
      const data: TrackingSocketData = { token: token!, tokenHash: hashToken(token!), session: session!, who: auth.who, course: auth.course, bucket: newBucket(flood, now()), checkedAt: now(), checking: null, revoked: false };
      socket.data.tracking = data;
      await socket.join(progressRoom(auth.who.contactId, auth.course.id));
      next();
    } catch {
      next(new Error('unavailable'));
    }
  });

  io.on('connection', (socket) => {
    for (const event of TRACKING_EVENTS) {
      socket.on(event, (payload: unknown, ack: unknown) => {
        const reply = typeof ack === 'function' ? (ack as (res: TrackingAck) => void) : () => undefined;
        void handle(socket, event, payload).then(reply, () => reply({ ok: false, error: 'unavailable' }));
      });
    }
  });

  async function handle(socket: Socket, event: string, payload: unknown): Promise<TrackingAck> {
    const data = socket.data.tracking as TrackingSocketData | undefined;
    if (!data || data.revoked) return { ok: false, error: 'unauthorized' };
    const at = now();
    if (!takeToken(data.bucket, flood, at)) return { ok: false, error: 'rate-limited' };
    if (!(await sessionStillValid(data, at))) {
      // Answer first, then hang up (engine.io sends what is buffered before closing).
      setImmediate(() => socket.disconnect(true));
      return { ok: false, error: 'unauthorized' };
    }
    const ack = await tracker().track(data.who, data.course, event, payload, at);
    if (ack.ok) {
      const message: TrackingBroadcast = { Identificador: ack.Identificador, Avance: ack.Avance, completed: ack.completed };
      // A client listens for `tracking` to learn where to resume: the sender hears it too
      // (besides its acknowledgement), and so do the person's other tabs and devices on this course.
      io.to(progressRoom(data.who.contactId, data.course.id)).emit('tracking', message);
    }
    return ack;
  }

  /** Reads the session again after a minute of activity: a logged-out, expired or changed one is refused. */
  async function sessionStillValid(data: TrackingSocketData, at: number): Promise<boolean> {
    if (!data.checking && at - data.checkedAt >= recheckMs) {
      data.checkedAt = at;
      data.checking = (async () => {
        try {
          const session = await sessions.read(data.token);
          if (session === null || session.identity.contactId !== data.who.contactId) data.revoked = true;
        } catch {
          // The database did not answer: keep the socket; its writes report `unavailable` meanwhile.
        }
        data.checking = null;
        return !data.revoked;
      })();
    }
    return data.checking ? data.checking : !data.revoked;
  }

  return {
    /** The Cookie header a socket's connection was opened with (kept here: the request itself is let go). */
    cookieOf: (socket: Socket) => cookies.get(socket.conn) ?? socket.request?.headers.cookie,
    /** A session ended or changed somewhere: its sockets in this process are refused from now on and hung up. */
    sessionEnded(ref: SessionRef) {
      for (const socket of io.of('/').sockets.values()) {
        const data = socket.data.tracking as TrackingSocketData | undefined;
        if (!data || data.revoked) continue;
        const ended =
          'all' in ref ||
          ('tokenHash' in ref && ref.tokenHash === data.tokenHash) ||
          ('userId' in ref && data.session.user?.id === ref.userId) ||
          ('iboId' in ref && data.session.ibo?.id === ref.iboId);
        if (!ended) continue;
        // Read it again now: an ended session's sockets are hung up; a changed one (same person) stays.
        data.checkedAt = -Infinity;
        void sessionStillValid(data, now()).then((valid) => {
          if (!valid) socket.disconnect(true);
        });
      }
    },
  };
}
