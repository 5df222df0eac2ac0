/**
 * Unexpected errors: what the server's log keeps (one JSON line: method, path, request id, the error's
 * message and stack) and what a person is shown instead (a sentence in their language and the request
 * id, never SQL, parameters or a stack). Pure; `errors.server.ts` makes ids and writes the log.
 */
import { format, messages, type Locale } from '~/i18n';

/** The header that carries a request's id, on every response (and from a trusted proxy, on requests). */
export const REQUEST_ID_HEADER = 'x-request-id';

/** What an id looks like when a trusted proxy sends one: 8–64 letters, digits, dots, dashes, underscores. */
const SAFE_ID = /^[A-Za-z0-9._-]{8,64}$/;

/** The id a request arrived with, when it may be kept (only from a trusted proxy, and only a safe-looking one). */
export function acceptedRequestId(header: string | string[] | undefined, trusted: boolean): string | null {
  const value = Array.isArray(header) ? header[0] : header;
  return trusted && value && SAFE_ID.test(value) ? value : null;
}

/** One failed request, as the log records it. */
export interface ErrorLogEntry {
  requestId: string;
  method: string;
  /** The path only: a query string may hold a token. */
  path: string;
  error: unknown;
  /** Where it was caught (`page`, `action`, `server`). */
  where: string;
}

/** A failed query's message lists its parameters (e-mails, password hashes …): the log keeps the SQL, not them. */
function redactParameters(text: string): string {
  return text.replace(/\nparams: [^\n]*/g, '\nparams: [redacted]');
}

/**
 * The fields of a failed request's log entry (the logger adds time and level): the error's message and
 * stack (the log is the only place they go), query parameters left out.
 */
export function errorLogFields(entry: ErrorLogEntry): Record<string, string> & { msg: string } {
  const err = entry.error;
  const message = redactParameters(err instanceof Error ? err.message : String(err));
  const stack = err instanceof Error && err.stack ? redactParameters(err.stack) : undefined;
  const cause = err instanceof Error && err.cause instanceof Error ? err.cause.message : undefined;
  return {
    msg: 'request failed',
    requestId: entry.requestId,
    method: entry.method,
    path: entry.path,
    where: entry.where,
    error: message,
    ...(cause ? { cause } : {}),
    ...(stack ? { stack } : {}),
  };
}

/** What a person is told about an unexpected error: a sentence in their language with the request id to quote. */
export function unexpectedErrorMessage(locale: Locale, requestId: string): string {
  return format(messages(locale).serverError.unexpected, { id: requestId });
}
