/** Request ids and the error log (standard error, one JSON line per failed request). */
import { randomBytes } from 'node:crypto';
import { errorLogLine, type ErrorLogEntry } from './errors';

/** A new request id: 16 random URL-safe characters. */
export function newRequestId(): string {
  return randomBytes(12).toString('base64url');
}

/** Writes one failed request to the log. */
export function logServerError(entry: ErrorLogEntry): void {
  process.stderr.write(`${errorLogLine(entry)}\n`);
}
