/**
 * Memberships as finance staff read and change them: the list (searched by the member's e-mail or name,
 * filtered by plan and state, paged), one membership with its orders and history, and the four changes
 * (`membership-admin.ts` says which state allows which).
 *
 * A membership's renewal is not a separate job row: the renewal job (`memberships.server.ts`) charges
 * every membership whose `ends_at` has passed, not cancelled, and claims each try with a conditional
 * UPDATE on the row. So moving `ends_at` moves the renewal, and setting `cancelled_at` stops it, in the
 * same UPDATE; the history line (`membership_changes`, with the reason) and the audit event are written
 * in the same transaction. The row is locked first: a change and a renewal's claim never interleave (a
 * claim needs `ends_at` passed, and every change but a cancellation needs it still ahead).
 *
 * The form's key makes a change posted twice (a double click, a retry after a crash) the first change,
 * answered again, never a second extension.
 */
import { and, count, desc, eq, ilike, isNotNull, isNull, like, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { membershipChanges, memberships, orders, plans, users, type Membership, type MembershipChangeRow } from '../db/schema';
import { displayName } from '../forms/characters';
import { recordAudit, userRef } from '../privacy/audit.server';
import type { Change } from '../runtime/changes';
import { accessUntil, nextRenewal, type MembershipState, type MembershipTerm } from './membership';
import { adminState, changedTerm, likePattern, membershipRef, MEMBERSHIPS_PAGE_SIZE, HISTORY_LIMIT, pageOf, refusalOf, termFacts, type ChangeRefusal, type MembershipChange, type MembershipFilter } from './membership-admin';
import { RENEWAL_KEY_PREFIX } from './reconcile.server';
import { noStep, type Step } from '../faults/step';

const termOf = (m: Membership): MembershipTerm => ({ period: m.period, endsAt: m.endsAt, cancelledAt: m.cancelledAt, graceUntil: m.graceUntil });
const fullName = (u: { firstName: string | null; lastName: string | null }) => displayName(`${u.firstName ?? ''} ${u.lastName ?? ''}`.trim());

/** One line of the list. */
export interface MembershipLine {
  id: number;
  member: { id: number; name: string; email: string };
  plan: { es: string; en: string };
  period: Membership['period'];
  state: MembershipState;
  startsAt: Date;
  accessUntil: Date;
}

/** A page of the list, with the plans to filter by. */
export interface MembershipListPage {
  lines: MembershipLine[];
  total: number;
  page: number;
  pages: number;
  plans: { id: number; name: { es: string; en: string } }[];
}

/** The SQL of a filter state at `now` (the same rules as `adminState`). */
function stateCondition(state: NonNullable<MembershipFilter['state']>, now: Date): SQL {
  const at = now.toISOString();
  const live = or(isNull(memberships.graceUntil), sql`${memberships.graceUntil} > ${at}`);
  if (state === 'cancelling') return and(isNotNull(memberships.cancelledAt), sql`${memberships.endsAt} > ${at}`)!;
  if (state === 'active') return and(isNull(memberships.cancelledAt), or(sql`${memberships.endsAt} > ${at}`, live))!;
  return and(sql`${memberships.endsAt} <= ${at}`, or(isNotNull(memberships.cancelledAt), and(isNotNull(memberships.graceUntil), sql`${memberships.graceUntil} <= ${at}`)))!;
}

/** The memberships `filter` selects, the latest period's end first. */
export async function listMembershipsForStaff(db: Db, filter: MembershipFilter, now: Date): Promise<MembershipListPage> {
  const conditions: SQL[] = [];
  if (filter.q) {
    const p = likePattern(filter.q);
    conditions.push(or(ilike(users.email, p), ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, p))!);
  }
  if (filter.plan !== undefined) conditions.push(eq(memberships.planId, filter.plan));
  if (filter.state) conditions.push(stateCondition(filter.state, now));
  const where = conditions.length ? and(...conditions) : undefined;
  const [[{ n } = { n: 0 }], planRows] = await Promise.all([
    db.select({ n: count() }).from(memberships).innerJoin(users, eq(users.id, memberships.userId)).where(where),
    db.select({ id: plans.id, es: plans.nameEs, en: plans.nameEn }).from(plans).orderBy(plans.id),
  ]);
  const { page, pages } = pageOf(n, filter.page);
  const rows = await db
    .select({ m: memberships, email: users.email, firstName: users.firstName, lastName: users.lastName, es: plans.nameEs, en: plans.nameEn })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .innerJoin(plans, eq(plans.id, memberships.planId))
    .where(where)
    .orderBy(desc(memberships.endsAt), desc(memberships.id))
    .limit(MEMBERSHIPS_PAGE_SIZE)
    .offset((page - 1) * MEMBERSHIPS_PAGE_SIZE);
  const lines = rows.map((r) => ({
    id: r.m.id,
    member: { id: r.m.userId, name: fullName(r), email: r.email },
    plan: { es: r.es, en: r.en },
    period: r.m.period,
    state: adminState(termOf(r.m), now),
    startsAt: r.m.startsAt,
    accessUntil: accessUntil(termOf(r.m)),
  }));
  return { lines, total: n, page, pages, plans: planRows.map((p) => ({ id: p.id, name: { es: p.es, en: p.en } })) };
}

/** One change of a membership's history, with who made it. */
export type HistoryLine = MembershipChangeRow & { actor: string | null };

/** One membership's page. */
export interface MembershipPage extends MembershipLine {
  endsAt: Date;
  cancelledAt: Date | null;
  nextRenewal: Date | null;
  renewals: number;
  priceCents: number;
  card: { brand: string; last4: string } | null;
  /** The order that bought it and its renewals' orders, newest first. */
  orders: { id: number; at: Date; status: string; totalCents: number }[];
  history: HistoryLine[];
}

