/**
 * Deleting an account: asked for with the password, done by a job 14 days later unless a login cancels
 * it. The job removes or anonymizes everything but what the law makes the academy keep: orders and
 * their receipts (tied to an account with no name, e-mail or password left). Certificates stay
 * verifiable without a name: the verification page then shows the course and the date. Every session
 * ends, and kept verification pages are dropped in every process.
 *
 * The job survives `kill -9` at any line: the archive files go first (harmless to repeat), then every
 * row changes in one transaction that first checks it has not run, then the notices (harmless to repeat).
 */
import { and, eq, inArray, isNull, lt, or, sql, type AnyColumn } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import {
  certificates,
  contactMessages,
  contacts,
  dataExports,
  examAttempts,
  jobs,
  memberships,
  orders,
  passwordResets,
  purchaseAccess,
  referrals,
  sessions,
  staffFactors,
  staffRecoveryCodes,
  staffRoles,
  tracking,
  trackingCredit,
  users,
} from '../db/schema';
import { verifyPassword } from '../identity/password';
import { removePhotos } from '../identity/photo.server';
import { recordAudit, userRef } from './audit.server';
import { removeExportFiles } from './export.server';
import { type Step } from '../faults/step';
import { DELETION_JOB, deletedEmail, deletionDue, deletionJobKey, isDeletedEmail } from './privacy';
import type { Storage } from '../storage';

/** When `userId`'s account is due to be deleted, or null when no deletion is pending. */
export async function pendingDeletion(db: Db, userId: number): Promise<Date | null> {
  const [job] = await db
    .select({ runAt: jobs.runAt })
    .from(jobs)
    .where(and(eq(jobs.key, deletionJobKey(userId)), isNull(jobs.doneAt)));
  return job?.runAt ?? null;
}

/**
 * Whether `userId` is an administrator and no other administrator would be left: one whose own deletion
 * is pending does not count, so two administrators asking the same day cannot leave the academy with
 * none. The administrators' rows are locked for the transaction, so two such requests (or a request and
 * a deletion job) are decided one after the other, each seeing what the other wrote.
 */
async function isLastAdministrator(tx: Tx, userId: number): Promise<boolean> {
  const admins = (await tx.select({ userId: staffRoles.userId }).from(staffRoles).where(eq(staffRoles.role, 'administrator')).for('update')).map((a) => a.userId);
  if (!admins.includes(userId)) return false;
  const others = admins.filter((id) => id !== userId);
  if (others.length === 0) return true;
  const leaving = await tx
    .select({ key: jobs.key })
    .from(jobs)
    .where(and(inArray(jobs.key, others.map(deletionJobKey)), isNull(jobs.doneAt)));
  return leaving.length >= others.length;
}

/** The outcome of a deletion request. */
export type DeletionRequest = { status: 'wrongPassword' } | { status: 'lastAdministrator' } | { status: 'alreadyScheduled'; dueAt: Date } | { status: 'scheduled'; dueAt: Date };

/**
 * Schedules the deletion of `userId`'s account in 14 days, if `password` is theirs. A second request
 * while one is pending schedules nothing (the job key is unique: two at once give one). The academy's only
 * administrator cannot: the back office would be left with nobody to run it (`lastAdministrator`).
 */
export async function requestDeletion(db: Db, req: { userId: number; password: string; now?: Date }): Promise<DeletionRequest> {
  const now = req.now ?? new Date();
  const [user] = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, req.userId));
  if (!user?.passwordHash || !(await verifyPassword(req.password, user.passwordHash))) return { status: 'wrongPassword' };
  const dueAt = deletionDue(now);
  return db.transaction(async (tx) => {
    if (await isLastAdministrator(tx, req.userId)) return { status: 'lastAdministrator' as const };
    const inserted = await tx
      .insert(jobs)
      .values({ name: DELETION_JOB, key: deletionJobKey(req.userId), payload: { userId: req.userId }, runAt: dueAt })
      .onConflictDoNothing({ target: jobs.key })
      .returning({ id: jobs.id });
    if (inserted.length === 0) {
      const [existing] = await tx.select({ runAt: jobs.runAt }).from(jobs).where(eq(jobs.key, deletionJobKey(req.userId)));
      return { status: 'alreadyScheduled' as const, dueAt: existing?.runAt ?? dueAt };
    }
    await recordAudit(tx, { action: 'privacy.deletion.scheduled', actor: userRef(req.userId), subject: userRef(req.userId), after: { dueAt: dueAt.toISOString() }, at: now });
    return { status: 'scheduled' as const, dueAt };
  });
}

/**
 * Cancels a pending deletion (a login within the grace period): true when there was one. A deletion
 * its job is running right now (leased) is not cancelled halfway.
 */
export async function cancelDeletion(db: Db, userId: number, now = new Date()): Promise<boolean> {
  return db.transaction(async (tx) => {
    const gone = await tx
      .delete(jobs)
      .where(and(eq(jobs.key, deletionJobKey(userId)), isNull(jobs.doneAt), or(isNull(jobs.lockedUntil), lt(jobs.lockedUntil, now))))
      .returning({ runAt: jobs.runAt });
    if (gone.length === 0) return false;
    await recordAudit(tx, { action: 'privacy.deletion.cancelled', actor: userRef(userId), subject: userRef(userId), before: { dueAt: gone[0]!.runAt.toISOString() }, at: now });
    return true;
  });
}

