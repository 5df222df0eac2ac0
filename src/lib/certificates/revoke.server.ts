/**
 * Revoking a certificate so that every page showing it says so at once, in every process: by staff
 * from the back office (with a reason, audited, the holder e-mailed), and finding the certificates to
 * revoke by code or by the holder's e-mail.
 */
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { certificates, contacts, courses, jobs, users } from '../db/schema';
import { recordAudit, userRef } from '../privacy/audit.server';
import { catalogChange, personChange, type Change } from '../runtime/changes';
import { revokeCertificate } from './certificates.server';
import { certificateRef, REVOKED_MAIL_JOB, revokedMailKey, type CertificateSearch } from './revocation';

/** What a revocation needs: the database and the notice that drops every process's kept pages. */
export interface RevocationContext {
  db: Db;
  /** `runtime.catalogChanged`: kept pages (the public verification, the holder's certificate page) are dropped everywhere. */
  catalogChanged(): Promise<void>;
}

/**
 * Revokes a certificate and tells every process: its verification page and its holder's certificate
 * page are kept pages, which only a notice drops. False (and nothing told) when it was already revoked
 * or does not exist.
 */
export async function revokeEverywhere(ctx: RevocationContext, certificateId: number, now: number): Promise<boolean> {
  const revoked = await revokeCertificate(ctx.db, certificateId, now);
  if (revoked) await ctx.catalogChanged();
  return revoked;
}

/** A certificate as the back office lists it. */
export interface CertificateRecord {
  id: number;
  code: string;
  holderName: string;
  /** The holder's address now (their account's, else their contact's). */
  email: string;
  courseId: number;
  courseNameEs: string;
  courseNameEn: string;
  issuedAt: Date;
  revokedAt: Date | null;
  revokedReason: string | null;
}

/** Most certificates one search lists. */
const SEARCH_LIMIT = 50;

/** The certificates a search names: the one of a code, or those of every contact with that e-mail (oldest first). */
export async function findCertificates(db: Db, search: CertificateSearch): Promise<CertificateRecord[]> {
  if (search.by === 'nothing') return [];
  const email = sql<string>`coalesce(${users.email}, ${contacts.email})`;
  // By e-mail: the contacts of that address and of the account of that address, each found through its
  // own unique index (an `or` across the two joined tables would read both tables whole).
  const where =
    search.by === 'code'
      ? eq(certificates.code, search.code)
      : sql`${certificates.contactId} in (select c.id from ${contacts} c where lower(c.email) = ${search.email} union select c.id from ${contacts} c join ${users} u on u.id = c.user_id where lower(u.email) = ${search.email})`;
  return db
    .select({
      id: certificates.id,
      code: certificates.code,
      holderName: certificates.holderName,
      email,
      courseId: certificates.courseId,
      courseNameEs: courses.nameEs,
      courseNameEn: courses.nameEn,
      issuedAt: certificates.issuedAt,
      revokedAt: certificates.revokedAt,
      revokedReason: certificates.revokedReason,
    })
    .from(certificates)
    .innerJoin(contacts, eq(contacts.id, certificates.contactId))
    .leftJoin(users, eq(users.id, contacts.userId))
    .innerJoin(courses, eq(courses.id, certificates.courseId))
    .where(where)
    .orderBy(asc(certificates.issuedAt), asc(certificates.id))
    .limit(SEARCH_LIMIT);
}

/** The outcome of {@link revokeWithReason}. */
export type RevokeOutcome = { status: 'revoked'; certificateId: number; revokedAt: Date; changed: Change[] } | { status: 'unknown' } | { status: 'alreadyRevoked'; revokedAt: Date };

/** What staff give to revoke a certificate. */
export interface RevokeRequest {
  code: string;
  reason: string;
  /** The staff member's user id (the audit trail's actor). */
  actorUserId: number;
  /** The site's public origin, for the links of the holder's e-mail. */
  origin: string;
  now: Date;
}

/**
 * Revokes the certificate of `code` with a reason, in one transaction: the certificate (revoked, since
 * when, why), the audit trail (who, when, before and after, the reason) and the job that e-mails the
 * holder. Idempotent: a certificate already revoked (two revocations at once included: the row is locked)
 * is refused and nothing changes. `changed`: every process drops its kept pages (the verification page,
 * the status list) and the holder's own pages.
 */
export async function revokeWithReason(db: Db, req: RevokeRequest): Promise<RevokeOutcome> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select({ id: certificates.id, contactId: certificates.contactId, revokedAt: certificates.revokedAt }).from(certificates).where(eq(certificates.code, req.code)).for('update');
    if (!row) return { status: 'unknown' } as const;
    if (row.revokedAt) return { status: 'alreadyRevoked', revokedAt: row.revokedAt } as const;
    const [done] = await tx
      .update(certificates)
      .set({ revokedAt: req.now, revokedReason: req.reason })
      .where(and(eq(certificates.id, row.id), isNull(certificates.revokedAt)))
      .returning({ revokedAt: certificates.revokedAt });
    if (!done?.revokedAt) return { status: 'alreadyRevoked', revokedAt: req.now } as const;
    await recordAudit(tx, {
      action: 'certificates.revoke',
      actor: userRef(req.actorUserId),
      subject: certificateRef(row.id),
      before: { state: 'valid' },
      after: { state: 'revoked', revokedAt: req.now.toISOString(), reason: req.reason },
      at: req.now,
    });
    await tx.insert(jobs).values({ name: REVOKED_MAIL_JOB, key: revokedMailKey(row.id), payload: { certificateId: row.id, origin: req.origin }, runAt: req.now }).onConflictDoNothing({ target: jobs.key });
    return { status: 'revoked', certificateId: row.id, revokedAt: done.revokedAt, changed: [catalogChange(), personChange({ contactId: row.contactId })] } as const;
  });
}