/** Membership `id`'s page, or null when there is no such membership. */
export async function loadMembershipForStaff(db: Db, id: number, now: Date): Promise<MembershipPage | null> {
  const [row] = await db
    .select({ m: memberships, email: users.email, firstName: users.firstName, lastName: users.lastName, es: plans.nameEs, en: plans.nameEn })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .innerJoin(plans, eq(plans.id, memberships.planId))
    .where(eq(memberships.id, id));
  if (!row) return null;
  const m = row.m;
  const term = termOf(m);
  const [orderRows, history] = await Promise.all([
    db
      .select({ id: orders.id, at: orders.createdAt, status: orders.status, totalCents: orders.totalCents })
      .from(orders)
      .where(and(eq(orders.userId, m.userId), or(m.orderId === null ? sql`false` : eq(orders.id, m.orderId), like(orders.idempotencyKey, `${RENEWAL_KEY_PREFIX}${m.id}-%`))))
      .orderBy(desc(orders.createdAt), desc(orders.id))
      .limit(HISTORY_LIMIT),
    db
      .select({ c: membershipChanges, firstName: users.firstName, lastName: users.lastName })
      .from(membershipChanges)
      .leftJoin(users, eq(users.id, membershipChanges.actorId))
      .where(eq(membershipChanges.membershipId, id))
      .orderBy(desc(membershipChanges.createdAt), desc(membershipChanges.id))
      .limit(HISTORY_LIMIT),
  ]);
  return {
    id: m.id,
    member: { id: m.userId, name: fullName(row), email: row.email },
    plan: { es: row.es, en: row.en },
    period: m.period,
    state: adminState(term, now),
    startsAt: m.startsAt,
    accessUntil: accessUntil(term),
    endsAt: m.endsAt,
    cancelledAt: m.cancelledAt,
    nextRenewal: nextRenewal(term, now),
    renewals: m.renewals,
    priceCents: m.priceCents,
    card: m.cardBrand && m.cardLast4 ? { brand: m.cardBrand, last4: m.cardLast4 } : null,
    orders: orderRows,
    history: history.map((h) => ({ ...h.c, actor: h.firstName === null ? null : fullName(h) })),
  };
}

/** What a change asks: the days of an extension, the reason, the form's key. */
export interface ChangeRequest {
  days?: number;
  reason: string;
  key: string;
}

export type ChangeOutcome =
  | { status: 'ok'; membership: Membership; change: MembershipChangeRow; repeated: boolean; changed: Change[] }
  | { status: 'unknown' }
  | { status: 'refused'; refusal: ChangeRefusal; membership: Membership };

/** Called as a change reaches each step: the fault tests die there. */
export type MembershipStep = Step<'membership-written' | 'change-written' | 'audit-written'>;

const AUDIT_ACTIONS: Record<MembershipChange, string> = {
  extend: 'memberships.extended',
  cancelNow: 'memberships.cancelled',
  cancelAtEnd: 'memberships.cancelAtEnd',
  resume: 'memberships.resumed',
};

/**
 * Makes `change` to membership `id` at `now` for staff `actorId`: the row (its end, its cancellation, so
 * its renewal), the history line with the reason and the audit event, in one transaction, or nothing.
 * The same key again answers the first change (`repeated`), whatever the membership's state is now.
 * `changed` tells every process that the member's access changed (their kept viewer is dropped).
 */
export async function changeMembership(db: Db, actorId: number, id: number, change: MembershipChange, request: ChangeRequest, now = new Date(), step: MembershipStep = noStep): Promise<ChangeOutcome> {
  return db.transaction(async (tx): Promise<ChangeOutcome> => {
    const [m] = await tx.select().from(memberships).where(eq(memberships.id, id)).for('update');
    if (!m) return { status: 'unknown' };
    const [earlier] = await tx
      .select()
      .from(membershipChanges)
      .where(and(eq(membershipChanges.membershipId, id), eq(membershipChanges.requestKey, request.key)));
    if (earlier) return { status: 'ok', membership: m, change: earlier, repeated: true, changed: [] };
    const before = termOf(m);
    const refusal = refusalOf(change, adminState(before, now));
    if (refusal) return { status: 'refused', refusal, membership: m };
    const after = changedTerm(before, change, now, request.days ?? 0);
    const [row] = await tx
      .update(memberships)
      // A cancellation also drops a renewal try's hold (`next_try_at`): nothing is tried again.
      .set({ endsAt: after.endsAt, cancelledAt: after.cancelledAt, graceUntil: after.graceUntil, ...(change === 'cancelNow' ? { nextTryAt: null } : {}) })
      .where(eq(memberships.id, id))
      .returning();
    await step('membership-written');
    const [line] = await tx
      .insert(membershipChanges)
      .values({ membershipId: id, kind: change, days: change === 'extend' ? (request.days ?? null) : null, reason: request.reason, actorId, requestKey: request.key, endsBefore: before.endsAt, endsAfter: after.endsAt, createdAt: now })
      .returning();
    await step('change-written');
    await recordAudit(tx, {
      action: AUDIT_ACTIONS[change],
      actor: userRef(actorId),
      subject: membershipRef(id),
      before: termFacts(before, now),
      after: { ...termFacts(after, now), change: line!.id, ...(change === 'extend' ? { days: request.days } : {}) },
      at: now,
    });
    await step('audit-written');
    return { status: 'ok', membership: row!, change: line!, repeated: false, changed: [{ person: { userId: m.userId } }] };
  });
}
