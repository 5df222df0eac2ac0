/**
 * Sessions kept in memory for a short while, so a logged-in page costs no session query. Whatever ends
 * or changes a session (log out, log in over it, a password reset, a profile change, a prospect chosen)
 * makes every process forget it at once through the runtime's bus (`Runtime.sessionChanged`); the
 * time limit bounds what only the database learns (a user refused or an IBO suspended by hand).
 *
 * A kept session is believed for long only while the bus has listened without a break since it was
 * read (`trustedSince`): while the bus is down (Redis out of reach), a log out on another process
 * cannot be heard, so sessions are read again from the database after `UNTRUSTED_TTL_MS`.
 */
import { BoundedCache } from '../bounded-cache';
import type { Db } from '../db/client';
import { hashToken, readSession, type SessionInfo } from './session.server';

/** Which kept sessions to forget. */
export type SessionRef = { tokenHash: string } | { userId: number } | { iboId: number } | { all: true };

interface Kept {
  info: Promise<SessionInfo | null>;
  /** The answer once the read settled (`undefined` before). */
  settled?: SessionInfo | null;
  at: number;
}

/** How long a kept session is believed while the bus may be missing notices. */
export const UNTRUSTED_TTL_MS = 1000;

export class SessionCache {
  /** Oldest read first out (a kept session is not refreshed by use: its time limit runs from the read). */
  readonly #kept: BoundedCache<string, Kept>;

  constructor(
    private readonly db: Db,
    private readonly opts: {
      ttlMs?: number;
      capacity?: number;
      now?: () => number;
      /** Since when every notice of a change has been heard (the bus's `listeningSince`); `null`: not now. Default: always. */
      trustedSince?: () => number | null;
    } = {},
  ) {
    this.#kept = new BoundedCache(opts.capacity ?? 50_000);
  }

  /** The session a cookie token names (see `readSession`), read from the database at most once per `ttlMs`. */
  read(token: string | undefined): Promise<SessionInfo | null> {
    if (!token || token.length > 100) return Promise.resolve(null);
    const nowMs = (this.opts.now ?? Date.now)();
    const key = hashToken(token);
    const hit = this.#kept.peek(key);
    if (hit && nowMs - hit.at < this.#ttlFor(hit)) return hit.info;
    const info = readSession(this.db, token, new Date(nowMs));
    const entry: Kept = { info, at: nowMs };
    // Unknown tokens are not kept: a flood of forged cookies must not push real sessions out.
    info.then(
      (found) => {
        entry.settled = found;
        if (found === null && this.#kept.peek(key) === entry) this.#kept.delete(key);
      },
      () => {
        if (this.#kept.peek(key) === entry) this.#kept.delete(key);
      },
    );
    this.#kept.set(key, entry);
    return info;
  }

  /** The full time limit while no notice about the session can have been missed since it was read; else a short one. */
  #ttlFor(hit: Kept): number {
    const since = this.opts.trustedSince ? this.opts.trustedSince() : 0;
    return since !== null && since <= hit.at ? (this.opts.ttlMs ?? 60_000) : UNTRUSTED_TTL_MS;
  }

  /** Forgets kept sessions: one, a user's, an IBO's, or all. */
  forget(ref: SessionRef): void {
    if ('all' in ref) {
      this.#kept.clear();
      return;
    }
    if ('tokenHash' in ref) {
      this.#kept.delete(ref.tokenHash);
      return;
    }
    this.#kept.deleteWhere(({ settled: info }) =>
      // A read still on its way may carry the facts from before the change: drop it too.
      info === undefined || ('userId' in ref && info?.user?.id === ref.userId) || ('iboId' in ref && (info?.ibo?.id === ref.iboId || info?.ownIbo?.id === ref.iboId)),
    );
  }

  get size(): number {
    return this.#kept.size;
  }
}

/** A session reference as the bus carries it; anything else (a resync after missed messages) forgets every session. */
export function sessionRefOf(data: unknown): SessionRef {
  const d = (data ?? {}) as Record<string, unknown>;
  if (typeof d.tokenHash === 'string') return { tokenHash: d.tokenHash };
  if (typeof d.userId === 'number') return { userId: d.userId };
  if (typeof d.iboId === 'number') return { iboId: d.iboId };
  return { all: true };
}
