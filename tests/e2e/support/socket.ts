/**
 * The progress socket from the test process (socket.io-client in Node), with a session cookie taken
 * from a logged-in request context: connect for a course and learn whether the server accepted or
 * refused the connection (and with which error), send progress events and wait for their
 * acknowledgement.
 */
import { io, type Socket } from 'socket.io-client';

export type Connection = { ok: true; socket: Socket } | { ok: false; error: string };

export interface ConnectOptions {
  /** The Cookie header (e.g. `session=…`). */
  cookie?: string;
  /** The Origin header the handshake carries (a browser always sends one). */
  origin?: string;
  transport?: 'websocket' | 'polling';
  timeoutMs?: number;
  /** The socket.io namespace (default the progress socket's, `/`). */
  namespace?: string;
}

/** Opens a socket for `courseId`; resolves once connected, or with the server's refusal. */
export function connect(base: string, courseId: unknown, opts: ConnectOptions = {}): Promise<Connection> {
  const headers: Record<string, string> = {};
  if (opts.cookie) headers.cookie = opts.cookie;
  if (opts.origin) headers.origin = opts.origin;
  const socket = io(`${base}${opts.namespace ?? ''}`, {
    auth: { courseId },
    extraHeaders: headers,
    transports: [opts.transport ?? 'websocket'],
    reconnection: false,
    forceNew: true,
    timeout: opts.timeoutMs ?? 5_000,
  });
  return new Promise<Connection>((resolve) => {
    const timer = setTimeout(() => {
      socket.close();
      resolve({ ok: false, error: 'timeout' });
    }, (opts.timeoutMs ?? 5_000) + 1_000);
    socket.once('connect', () => {
      clearTimeout(timer);
      resolve({ ok: true, socket });
    });
    socket.once('connect_error', (err: Error) => {
      clearTimeout(timer);
      socket.close();
      resolve({ ok: false, error: err.message });
    });
  });
}

/** Sends one event and resolves with its acknowledgement (or `{ timeout: true }`). */
export async function emitAck(socket: Socket, event: string, payload: unknown, timeoutMs = 5_000): Promise<unknown> {
  try {
    return await socket.timeout(timeoutMs).emitWithAck(event, payload);
  } catch {
    return { timeout: true };
  }
}

/**
 * Sends one event and resolves with its acknowledgement, `{ dropped: true }` when the server closes
 * the connection instead (a message over its size limit), or `{ timeout: true }`.
 */
export function emitOrDrop(socket: Socket, event: string, payload: unknown, timeoutMs = 5_000): Promise<unknown> {
  return new Promise((resolve) => {
    const done = (v: unknown) => {
      clearTimeout(timer);
      socket.off('disconnect', dropped);
      resolve(v);
    };
    const dropped = () => done({ dropped: true });
    const timer = setTimeout(() => done({ timeout: true }), timeoutMs);
    socket.once('disconnect', dropped);
    socket.emit(event, payload, (ack: unknown) => done(ack));
  });
}

/** What a connection became, in one word for a table: `ok`, or the server's error message. */
export function outcome(c: Connection): string {
  return c.ok ? 'ok' : c.error;
}
