/**
 * The staff's I/O: roles granted and removed, the second factor set up, proved and reset. Every change
 * an administrator makes is written to the audit trail in its own transaction, and returns the changes
 * every process must hear of (the account's sessions are read again, so roles take effect at once).
 */
import { and, count, eq, isNull, lt, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { sessions, staffFactors, staffRecoveryCodes, staffRoles, users } from '../db/schema';
import type { StaffRole } from '../access/policy';
import { recordAudit, userRef } from '../privacy/audit.server';
import { personChange, sessionChange, type Change } from '../runtime/changes';
import { acceptedStep, hashRecoveryCode, newRecoveryCodes, newTotpSecret, orderedRoles, removalRefused, type TypedCode } from './staff';
import { SecretSeal, UnreadableSecret } from './seal.server';

/** Where second factors are kept: the database, and the seal their secrets are stored under. */
export interface Factors {
  db: Db;
  seal: SecretSeal;
}

/** What every process must hear of when an account's roles or factor change: its sessions and pages. */
const accountChanged = (userId: number): Change[] => [sessionChange({ userId }), personChange({ userId })];

/** The roles an account holds. */
export async function rolesOf(db: Db | Tx, userId: number): Promise<StaffRole[]> {
  const rows = await db.select({ role: staffRoles.role }).from(staffRoles).where(eq(staffRoles.userId, userId));
  return orderedRoles(rows.map((r) => r.role));
}

/** A member of staff as the staff page lists them. */
export interface StaffMember {
  userId: number;
  email: string;
  firstName: string;
  lastName: string;
  roles: StaffRole[];
  /** `confirmed`: signs in with a code; `pending`: set-up started; `none`: sets it up at next login. */
  factor: 'confirmed' | 'pending' | 'none';
}

/** Every account holding a role, by e-mail. */
export async function listStaff(db: Db): Promise<StaffMember[]> {
  const rows = await db
    .select({ userId: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName, role: staffRoles.role, confirmedAt: staffFactors.confirmedAt, secret: staffFactors.secret })
    .from(staffRoles)
    .innerJoin(users, eq(users.id, staffRoles.userId))
    .leftJoin(staffFactors, eq(staffFactors.userId, users.id))
    .orderBy(users.email);
  const byUser = new Map<number, StaffMember & { held: string[] }>();
  for (const r of rows) {
    const m = byUser.get(r.userId) ?? { userId: r.userId, email: r.email, firstName: r.firstName, lastName: r.lastName, roles: [], held: [], factor: r.confirmedAt ? 'confirmed' : r.secret ? 'pending' : 'none' };
    m.held.push(r.role);
    byUser.set(r.userId, m);
  }
  return [...byUser.values()].map(({ held, ...m }) => ({ ...m, roles: orderedRoles(held) }));
}

export type GrantOutcome = { status: 'ok'; userId: number; changed: Change[] } | { status: 'unknownEmail' } | { status: 'alreadyHeld'; userId: number };

/** Grants `role` to the account of `email`, recorded as `actor`'s change. */
export function grantRole(db: Db, actorId: number, email: string, role: StaffRole, now = new Date()): Promise<GrantOutcome> {
  return db.transaction(async (tx) => {
    const [user] = await tx.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = ${email.toLowerCase()}`).limit(1);
    if (!user) return { status: 'unknownEmail' } as const;
    const before = await rolesOf(tx, user.id);
    if (before.includes(role)) return { status: 'alreadyHeld', userId: user.id } as const;
    await tx.insert(staffRoles).values({ userId: user.id, role, grantedAt: now });
    await recordAudit(tx, { action: 'staff.role.granted', actor: userRef(actorId), subject: userRef(user.id), before: { roles: before }, after: { roles: orderedRoles([...before, role]) }, at: now });
    return { status: 'ok', userId: user.id, changed: accountChanged(user.id) } as const;
  });
}

export type RevokeOutcome = { status: 'ok'; changed: Change[] } | { status: 'notHeld' } | { status: 'lastAdministrator' };

/** Removes `role` from an account; the last administrator keeps theirs. */
export function revokeRole(db: Db, actorId: number, userId: number, role: StaffRole, now = new Date()): Promise<RevokeOutcome> {
  return db.transaction(async (tx) => {
    // Every administrator row locked: two removals at once cannot both see a second administrator.
    const admins = await tx.select({ userId: staffRoles.userId }).from(staffRoles).where(eq(staffRoles.role, 'administrator')).for('update');
    const before = await rolesOf(tx, userId);
    const refused = removalRefused(role, before.includes(role), admins.length);
    if (refused) return { status: refused } as const;
    await tx.delete(staffRoles).where(and(eq(staffRoles.userId, userId), eq(staffRoles.role, role)));
    await recordAudit(tx, { action: 'staff.role.revoked', actor: userRef(actorId), subject: userRef(userId), before: { roles: before }, after: { roles: before.filter((r) => r !== role) }, at: now });
    return { status: 'ok', changed: accountChanged(userId) } as const;
  });
}

export type ResetOutcome = { status: 'ok'; changed: Change[] } | { status: 'notStaff' };

/** Forgets an account's second factor and recovery codes: its sessions lose their roles until it sets one up again. */
export function resetFactor(db: Db, actorId: number, userId: number, now = new Date()): Promise<ResetOutcome> {
  return db.transaction(async (tx) => {
    const roles = await rolesOf(tx, userId);
    if (roles.length === 0) return { status: 'notStaff' } as const;
    const [factor] = await tx.delete(staffFactors).where(eq(staffFactors.userId, userId)).returning({ confirmedAt: staffFactors.confirmedAt });
    const codes = await tx.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.userId, userId)).returning({ id: staffRecoveryCodes.id });
    await tx.update(sessions).set({ secondFactorAt: null }).where(eq(sessions.userId, userId));
    await recordAudit(tx, {
      action: 'staff.factor.reset',
      actor: userRef(actorId),
      subject: userRef(userId),
      before: { factor: factor?.confirmedAt ? 'confirmed' : factor ? 'pending' : 'none', recoveryCodes: codes.length },
      after: { factor: 'none', recoveryCodes: 0 },
      at: now,
    });
    return { status: 'ok', changed: accountChanged(userId) } as const;
  });
}

/** The account's second factor: `confirmed`, `pending` (set-up begun), or `none`. */
export async function factorState(db: Db, userId: number): Promise<'confirmed' | 'pending' | 'none'> {
  const [row] = await db.select({ confirmedAt: staffFactors.confirmedAt }).from(staffFactors).where(eq(staffFactors.userId, userId));
  return row ? (row.confirmedAt ? 'confirmed' : 'pending') : 'none';
}

/** The secret set-up shows: the pending one, or a new one (stored sealed); null once a factor is confirmed. */
export async function pendingSecret({ db, seal }: Factors, userId: number): Promise<string | null> {
  await db.insert(staffFactors).values({ userId, secret: seal.seal(newTotpSecret()) }).onConflictDoNothing();
  const [row] = await db.select().from(staffFactors).where(eq(staffFactors.userId, userId));
  if (!row || row.confirmedAt) return null;
  try {
    return seal.open(row.secret);
  } catch (err) {
    if (!(err instanceof UnreadableSecret)) throw err;
    // Sealed under another academy's key (a database restored elsewhere): set-up starts afresh.
    const fresh = newTotpSecret();
    await db.update(staffFactors).set({ secret: seal.seal(fresh) }).where(and(eq(staffFactors.userId, userId), isNull(staffFactors.confirmedAt)));
    return fresh;
  }
}

/** Seals every secret stored before sealing (the demo's, an older database's); returns how many. */
export async function sealPlainSecrets({ db, seal }: Factors): Promise<number> {
  const plain = await db.select({ userId: staffFactors.userId, secret: staffFactors.secret }).from(staffFactors).where(sql`${staffFactors.secret} not like 'v1:%'`);
  for (const row of plain) {
    await db.update(staffFactors).set({ secret: seal.seal(row.secret) }).where(and(eq(staffFactors.userId, row.userId), eq(staffFactors.secret, row.secret)));
  }
  return plain.length;
}

/** Marks a session as having proved the second factor (it carries the account's roles from now on). */
async function markProved(tx: Db | Tx, tokenHash: string, userId: number, now: Date): Promise<void> {
  await tx.update(sessions).set({ secondFactorAt: now }).where(and(eq(sessions.tokenHash, tokenHash), eq(sessions.userId, userId)));
}

/**
 * Accepts `token` for the account's factor once: its step must be newer than the last accepted. A secret
 * still stored plain is sealed as it is used.
 */
async function takeStep(tx: Db | Tx, seal: SecretSeal, userId: number, stored: string, token: string, now: Date, confirmed: boolean): Promise<'ok' | 'wrong' | 'replayed'> {
  let secret: string;
  try {
    secret = seal.open(stored);
  } catch (err) {
    // Sealed under another academy's key: no code can match; recovery codes still work, or a reset.
    if (err instanceof UnreadableSecret) return 'wrong';
    throw err;
  }
  const step = acceptedStep(secret, token, now);
  if (step === null) return 'wrong';
  const taken = await tx
    .update(staffFactors)
    .set({ lastStep: step, ...(confirmed ? {} : { confirmedAt: now }), ...(SecretSeal.isSealed(stored) ? {} : { secret: seal.seal(stored) }) })
    .where(and(eq(staffFactors.userId, userId), lt(staffFactors.lastStep, step)))
    .returning({ userId: staffFactors.userId });
  return taken.length ? 'ok' : 'replayed';
}

export type SetupOutcome = { status: 'ok'; recoveryCodes: string[]; changed: Change[] } | { status: 'wrong' | 'replayed' | 'notStaff' | 'alreadySet' };

/** Confirms the pending secret with its first code; hands out ten recovery codes (only their hashes are kept). */
export async function confirmSetup({ db, seal }: Factors, userId: number, tokenHash: string, token: string, now = new Date()): Promise<SetupOutcome> {
  return db.transaction(async (tx) => {
    if ((await rolesOf(tx, userId)).length === 0) return { status: 'notStaff' } as const;
    const [factor] = await tx.select().from(staffFactors).where(eq(staffFactors.userId, userId)).for('update');
    if (!factor) return { status: 'wrong' } as const;
    if (factor.confirmedAt) return { status: 'alreadySet' } as const;
    const taken = await takeStep(tx, seal, userId, factor.secret, token, now, false);
    if (taken !== 'ok') return { status: taken } as const;
    const recoveryCodes = newRecoveryCodes();
    await tx.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.userId, userId));
    await tx.insert(staffRecoveryCodes).values(recoveryCodes.map((c) => ({ userId, codeHash: hashRecoveryCode(c) })));
    await markProved(tx, tokenHash, userId, now);
    await recordAudit(tx, { action: 'staff.factor.confirmed', actor: userRef(userId), subject: userRef(userId), before: { factor: 'pending' }, after: { factor: 'confirmed', recoveryCodes: recoveryCodes.length }, at: now });
    return { status: 'ok', recoveryCodes, changed: accountChanged(userId) } as const;
  });
}

export type ProveOutcome = { status: 'ok'; recoveryCodesLeft: number | null; changed: Change[] } | { status: 'wrong' | 'replayed' | 'recoveryUsed' | 'notEnrolled' };

/** Proves the second factor of a session with a TOTP code (once per code) or an unused recovery code. */
export function proveSecondFactor({ db, seal }: Factors, userId: number, tokenHash: string, typed: TypedCode, now = new Date()): Promise<ProveOutcome> {
  return db.transaction(async (tx) => {
    const [factor] = await tx.select().from(staffFactors).where(eq(staffFactors.userId, userId)).for('update');
    if (!factor?.confirmedAt || (await rolesOf(tx, userId)).length === 0) return { status: 'notEnrolled' } as const;
    let recoveryCodesLeft: number | null = null;
    if (typed.kind === 'totp') {
      const taken = await takeStep(tx, seal, userId, factor.secret, typed.token, now, true);
      if (taken !== 'ok') return { status: taken } as const;
    } else {
      const hash = hashRecoveryCode(typed.code);
      const [known] = await tx.select().from(staffRecoveryCodes).where(and(eq(staffRecoveryCodes.userId, userId), eq(staffRecoveryCodes.codeHash, hash)));
      if (!known) return { status: 'wrong' } as const;
      const used = await tx.update(staffRecoveryCodes).set({ usedAt: now }).where(and(eq(staffRecoveryCodes.id, known.id), isNull(staffRecoveryCodes.usedAt))).returning({ id: staffRecoveryCodes.id });
      if (used.length === 0) return { status: 'recoveryUsed' } as const;
      const [left] = await tx.select({ n: count() }).from(staffRecoveryCodes).where(and(eq(staffRecoveryCodes.userId, userId), isNull(staffRecoveryCodes.usedAt)));
      recoveryCodesLeft = left?.n ?? 0;
      await recordAudit(tx, { action: 'staff.recovery.used', actor: userRef(userId), subject: userRef(userId), before: { recoveryCodes: recoveryCodesLeft + 1 }, after: { recoveryCodes: recoveryCodesLeft }, at: now });
    }
    await markProved(tx, tokenHash, userId, now);
    return { status: 'ok', recoveryCodesLeft, changed: [sessionChange({ tokenHash }), personChange({ userId })] } as const;
  });
}

/** Seeds a staff account: its roles, and optionally a confirmed TOTP secret with known recovery codes (the demo's). */
export async function seedStaff(tx: Db | Tx, userId: number, roles: readonly StaffRole[], factor?: { secret: string; recoveryCodes: readonly string[] }): Promise<void> {
  if (roles.length) await tx.insert(staffRoles).values(roles.map((role) => ({ userId, role }))).onConflictDoNothing();
  if (!factor) return;
  const [inserted] = await tx
    .insert(staffFactors)
    .values({ userId, secret: factor.secret, confirmedAt: new Date('2026-01-01T00:00:00Z') })
    .onConflictDoNothing()
    .returning({ userId: staffFactors.userId });
  if (inserted) await tx.insert(staffRecoveryCodes).values(factor.recoveryCodes.map((c) => ({ userId, codeHash: hashRecoveryCode(c) }))).onConflictDoNothing();
}
