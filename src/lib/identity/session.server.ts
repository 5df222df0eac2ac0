/**
 * Server sessions: a random 256-bit token in an HttpOnly cookie; only its SHA-256 is stored, so a
 * leaked database holds no usable session. `readSession` is the one place a request's cookie becomes
 * an identity; everything else asks `locals.identity`.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client';
import { contacts, ibos, sessions, staffFactors, staffRoles, users, USER_TYPE, type User } from '../db/schema';
import { STAFF_ROLES, type StaffRole } from '../access/policy';
import type { Identity } from '../access/access.server';
import { isOwnProspect, type ContactAccount } from './ibo';
import { sessionChange, type Change } from '../runtime/changes';
import { keptUserAgent } from './security';

/** How long a session lasts without use. */
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** A session's expiry is pushed forward at most this often (saves a write per request). */
const TOUCH_EVERY_MS = 60 * 60 * 1000;

/** A new random token (256 bits, base64url). */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The stored form of a token. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** What starts a session: a logged-in user, or an IBO code (optionally with a prospect already chosen). */
export type SessionStart = { kind: 'user'; userId: number } | { kind: 'ibo'; iboId: number; contactId?: number | null };

/** Where a session was opened from: the browser's User-Agent and the client's address (shown on the security page). */
export interface SessionOrigin {
  userAgent?: string | null;
  address?: string | null;
}

/** Creates a session and returns the token for the cookie. */
export async function createSession(db: Db, start: SessionStart, now = new Date(), origin: SessionOrigin = {}): Promise<{ token: string; expiresAt: Date }> {
  const token = newToken();
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  await db.insert(sessions).values({
    tokenHash: hashToken(token),
    kind: start.kind,
    userId: start.kind === 'user' ? start.userId : null,
    iboId: start.kind === 'ibo' ? start.iboId : null,
    contactId: start.kind === 'ibo' ? (start.contactId ?? null) : null,
    createdAt: now,
    lastSeenAt: now,
    expiresAt,
    userAgent: keptUserAgent(origin.userAgent),
    address: origin.address && origin.address !== 'unknown' ? origin.address.slice(0, 64) : null,
  });
  return { token, expiresAt };
}

/** The non-secret facts about a session's person that pages and the header show. */
export interface SessionInfo {
  tokenHash: string;
  identity: Identity;
  /** `emailVerified`: the person opened the link that confirms their address (purchases and certificates wait for it). */
  user: { id: number; firstName: string; lastName: string; email: string; imageUrl: string | null; userType: number; emailVerified: boolean } | null;
  ibo: { id: number; code: string; companyName: string; imageUrl: string | null } | null;
  prospect: { id: number; firstName: string; lastName: string; email: string } | null;
  /**
   * The staff roles this session may use: the account's roles once the session proved the second factor,
   * none before (until then it is an ordinary learner's session). Absent: none.
   */
  roles?: readonly StaffRole[];
  /** The IBO a logged-in user's account owns (its business page, `/mybusiness`); absent for anyone else. */
  ownIbo?: { id: number; code: string; status: 'active' | 'suspended' } | null;
  /** A staff account's standing: its roles, and what its second factor asks of this session; null for anyone else. */
  staff?: { roles: readonly StaffRole[]; secondFactor: 'proved' | 'code' | 'setup' } | null;
}

/** The account's stored roles, in the policy's order (text from the database: unknown names are dropped). */
function storedRoles(list: string | null): StaffRole[] {
  const held = new Set((list ?? '').split(','));
  return STAFF_ROLES.filter((r) => held.has(r));
}

/** The owned IBO as the session query returns it (`id,status,code`; codes hold no commas), or null. */
function ownIboOf(text: string | null): SessionInfo['ownIbo'] {
  const m = text ? /^(\d+),(active|suspended),(.+)$/.exec(text) : null;
  return m ? { id: Number(m[1]), status: m[2] as 'active' | 'suspended', code: m[3]! } : null;
}

/** A person's account as the prospect rule (`isOwnProspect`) reads it. */
export function contactAccount(user: Pick<User, 'userType' | 'mainUserId'> | null | undefined): ContactAccount {
  return user ? { prospect: user.userType === USER_TYPE.prospect, mainUserId: user.mainUserId } : null;
}

/** The account of a session's prospect, joined apart from the session's own user. */
const prospectUsers = alias(users, 'prospect_users');

/**
 * The session a cookie token names, or `null` when it is unknown, expired, or no longer valid
 * (a deleted user, a refused user type, a blocked account, a suspended IBO). Slides the expiry forward on use.
 * An IBO session's prospect counts only while it is the IBO's own (`isOwnProspect`): a session that
 * was ever bound to someone else's contact (a learner, another IBO's prospect) reads as having none.
 */
