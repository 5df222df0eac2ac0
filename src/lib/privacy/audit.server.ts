/**
 * The audit trail: who did what to what, and when, with the facts before and after. Never personal
 * data: actors and subjects are references (`user:7`, `job`), facts are ids, counts, dates and states.
 * Written in the transaction of the change it records, so a change and its record stand or fall together.
 */
import { and, asc, eq } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { auditEvents, type AuditEvent } from '../db/schema';


/** An event to record. */
export interface AuditEntry {
  action: string;
  actor: string;
  subject: string;
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
  at?: Date;
}

/** A person as an audit reference. */
export const userRef = (userId: number) => `user:${userId}`;

/** Records one event (inside the caller's transaction when given one). */
export async function recordAudit(db: Db | Tx, entry: AuditEntry): Promise<void> {
  await db.insert(auditEvents).values({ action: entry.action, actor: entry.actor, subject: entry.subject, before: entry.before ?? null, after: entry.after ?? null, ...(entry.at ? { at: entry.at } : {}) });
}

/** The events of one subject, oldest first (optionally one action only). */
export function auditOf(db: Db, subject: string, action?: string): Promise<AuditEvent[]> {
  return db
    .select()
    .from(auditEvents)
    .where(action ? and(eq(auditEvents.subject, subject), eq(auditEvents.action, action)) : eq(auditEvents.subject, subject))
    .orderBy(asc(auditEvents.at), asc(auditEvents.id));
}
