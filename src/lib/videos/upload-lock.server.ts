/**
 * The lock tus takes on an upload while a request reads or writes it, held across every process and
 * machine sharing the database (tus's own locker holds it in one process only: two machines could then
 * write the same upload at once, and with a bucket, one's late part would land under the other's
 * offset). It is a lease on the upload's `videos` row while the upload is unfinished (`locked_by`,
 * `locked_until`, which conversions use only once it is queued), renewed while held, so a machine that
 * dies holding it lets go when the lease runs out. A request waiting for a request of this process asks
 * it to stop, as tus's own locker does; one of another process finishes its write first (a dropped
 * connection ends it at once).
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as wait } from 'node:timers/promises';
import { and, eq, isNull, lt, or } from 'drizzle-orm';
import { ERRORS, type Lock, type Locker, type RequestRelease } from '@tus/server';
import type { Db } from '../db/client';
import { videos } from '../db/schema';

export interface UploadLockOptions {
  /** How long a lease lasts without renewal (default 15 s): how long a dead machine's lock holds. */
  leaseMs?: number;
  /** How long a request waits for the lock before tus refuses it (default 30 s). */
  waitMs?: number;
  /** How often a waiting request tries again (default 50 ms). */
  pollMs?: number;
}

/** The locker of the uploads of `db`; `holder` names this process in the row (as a conversion's worker id does). */
export function uploadLocker(db: Db, holder: string, options: UploadLockOptions = {}): Locker {
  const leaseMs = options.leaseMs ?? 15_000;
  const waitMs = options.waitMs ?? 30_000;
  const pollMs = options.pollMs ?? 50;
  /** The requests of this process holding a lock: how to ask each to stop. */
  const held = new Map<string, RequestRelease>();

  /** Takes the lease of an unfinished upload; true too when there is none to take (a finished or unknown upload: nothing is written). */
  async function take(id: string, token: string): Promise<boolean> {
    const now = new Date();
    const taken = await db
      .update(videos)
      .set({ lockedBy: token, lockedUntil: new Date(now.getTime() + leaseMs) })
      .where(and(eq(videos.uploadId, id), eq(videos.state, 'uploading'), or(isNull(videos.lockedUntil), lt(videos.lockedUntil, now))))
      .returning({ id: videos.id });
    if (taken.length > 0) return true;
    const [unfinished] = await db.select({ id: videos.id }).from(videos).where(and(eq(videos.uploadId, id), eq(videos.state, 'uploading')));
    return unfinished === undefined;
  }

  return {
    newLock(id: string): Lock {
      const token = `upload:${holder}:${randomBytes(4).toString('hex')}`;
      let renewal: NodeJS.Timeout | null = null;
      return {
        async lock(signal, requestRelease) {
          const deadline = Date.now() + waitMs;
          while (!(await take(id, token))) {
            await held.get(id)?.();
            if (signal.aborted || Date.now() > deadline) throw ERRORS.ERR_LOCK_TIMEOUT;
            await wait(pollMs);
          }
          held.set(id, requestRelease);
          renewal = setInterval(() => {
            void db
              .update(videos)
              .set({ lockedUntil: new Date(Date.now() + leaseMs) })
              .where(and(eq(videos.uploadId, id), eq(videos.lockedBy, token)))
              .catch(() => undefined);
          }, leaseMs / 3);
          renewal.unref();
        },
        async unlock() {
          if (renewal) clearInterval(renewal);
          renewal = null;
          held.delete(id);
          await db.update(videos).set({ lockedBy: null, lockedUntil: null }).where(and(eq(videos.uploadId, id), eq(videos.lockedBy, token)));
        },
      };
    },
  };
}
