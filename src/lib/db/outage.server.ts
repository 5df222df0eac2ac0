/**
 * One voice for a database outage. While PostgreSQL is out of reach every request that needs it fails
 * the same way (answered 503 "busy"), and so does every scheduler tick: logging each as an error with
 * its stack buried the one fact that mattered under hundreds of lines. The first failure of an outage
 * writes one warning; the watch then asks the database every `probeMs` whether it answers again and
 * writes one line when it does, with how long it was gone and how many failures it absorbed.
 */
import type { Logger } from '../http/log.server';
import { databaseUnavailable } from './unavailable';

export interface OutageWatch {
  /**
   * Tells the watch of a failure. True when the failure was the database out of reach (then it is
   * logged here, once per outage, and the caller logs nothing); false for any other failure.
   */
  report(err: unknown, where: string): boolean;
  /** Whether an outage is in progress (its first failure seen, the database not answering since). */
  readonly down: boolean;
  /** Stops probing (the process is closing). */
  close(): void;
}

/** The first line of a failure's deepest message: the driver's words, never SQL or parameters. */
function reason(err: unknown): string {
  let deepest = '';
  for (let e: unknown = err, depth = 0; e !== null && typeof e === 'object' && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    const { message, code } = e as { message?: unknown; code?: unknown };
    if (typeof message === 'string' && !message.startsWith('Failed query')) deepest = typeof code === 'string' ? `${code}: ${message}` : message;
  }
  return deepest.split('\n')[0]!.slice(0, 200) || 'unreachable';
}

/** Watches for database outages, logging each through `logger` and probing with `probe` until it is over. */
export function watchOutages(logger: Logger, probe: () => Promise<unknown>, probeMs = 1000): OutageWatch {
  let since: number | null = null;
  let failures = 0;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  const check = () => {
    timer = undefined;
    if (closed) return;
    probe().then(
      () => {
        if (closed || since === null) return;
        logger.warn({ downForMs: Date.now() - since, failures }, 'database reachable again');
        since = null;
        failures = 0;
      },
      () => {
        if (closed) return;
        timer = setTimeout(check, probeMs);
        timer.unref();
      },
    );
  };

  return {
    report(err, where) {
      if (!databaseUnavailable(err)) return false;
      failures += 1;
      if (since === null) {
        since = Date.now();
        logger.warn({ where, reason: reason(err) }, 'database unreachable: requests that need it are answered 503 "busy" until it is back');
        if (!closed) {
          timer = setTimeout(check, probeMs);
          timer.unref();
        }
      }
      return true;
    },
    get down() {
      return since !== null;
    },
    close() {
      closed = true;
      clearTimeout(timer);
    },
  };
}
