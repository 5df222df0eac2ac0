/**
 * Whether a failure means the database could not be reached (not that a query was wrong): no free
 * connection within the pool's connect timeout, the connection refused, reset or cut, or PostgreSQL
 * shutting down, starting up or out of connections. Such a request is answered 503 "busy, try again"
 * rather than 500: nothing is wrong with it. Pure; follows `cause` as Drizzle wraps driver errors.
 */

/** Network errors of a connection that could not be made or was lost. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** PostgreSQL SQLSTATEs: shutting down (57P01/57P02), starting up (57P03), too many connections (53300). */
const SERVER_CODES = new Set(['57P01', '57P02', '57P03', '53300']);
/** What node-postgres says when a pool gives no connection in time or a connection ends under a query. */
const DRIVER_MESSAGES = [/timeout exceeded when trying to connect/i, /connection terminated/i, /client has encountered a connection error/i, /connection timeout/i];

/** How long (s) a busy answer asks the client to wait before trying again (`Retry-After`). */
export const BUSY_RETRY_AFTER_SECONDS = 5;

export function databaseUnavailable(err: unknown): boolean {
  return someCause(err, (code, message) => (code !== null && (NETWORK_CODES.has(code) || SERVER_CODES.has(code) || code.startsWith('08'))) || (message !== null && DRIVER_MESSAGES.some((m) => m.test(message))));
}

/** PostgreSQL SQLSTATEs of transactions that collided: a serialization failure (40001) or a deadlock (40P01). */
const CONFLICT_CODES = new Set(['40001', '40P01']);

/**
 * Whether a failure is PostgreSQL giving up one of two colliding transactions (a serialization failure
 * or a deadlock): running it again is the remedy (`retryConflicts`), and a collision that outlasts the
 * retries is answered like a busy database, 503 "try again", never 500.
 */
export function databaseConflict(err: unknown): boolean {
  return someCause(err, (code) => code !== null && CONFLICT_CODES.has(code));
}

/** Whether a failure is answered 503 "busy, try again in a few seconds": the database out of reach, or a collision that outlasted its retries. */
export function databaseBusy(err: unknown): boolean {
  return databaseUnavailable(err) || databaseConflict(err);
}

/** True when `test` holds for the error or one of its causes (at most six deep). */
function someCause(err: unknown, test: (code: string | null, message: string | null) => boolean): boolean {
  let current: unknown = err;
  for (let depth = 0; depth < 6 && current !== null && typeof current === 'object'; depth++) {
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (test(typeof code === 'string' ? code : null, typeof message === 'string' ? message : null)) return true;
    current = cause;
  }
  return false;
}