export async function readSession(db: Db, token: string | undefined, now = new Date()): Promise<SessionInfo | null> {
  if (!token || token.length > 100) return null;
  const tokenHash = hashToken(token);
  const [row] = await db
    .select({
      session: sessions,
      user: users,
      ibo: ibos,
      bound: contacts,
      boundAccount: { userType: prospectUsers.userType, mainUserId: prospectUsers.mainUserId },
      // A user's own contact, in the same query (a session is read on every first request of a person).
      ownContactId: sql<number | null>`(select own.id from ${contacts} own where own.user_id = ${users.id} limit 1)`,
      // The account's staff roles and whether its second factor is set up (a learner has neither).
      staffRoles: sql<string | null>`(select string_agg(r.role, ',') from ${staffRoles} r where r.user_id = ${users.id})`,
      factorConfirmed: sql<boolean>`exists (select 1 from ${staffFactors} f where f.user_id = ${users.id} and f.confirmed_at is not null)`,
      // The IBO the user's account owns, if any (the lowest id when an account owns several).
      ownIbo: sql<string | null>`(select o.id || ',' || o.status || ',' || o.code from ${ibos} o where o.user_id = ${users.id} order by o.id limit 1)`,
    })
    .from(sessions)
    .leftJoin(users, eq(users.id, sessions.userId))
    .leftJoin(ibos, eq(ibos.id, sessions.iboId))
    .leftJoin(contacts, eq(contacts.id, sessions.contactId))
    .leftJoin(prospectUsers, eq(prospectUsers.id, contacts.userId))
    .where(and(eq(sessions.tokenHash, tokenHash), gt(sessions.expiresAt, now)))
    .limit(1);
  if (!row) return null;
  const { session, user, ibo, bound, boundAccount } = row;
  const prospect = bound && ibo && isOwnProspect(ibo, bound, contactAccount(boundAccount)) ? bound : null;
  // A blocked account's sessions read as none, even one opened while it was being blocked.
  if (session.kind === 'user' && (!user || user.userType === USER_TYPE.refused || user.blockedAt !== null)) return null;
  if (session.kind === 'ibo' && (!ibo || ibo.status !== 'active')) return null;
  if (now.getTime() - session.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
    await db
      .update(sessions)
      .set({ lastSeenAt: now, expiresAt: new Date(now.getTime() + SESSION_TTL_MS) })
      .where(eq(sessions.tokenHash, tokenHash));
  }
  if (session.kind === 'user' && user) {
    const held = storedRoles(row.staffRoles);
    const proved = held.length > 0 && row.factorConfirmed && session.secondFactorAt !== null;
    const own = ownIboOf(row.ownIbo);
    return {
      ...(own ? { ownIbo: own } : {}),
      roles: proved ? held : [],
      staff: held.length ? { roles: held, secondFactor: proved ? 'proved' : row.factorConfirmed ? 'code' : 'setup' } : null,
      tokenHash,
      identity: { kind: 'learner', userId: user.id, contactId: row.ownContactId },
      user: { id: user.id, firstName: user.firstName, lastName: user.lastName, email: user.email, imageUrl: user.imageUrl, userType: user.userType, emailVerified: user.emailVerifiedAt !== null },
      ibo: null,
      prospect: null,
    };
  }
  return {
    tokenHash,
    identity: { kind: 'ibo', userId: null, contactId: prospect?.id ?? null },
    user: null,
    ibo: ibo ? { id: ibo.id, code: ibo.code, companyName: ibo.companyName, imageUrl: ibo.imageUrl } : null,
    prospect: prospect ? { id: prospect.id, firstName: prospect.firstName, lastName: prospect.lastName, email: prospect.email } : null,
  };
}

/** Ends a session (log out); unknown tokens are ignored. Returns the change every process must hear of. */
export async function destroySession(db: Db, token: string | undefined): Promise<Change[]> {
  if (!token) return [];
  const tokenHash = hashToken(token);
  await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
  return [sessionChange({ tokenHash })];
}

/** Records the prospect an IBO session is opening courses for. */
export async function setSessionProspect(db: Db, tokenHash: string, contactId: number): Promise<void> {
  await db.update(sessions).set({ contactId }).where(and(eq(sessions.tokenHash, tokenHash), eq(sessions.kind, 'ibo')));
}

/** Deletes expired sessions (housekeeping). */
export async function purgeExpiredSessions(db: Db, now = new Date()): Promise<number> {
  const gone = await db.delete(sessions).where(lt(sessions.expiresAt, now)).returning({ h: sessions.tokenHash });
  return gone.length;
}

/** Ends every session of a user (after a password reset). */
export async function destroyUserSessions(db: Db, userId: number): Promise<void> {
  await db.delete(sessions).where(eq(sessions.userId, userId));
}

/** Options of the session cookie: HttpOnly, SameSite=Lax, Secure over HTTPS. */
export function sessionCookieOptions(secure: boolean, expires: Date) {
  return { path: '/', httpOnly: true, sameSite: 'lax' as const, secure, expires };
}