/** The certificates that stay verifiable after a deletion (not revoked): code, course and date. */
export async function keptCertificates(db: Db, userId: number): Promise<{ code: string; courseId: number; issuedAt: Date }[]> {
  return db
    .select({ code: certificates.code, courseId: certificates.courseId, issuedAt: certificates.issuedAt })
    .from(certificates)
    .innerJoin(contacts, eq(contacts.id, certificates.contactId))
    .where(and(eq(contacts.userId, userId), isNull(certificates.revokedAt)))
    .orderBy(certificates.issuedAt);
}

/** What the deletion job needs: the database, the storage (archives, photos), and how to tell every process. */
export interface DeletionJobDeps {
  db: Db;
  storage: Storage;
  /** Every process forgets the person's sessions and viewer, and drops kept pages (verification pages show the holder). */
  sessionChanged(ref: { userId: number }): Promise<void>;
  personChanged(ref: { userId: number }): Promise<void>;
  catalogChanged(): Promise<void>;
  now?: () => Date;
}

/** Whether the deletion of `userId` is held because they are the last administrator (written to the audit log). */
async function heldAsLastAdministrator(tx: Tx, userId: number, deps: DeletionJobDeps): Promise<boolean> {
  const admins = (await tx.select({ userId: staffRoles.userId }).from(staffRoles).where(eq(staffRoles.role, 'administrator')).for('update')).map((a) => a.userId);
  if (!admins.includes(userId) || admins.length > 1) return false;
  await recordAudit(tx, { action: 'privacy.deletion.held', actor: 'job', subject: userRef(userId), after: { reason: 'lastAdministrator' }, ...(deps.now ? { at: deps.now() } : {}) });
  return true;
}

/** The deletion job (payload `{ userId }`); resumable after a crash at any line, its changes made once. */
export async function runDeletion(deps: DeletionJobDeps, payload: unknown, step: Step = () => undefined): Promise<void> {
  const { userId } = payload as { userId: number };
  const { db } = deps;
  // The academy's last administrator is never deleted (roles can change in the 14 days): the deletion is
  // held, said in the audit log, and nothing is removed. Checked again inside the deletion's transaction.
  if (await db.transaction((tx) => heldAsLastAdministrator(tx, userId, deps))) return;
  await removeExportFiles(db, deps.storage, userId);
  await removePhotos(deps.storage, userId);
  await step('files-removed');
  await db.transaction(async (tx) => {
    const [user] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
    if (!user || isDeletedEmail(user.email)) return; // done before (or no such account)
    if (await heldAsLastAdministrator(tx, userId, deps)) return;
    const own = await tx
      .select({ id: contacts.id })
      .from(contacts)
      .where(or(eq(contacts.userId, userId), sql`lower(${contacts.email}) = lower(${user.email})`));
    const ids = own.map((c) => c.id);
    const mine = (column: AnyColumn) => (ids.length > 0 ? inArray(column, ids) : sql`false`);
    const kept = await tx.update(certificates).set({ holderName: '', credential: null, revokedReason: null }).where(mine(certificates.contactId)).returning({ id: certificates.id });
    await tx.delete(tracking).where(mine(tracking.contactId));
    await tx.delete(trackingCredit).where(mine(trackingCredit.contactId));
    await tx.delete(examAttempts).where(mine(examAttempts.contactId));
    const ended = await tx.delete(sessions).where(or(eq(sessions.userId, userId), mine(sessions.contactId))).returning({ tokenHash: sessions.tokenHash });
    await tx.delete(passwordResets).where(eq(passwordResets.userId, userId));
    await tx.delete(purchaseAccess).where(eq(purchaseAccess.userId, userId));
    await tx.delete(memberships).where(eq(memberships.userId, userId));
    await tx.update(referrals).set({ userId: null }).where(eq(referrals.userId, userId));
    await tx.delete(contactMessages).where(sql`lower(${contactMessages.email}) = lower(${user.email})`);
    await tx.delete(dataExports).where(eq(dataExports.userId, userId));
    // A deleted account is no longer staff: its roles and second factor go with it.
    await tx.delete(staffRoles).where(eq(staffRoles.userId, userId));
    await tx.delete(staffFactors).where(eq(staffFactors.userId, userId));
    await tx.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.userId, userId));
    for (const id of ids) await tx.update(contacts).set({ firstName: '', lastName: '', email: deletedEmail('contact', id) }).where(eq(contacts.id, id));
    await step('in-transaction');
    // A nameless account is shown to no IBO (`ibo_sharing` false): it stays out of every IBO's people.
    await tx
      .update(users)
      .set({ email: deletedEmail('user', userId), passwordHash: null, firstName: '', lastName: '', imageUrl: null, gender: null, birthDate: null, iboSharing: false })
      .where(eq(users.id, userId));
    const [{ count }] = (await tx.select({ count: sql<number>`count(*)::int` }).from(orders).where(eq(orders.userId, userId))) as [{ count: number }];
    await recordAudit(tx, {
      action: 'privacy.deletion.done',
      actor: 'job',
      subject: userRef(userId),
      after: { certificatesKept: kept.length, ordersKept: count, sessionsEnded: ended.length, contactsAnonymized: ids.length },
      ...(deps.now ? { at: deps.now() } : {}),
    });
  });
  await step('committed');
  await deps.sessionChanged({ userId });
  await deps.personChanged({ userId });
  // Kept verification pages show the holder's name: every process drops them.
  await deps.catalogChanged();
  await step('told');
}
