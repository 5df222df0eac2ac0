/**
 * An account's security on the database: changing the password (every other session ends), the
 * list of the account's sessions and ending them, and the single-use e-mail links that confirm the
 * address given at sign-up (`verify`) or move the account to a new one (`change`). Only the SHA-256 of
 * a link's token is stored; a link is spent by a conditional update, so two uses at once end with one.
 *
 * Each function returns what it changed (`changed`): the action kit tells every process.
 */
import { createHash } from 'node:crypto';
import { and, desc, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { contacts, emailTokens, passwordResets, sessions, users, USER_TYPE } from '../db/schema';
import type { Locale } from '~/i18n/locales';
import { personChange, sessionChange, type Change } from '../runtime/changes';
import { MAX_TOKEN_LENGTH } from './account';
import { DEFAULT_COST, hashPassword, verifyPassword } from './password';
import { emailTokenTtlMs, type EmailTokenPurpose } from './security';
import { hashToken, newToken } from './session.server';

/** The id a session is named by on the security page: derived from its token's hash, never either of them. */
export function sessionPublicId(tokenHash: string): string {
  return createHash('sha256').update(`session-id:${tokenHash}`).digest('hex').slice(0, 24);
}

/** The account's password hash, when it has one and may log in. */
async function loginUser(db: Db, userId: number) {
  const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!user || user.passwordHash === null || user.userType === USER_TYPE.refused || user.userType === USER_TYPE.prospect) return null;
  return user as typeof user & { passwordHash: string };
}

/** The outcome of changing the password. */
export type PasswordChange = { status: 'ok'; changed: Change[] } | { status: 'wrongPassword' } | { status: 'gone' };

/**
 * Sets a new password when `current` is the account's password. Every other session of the account
 * ends and every open reset link is spent; the session `keepTokenHash` (the one asking) stays.
 */
export async function changePassword(db: Db, userId: number, keepTokenHash: string, current: string, next: string, now = new Date(), hashCost = DEFAULT_COST): Promise<PasswordChange> {
  const user = await loginUser(db, userId);
  if (!user) return { status: 'gone' };
  if (!(await verifyPassword(current, user.passwordHash))) return { status: 'wrongPassword' };
  const passwordHash = await hashPassword(next, hashCost);
  await db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash }).where(eq(users.id, userId));
    await tx.update(passwordResets).set({ usedAt: now }).where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)));
    await tx.delete(sessions).where(and(eq(sessions.userId, userId), ne(sessions.tokenHash, keepTokenHash)));
  });
  // Every process forgets the account's sessions: the ended ones are gone from the database, the kept one is read again.
  return { status: 'ok', changed: [sessionChange({ userId })] };
}

/** A session as the security page lists it. */
export interface SessionRow {
  id: string;
  current: boolean;
  userAgent: string | null;
  address: string | null;
  createdAt: Date;
  lastSeenAt: Date;
}

/** The account's live sessions, the most recently used first (the asking one marked `current`). */
export async function listSessions(db: Db, userId: number, currentTokenHash: string, now = new Date()): Promise<SessionRow[]> {
  const rows = await db
    .select({ tokenHash: sessions.tokenHash, userAgent: sessions.userAgent, address: sessions.address, createdAt: sessions.createdAt, lastSeenAt: sessions.lastSeenAt })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, now)))
    .orderBy(desc(sessions.lastSeenAt), desc(sessions.createdAt))
    .limit(100);
  return rows.map(({ tokenHash, ...r }) => ({ id: sessionPublicId(tokenHash), current: tokenHash === currentTokenHash, ...r }));
}

/** The outcome of ending one session. */
export type SessionEnd = { status: 'ok'; current: boolean; changed: Change[] } | { status: 'notFound' };

/** Ends the account's session named `id` (another account's, or an unknown id: `notFound`, nothing changed). */
export async function endOwnSession(db: Db, userId: number, id: string, currentTokenHash: string): Promise<SessionEnd> {
  const own = await db.select({ tokenHash: sessions.tokenHash }).from(sessions).where(eq(sessions.userId, userId));
  const found = own.find((s) => sessionPublicId(s.tokenHash) === id);
  if (!found) return { status: 'notFound' };
  await db.delete(sessions).where(and(eq(sessions.tokenHash, found.tokenHash), eq(sessions.userId, userId)));
  return { status: 'ok', current: found.tokenHash === currentTokenHash, changed: [sessionChange({ tokenHash: found.tokenHash })] };
}

/** Ends every session of the account but `keepTokenHash`; answers how many ended. */
export async function endOtherSessions(db: Db, userId: number, keepTokenHash: string): Promise<{ ended: number; changed: Change[] }> {
  const gone = await db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), ne(sessions.tokenHash, keepTokenHash)))
    .returning({ tokenHash: sessions.tokenHash });
  return { ended: gone.length, changed: gone.map((s) => sessionChange({ tokenHash: s.tokenHash })) };
}

/* ───────────── e-mail links ───────────── */

/** A link made for an account: its token (for the e-mail only) and who it goes to. */
export interface EmailLink {
  token: string;
  /** The address the link is sent to (the new one, for a change). */
  to: string;
  /** The account's address now (the old one, for a change). */
  current: string;
  name: string;
  /** The language the person chose for our mails in their profile (null: none chosen). */
  locale: Locale | null;
}

async function makeLink(db: Db, userId: number, purpose: EmailTokenPurpose, email: string, now: Date): Promise<string> {
  const token = newToken();
  await db.insert(emailTokens).values({ tokenHash: hashToken(token), userId, purpose, email, createdAt: now, expiresAt: new Date(now.getTime() + emailTokenTtlMs(purpose)) });
  return token;
}

