/** The audit log as administrators read it: newest first, filtered by actor, action and days, paged. */
import { and, count, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client';
import { auditEvents, type AuditEvent } from '../db/schema';
import { AUDIT_PAGE_SIZE, auditRange, type AuditFilter } from './staff';

/** One page of events and how many pages the filter has. */
export interface AuditPage {
  events: AuditEvent[];
  page: number;
  pages: number;
  total: number;
}

/** The events `filter` selects, newest first, page `filter.page`. */
export async function readAuditLog(db: Db, filter: AuditFilter): Promise<AuditPage> {
  const { since, until } = auditRange(filter);
  const conditions: SQL[] = [];
  if (filter.actor) conditions.push(eq(auditEvents.actor, filter.actor));
  if (filter.action) conditions.push(eq(auditEvents.action, filter.action));
  if (since) conditions.push(gte(auditEvents.at, since));
  if (until) conditions.push(lt(auditEvents.at, until));
  const where = conditions.length ? and(...conditions) : undefined;
  const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(auditEvents).where(where);
  const pages = Math.max(1, Math.ceil(n / AUDIT_PAGE_SIZE));
  const page = Math.min(filter.page, pages);
  const events = await db
    .select()
    .from(auditEvents)
    .where(where)
    .orderBy(desc(auditEvents.at), desc(auditEvents.id))
    .limit(AUDIT_PAGE_SIZE)
    .offset((page - 1) * AUDIT_PAGE_SIZE);
  return { events, page, pages, total: n };
}

/** The actions the log holds, for the filter's list. */
export async function auditActions(db: Db): Promise<string[]> {
  // One step of `audit_events_action_idx` per action name (a distinct over the whole log would read every event).
  const rows = await queryRows<{ action: string }>(
    db,
    sql`with recursive a(action) as (select min(action) from ${auditEvents} union all select (select min(e.action) from ${auditEvents} e where e.action > a.action) from a where a.action is not null) select action from a where action is not null`,
  );
  return rows.map((r) => r.action);
}
