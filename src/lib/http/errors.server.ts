/** Request ids, and the error log of `astro dev` (the production server passes its own logger down). */
import { randomBytes } from 'node:crypto';
import type { ErrorLogEntry } from './errors';
import { createLogger, errorLogger } from './log.server';

/** A new request id: 16 random URL-safe characters. */
export function newRequestId(): string {
  return randomBytes(12).toString('base64url');
}

let devLog: ((entry: ErrorLogEntry) => void) | null = null;

/** Writes one failed request to standard error, for a request that came without the server's logger (`astro dev`). */
export function logServerError(entry: ErrorLogEntry): void {
  devLog ??= errorLogger(createLogger('info'));
  devLog(entry);
}