/** A link that confirms the account's address, or `null` when it is already confirmed (or the account is gone). */
export async function createVerification(db: Db, userId: number, now = new Date()): Promise<EmailLink | null> {
  const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!user || user.emailVerifiedAt !== null) return null;
  const token = await makeLink(db, userId, 'verify', user.email, now);
  return { token, to: user.email, current: user.email, name: user.firstName, locale: user.locale ?? null };
}

/** Is the account's address confirmed? */
export async function emailVerified(db: Db, userId: number): Promise<boolean> {
  const [row] = await db.select({ at: users.emailVerifiedAt }).from(users).where(eq(users.id, userId)).limit(1);
  return row !== undefined && row.at !== null;
}

/** Does an account other than `userId` hold `email` (case-insensitive)? */
async function addressTaken(db: Db, email: string, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(sql`lower(${users.email})`, email.toLowerCase()), ne(users.id, userId)))
    .limit(1);
  return row !== undefined;
}

/** The outcome of asking to move the account to another address. */
export type EmailChangeRequest = { status: 'ok'; link: EmailLink } | { status: 'wrongPassword' } | { status: 'taken' } | { status: 'same' } | { status: 'gone' };

/**
 * A link to the new address `email` that moves the account there once opened, when `current` is the
 * account's password. An address another account holds answers `taken` (what registration says of it,
 * no more); the account's own address answers `same`. Nothing changes until the link is opened.
 */
export async function requestEmailChange(db: Db, userId: number, current: string, email: string, now = new Date()): Promise<EmailChangeRequest> {
  const user = await loginUser(db, userId);
  if (!user) return { status: 'gone' };
  if (!(await verifyPassword(current, user.passwordHash))) return { status: 'wrongPassword' };
  if (user.email.toLowerCase() === email.toLowerCase()) return { status: 'same' };
  if (await addressTaken(db, email, userId)) return { status: 'taken' };
  const token = await makeLink(db, userId, 'change', email, now);
  return { status: 'ok', link: { token, to: email, current: user.email, name: user.firstName, locale: user.locale ?? null } };
}

/** The outcome of opening an e-mail link. */
export type LinkOutcome = { status: 'verified' | 'changed'; userId: number; email: string; changed: Change[] } | { status: 'invalid' } | { status: 'taken' };

/** True while a link is unused and unexpired (the confirming page asks before showing its button). */
export async function emailTokenUsable(db: Db, token: string, now = new Date()): Promise<boolean> {
  if (!token || token.length > MAX_TOKEN_LENGTH) return false;
  const [row] = await db
    .select({ userId: emailTokens.userId })
    .from(emailTokens)
    .where(and(eq(emailTokens.tokenHash, hashToken(token)), isNull(emailTokens.usedAt), gt(emailTokens.expiresAt, now)))
    .limit(1);
  return row !== undefined;
}

/**
 * Opens an e-mail link, in one transaction: the token is spent by a conditional update (a reused,
 * expired or unknown one is `invalid`, nothing changed). A `verify` link confirms the address it was
 * sent to while it is still the account's; a `change` link moves the account (and its own contact) to
 * its address and confirms it, unless another account took the address since (`taken`, nothing changed).
 * Every other open link of the same purpose is spent with it.
 */
export async function openEmailLink(db: Db, token: string, now = new Date()): Promise<LinkOutcome> {
  if (!token || token.length > MAX_TOKEN_LENGTH) return { status: 'invalid' };
  const outcome = await db
    .transaction(async (tx) => {
      const [spent] = await tx
        .update(emailTokens)
        .set({ usedAt: now })
        .where(and(eq(emailTokens.tokenHash, hashToken(token)), isNull(emailTokens.usedAt), gt(emailTokens.expiresAt, now)))
        .returning();
      if (!spent) return { status: 'invalid' } as const;
      const [user] = await tx.select().from(users).where(eq(users.id, spent.userId)).limit(1);
      if (!user) return { status: 'invalid' } as const;
      const changed = [sessionChange({ userId: user.id }), personChange({ userId: user.id })];
      const spendOthers = () =>
        tx
          .update(emailTokens)
          .set({ usedAt: now })
          .where(and(eq(emailTokens.userId, user.id), eq(emailTokens.purpose, spent.purpose), isNull(emailTokens.usedAt)));
      if (spent.purpose === 'verify') {
        // A link to an address the account no longer has confirms nothing.
        if (user.email.toLowerCase() !== spent.email.toLowerCase()) return { status: 'invalid' } as const;
        await tx.update(users).set({ emailVerifiedAt: user.emailVerifiedAt ?? now }).where(eq(users.id, user.id));
        await spendOthers();
        return { status: 'verified', userId: user.id, email: user.email, changed } as const;
      }
      if (await addressTaken(tx as unknown as Db, spent.email, user.id)) throw new Taken();
      await tx.update(users).set({ email: spent.email, emailVerifiedAt: now }).where(eq(users.id, user.id));
      // The person's own contact follows, unless another contact (a prospect of an IBO) holds the address.
      const [other] = await tx
        .select({ id: contacts.id })
        .from(contacts)
        .where(and(eq(sql`lower(${contacts.email})`, spent.email.toLowerCase()), sql`${contacts.userId} is distinct from ${user.id}`))
        .limit(1);
      if (!other) await tx.update(contacts).set({ email: spent.email }).where(eq(contacts.userId, user.id));
      await spendOthers();
      return { status: 'changed', userId: user.id, email: spent.email, changed } as const;
    })
    .catch((err: unknown) => {
      if (err instanceof Taken || isUniqueViolation(err)) return { status: 'taken' } as const;
      throw err;
    });
  return outcome;
}

/** Another account took the address between the request and the link (rolls the link's use back). */
class Taken extends Error {}

function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) if ((e as { code?: unknown }).code === '23505') return true;
  return false;
}
