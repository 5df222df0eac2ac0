/**
 * The server's structured log (pino, one JSON line per entry): built once by the server and passed
 * down. Entries keep the shape the error log always had: `time` (ISO), `level` (a word), `msg`.
 */
import pino, { type DestinationStream, type Logger } from 'pino';
import { errorLogFields, type ErrorLogEntry } from './errors';
import type { LogLevel } from '../config/config';
import type { OutageWatch } from '../db/outage.server';

export type { Logger };

export type { LogLevel };

/** A logger writing JSON lines to `destination` (default: standard error). */
export function createLogger(level: LogLevel = 'info', destination: DestinationStream = pino.destination(2)): Logger {
  return pino(
    {
      level,
      base: null,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
}

/**
 * Writes unexpected errors through `logger`, one entry each with `errorLogFields` (request id, method,
 * path, error, cause, stack). A request that failed because the database is out of reach is no
 * unexpected error: `outage` tells of it once per outage.
 */
export function errorLogger(logger: Logger, outage?: Pick<OutageWatch, 'report'>): (entry: ErrorLogEntry) => void {
  return (entry) => {
    if (outage?.report(entry.error, entry.where)) return;
    const { msg, ...fields } = errorLogFields(entry);
    logger.error(fields, msg);
  };
}
