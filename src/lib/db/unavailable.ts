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
  let current: unknown = err;
  for (let depth = 0; depth < 6 && current !== null && typeof current === 'object'; depth++) {
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || SERVER_CODES.has(code) || code.startsWith('08'))) return true;
    if (typeof message === 'string' && DRIVER_MESSAGES.some((m) => m.test(message))) return true;
    current = cause;
  }
  return false;
}
