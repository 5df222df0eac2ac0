/**
 * The IBO's people, live: the socket namespace `/business`, where the owner of an active IBO listens
 * while their people page is open. A socket connects with the session cookie (the socket server has
 * already refused another Origin) and joins its IBO's room, or is refused with `unauthorized` (no
 * logged-in account) or `forbidden` (the account owns no active IBO) before anything is heard.
 *
 * When one of the IBO's people finishes a lesson or passes an exam, the process that stored it tells
 * every process through the bus (`person` with the contact), and each process tells its own sockets of
 * the IBOs that may see that person (the consent rule, `visibleToIbo`): `person` with the contact's id,
 * nothing else (the page reads the rest as the IBO may). A process with no such socket reads nothing.
 * A session ended anywhere hangs up its sockets here.
 */
import type { Namespace, Server, Socket } from 'socket.io';
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client';
import type { SessionRef } from '../identity/session-cache.server';
import type { SessionInfo } from '../identity/session.server';
import { hashToken } from '../identity/session.server';
import { num } from '../reports/reports.server';
import { ownedIbo } from './business.server';
import { visibleToIbo } from './consent.server';

export const BUSINESS_NAMESPACE = '/business';
/** The event an IBO's page hears: `{ contactId }` of one of its people who made progress. */
export const PERSON_EVENT = 'person';
/** The room of one IBO's open pages. */
export const iboRoom = (iboId: number): string => `ibo:${iboId}`;

export interface BusinessLiveDeps {
  db: Db;
  /** How a cookie token becomes a session. */
  sessions: { read(token: string | undefined): Promise<SessionInfo | null> };
  /** The session token a socket's connection carried (its cookie, kept by the socket server). */
  tokenOf(socket: Socket): string | undefined;
}

interface LiveData {
  tokenHash: string;
  userId: number;
  iboId: number;
}

/** The IBOs that may see contact `contactId` now: the one that registered them and the one whose link they signed up through, as the consent rule allows. */
export async function ibosSeeing(db: Db, contactId: number): Promise<number[]> {
  const found = await queryRows<{ id: unknown }>(
    db,
    sql`select b.id from contacts ct left join users u on u.id = ct.user_id join ibos b on b.id in (ct.ibo_id, u.referred_by_ibo_id)
      where ct.id = ${contactId} and b.status = 'active' and ${visibleToIbo(sql`b.id`)}`,
  );
  return [...new Set(found.map((r) => num(r.id)))];
}

/** Registers the namespace on `io`; returns what the bus's messages call. */
export function registerBusinessLive(io: Server, deps: BusinessLiveDeps) {
  const ns: Namespace = io.of(BUSINESS_NAMESPACE);
  ns.use(async (socket, next) => {
    try {
      const token = deps.tokenOf(socket);
      const session = token ? await deps.sessions.read(token) : null;
      if (!session?.user) return next(new Error('unauthorized'));
      const ibo = await ownedIbo(deps.db, session.user.id);
      if (!ibo || ibo.status !== 'active') return next(new Error('forbidden'));
      const data: LiveData = { tokenHash: hashToken(token!), userId: session.user.id, iboId: ibo.id };
      socket.data.business = data;
      await socket.join(iboRoom(ibo.id));
      next();
    } catch {
      next(new Error('unavailable'));
    }
  });
  // The page only listens: anything it sends is ignored.

  /** Checks a socket's session and IBO again; hangs it up when either is gone. */
  async function recheck(socket: Socket): Promise<void> {
    const data = socket.data.business as LiveData | undefined;
    if (!data) return;
    try {
      const session = await deps.sessions.read(deps.tokenOf(socket));
      const ibo = session?.user?.id === data.userId ? await ownedIbo(deps.db, data.userId) : null;
      if (!ibo || ibo.status !== 'active' || ibo.id !== data.iboId) socket.disconnect(true);
    } catch {
      // The database did not answer: keep the socket; it hears nothing it could not hear before.
    }
  }

  return {
    /** One of the people made progress worth telling (a lesson finished, an exam passed): tell this process's sockets of the IBOs seeing them. */
    async personProgressed(contactId: number): Promise<void> {
      if (ns.sockets.size === 0) return;
      for (const iboId of await ibosSeeing(deps.db, contactId)) ns.local.to(iboRoom(iboId)).emit(PERSON_EVENT, { contactId });
    },
    /** A session ended or changed, or an IBO was suspended: its sockets here are checked again (and hung up if no longer allowed). */
    sessionEnded(ref: SessionRef): void {
      for (const socket of ns.sockets.values()) {
        const data = socket.data.business as LiveData | undefined;
        if (!data) continue;
        const touched = 'all' in ref || ('tokenHash' in ref && ref.tokenHash === data.tokenHash) || ('userId' in ref && ref.userId === data.userId) || ('iboId' in ref && ref.iboId === data.iboId);
        if (touched) void recheck(socket);
      }
    },
  };
}

/** The contact a bus `person` message names, when it is one person's change (not a batch of progress, not "everyone"). */
export function contactOfPersonMessage(data: unknown): number | null {
  const id = (data as { contactId?: unknown } | null)?.contactId;
  return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? id : null;
}
