/**
 * Accounts on the database: checking a password, registering, and resetting a forgotten password by
 * an e-mailed single-use link. Every function takes the database as a parameter and trusts only
 * input that its form's schema in `account.ts` has already checked.
 *
 * No account enumeration at login: an unknown e-mail, an account without a password, a refused user
 * type (type 2) and a wrong password all answer the same `invalid`, after the same scrypt work.
 */
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { contacts, passwordResets, sessions, users, USER_TYPE, type User } from '../db/schema';
import { birthDateOf, MAX_TOKEN_LENGTH, RESET_TTL_MINUTES, type RegisterForm } from './account';
import { DEFAULT_COST, hashPassword, verifyPassword } from './password';
import { hashToken, newToken } from './session.server';
import type { Locale } from '~/i18n/locales';
import { sessionChange, type Change } from '../runtime/changes';

/**
 * A hash of a password nobody knows, at the cost new hashes get, checked when there is no real hash, so
 * every answer costs the same. One per cost (a process uses one).
 */
const decoys = new Map<number, Promise<string>>();
function decoyHash(cost: number): Promise<string> {
  let decoy = decoys.get(cost);
  if (!decoy) {
    decoy = hashPassword(newToken(), cost);
    decoy.catch(() => decoys.delete(cost));
    decoys.set(cost, decoy);
  }
  return decoy;
}
// Made at start, so even the first unknown address costs no more than a known one.
void decoyHash(DEFAULT_COST).catch(() => undefined);

/** The user row of an e-mail address (case-insensitive), if any. */
async function userByEmail(db: Db, email: string): Promise<User | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(eq(sql`lower(${users.email})`, email.trim().toLowerCase()))
    .limit(1);
  return row;
}

/** May this user log in at all? Refused types (2) and password-less prospects may not. */
function mayLogIn(user: User | undefined): user is User & { passwordHash: string } {
  return user !== undefined && user.passwordHash !== null && user.userType !== USER_TYPE.refused && user.userType !== USER_TYPE.prospect;
}

/** The outcome of a login attempt. */
export type LoginOutcome = { status: 'ok'; user: User } | { status: 'invalid' } | { status: 'blocked' };

/**
 * Checks an e-mail and password (`blocked`: right, but staff blocked the account). Always runs one scrypt verification, whatever the account's state; an
 * unknown address is checked against a decoy made at `hashCost` (the cost new hashes get, as the
 * accounts' are).
 */
export async function authenticate(db: Db, email: string, password: string, hashCost = DEFAULT_COST): Promise<LoginOutcome> {
  const user = await userByEmail(db, email);
  const matches = await verifyPassword(password, user?.passwordHash ?? (await decoyHash(hashCost)));
  if (!matches || !mayLogIn(user)) return { status: 'invalid' };
  // Only the right password learns that the account is blocked (a stranger cannot probe for it).
  return user.blockedAt !== null ? { status: 'blocked' } : { status: 'ok', user };
}

/** The outcome of a registration. */
export type RegisterOutcome = { status: 'ok'; user: User } | { status: 'emailTaken' };

/**
 * Creates an account and its own contact (the person whose progress is tracked), in one transaction.
 * An address already in use answers `emailTaken`, even when two sign-ups race (the unique index
 * decides). A prospect an IBO registered with this address (user type 9, no password) becomes this
 * account, and an unclaimed prospect contact with the address becomes its contact, so what the
 * person did as a prospect follows them.
 */
export async function registerAccount(db: Db, form: RegisterForm, hashCost = DEFAULT_COST): Promise<RegisterOutcome> {
  const passwordHash = await hashPassword(form.password, hashCost);
  const values = {
    email: form.email,
    passwordHash,
    firstName: form.name,
    lastName: form.lastName,
    gender: form.gender,
    birthDate: birthDateOf(form),
    userType: USER_TYPE.learner,
  };
  return db.transaction(async (tx) => {
    const [inserted] = await tx.insert(users).values(values).onConflictDoNothing().returning();
    let user = inserted;
    if (!user) {
      // The address is taken. Only a password-less prospect may be claimed; the condition makes a
      // race between two claims end with one winner.
      [user] = await tx
        .update(users)
        .set({ ...values, email: sql`${users.email}` })
        .where(and(eq(sql`lower(${users.email})`, form.email.toLowerCase()), eq(users.userType, USER_TYPE.prospect), isNull(users.passwordHash)))
        .returning();
      if (!user) return { status: 'emailTaken' } as const;
    }
    const [own] = await tx.select({ id: contacts.id }).from(contacts).where(eq(contacts.userId, user.id)).limit(1);
    if (!own) {
      const claimed = await tx
        .update(contacts)
        .set({ userId: user.id })
        .where(and(eq(sql`lower(${contacts.email})`, form.email.toLowerCase()), isNull(contacts.userId)))
        .returning({ id: contacts.id });
      if (claimed.length === 0) {
        await tx.insert(contacts).values({ userId: user.id, firstName: form.name, lastName: form.lastName, email: form.email }).onConflictDoNothing();
      }
    }
    return { status: 'ok', user } as const;
  });
}

