/** Housekeeping: expired sessions are deleted once an hour, by one process. */
import type { Db } from '../db/client';
import { purgeExpiredSessions } from '../identity/session.server';
import type { Logger } from '../http/log.server';
import type { Scheduler } from './jobs.server';

export const SESSION_PURGE_INTERVAL_MS = 3_600_000;

export function registerSessionPurge(scheduler: Scheduler, db: Db, logger?: Logger, intervalMs = SESSION_PURGE_INTERVAL_MS): void {
  scheduler.every('session-purge', intervalMs, async ({ now }) => {
    const count = await purgeExpiredSessions(db, now);
    if (count > 0) logger?.info({ job: 'session-purge', count }, 'expired sessions deleted');
  });
}