/** Who a reset link is for, when the request names a real account that may log in. */
export interface ResetRequest {
  token: string;
  /** `locale`: the language the person chose for our mails (null: not chosen). */
  user: { id: number; firstName: string; email: string; locale: Locale | null };
  expiresAt: Date;
}

/**
 * Creates a single-use reset link for the account of `email`, or answers `null` when there is no
 * account that could use one (the caller answers the visitor the same either way).
 */
export async function createPasswordReset(db: Db, email: string, now = new Date()): Promise<ResetRequest | null> {
  const user = await userByEmail(db, email);
  if (!mayLogIn(user)) return null;
  const token = newToken();
  const expiresAt = new Date(now.getTime() + RESET_TTL_MINUTES * 60_000);
  await db.insert(passwordResets).values({ tokenHash: hashToken(token), userId: user.id, createdAt: now, expiresAt });
  return { token, user: { id: user.id, firstName: user.firstName, email: user.email, locale: user.locale ?? null }, expiresAt };
}

/** True while a reset token is unused and unexpired (the reset page asks before showing its form). */
export async function resetTokenUsable(db: Db, token: string, now = new Date()): Promise<boolean> {
  if (!token || token.length > MAX_TOKEN_LENGTH) return false;
  const [row] = await db
    .select({ userId: passwordResets.userId })
    .from(passwordResets)
    .where(and(eq(passwordResets.tokenHash, hashToken(token)), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, now)))
    .limit(1);
  return row !== undefined;
}

/** The outcome of choosing a new password. */
export type ResetOutcome = { status: 'ok'; userId: number; changed: Change[] } | { status: 'invalid' };

/**
 * Sets a new password with a reset token, in one transaction: the token is spent by a conditional
 * update (so two uses at once end with one success), every other open link of the account is spent
 * too, and every session of the account ends (whoever knew the old password is logged out).
 */
export async function resetPassword(db: Db, token: string, password: string, now = new Date(), hashCost = DEFAULT_COST): Promise<ResetOutcome> {
  if (!token || token.length > MAX_TOKEN_LENGTH) return { status: 'invalid' };
  const passwordHash = await hashPassword(password, hashCost);
  return db.transaction(async (tx) => {
    const [spent] = await tx
      .update(passwordResets)
      .set({ usedAt: now })
      .where(and(eq(passwordResets.tokenHash, hashToken(token)), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, now)))
      .returning({ userId: passwordResets.userId });
    if (!spent) return { status: 'invalid' } as const;
    const [user] = await tx.select().from(users).where(eq(users.id, spent.userId)).limit(1);
    if (!mayLogIn(user)) return { status: 'invalid' } as const;
    await tx.update(users).set({ passwordHash }).where(eq(users.id, user.id));
    await tx
      .update(passwordResets)
      .set({ usedAt: now })
      .where(and(eq(passwordResets.userId, user.id), isNull(passwordResets.usedAt)));
    await tx.delete(sessions).where(eq(sessions.userId, user.id));
    // Every session of the account ended: every process forgets them.
    return { status: 'ok', userId: user.id, changed: [sessionChange({ userId: user.id })] } as const;
  });
}

/** What the profile page shows of an account. */
export interface Profile {
  firstName: string;
  lastName: string;
  email: string;
  imageUrl: string | null;
  gender: string | null;
  birthDate: string | null;
  locale: 'es' | 'en' | null;
  createdAt: Date;
}

/** The profile of a user, or `null` when the account is gone. */
export async function loadProfile(db: Db, userId: number): Promise<Profile | null> {
  const [row] = await db
    .select({
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      imageUrl: users.imageUrl,
      gender: users.gender,
      birthDate: users.birthDate,
      locale: users.locale,
      createdAt: users.createdAt,
    })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row ?? null;
}
