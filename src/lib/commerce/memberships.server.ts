/**
 * Memberships in the database: created by a paid order (the plan's period, its price and the gateway's
 * saved token), renewed by the scheduler at the period's end by charging that token (one renewal order
 * per period, one payment attempt per try), given 3 days of grace when a renewal fails, lapsed after
 * it, and cancelled by the learner (access until the period ends). The rules are `membership.ts`.
 *
 * Every renewal try is claimed with one conditional UPDATE, so two processes (or two runs of the job)
 * never charge the same membership twice; the charge's idempotency key names the order and the try.
 */
import { and, asc, count, desc, eq, gt, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { memberships, orderItems, orders, paymentAttempts, plans, type Membership, type Order } from '../db/schema';
import type { Scheduler } from '../jobs';
import type { Logger } from '../http/log.server';
import type { ChargeResult, PaymentGateway } from './gateway';
import { PAYMENT_CONSTANTS } from './payload';
import { RENEWAL_KEY_PREFIX } from './reconcile.server';
import { applyRenewal, GRACE_DAYS, membershipState, nextRenewal, periodEnd, type MembershipPeriod, type MembershipState, type MembershipTerm } from './membership';


/** How often the scheduler looks for memberships to renew. */
export const MEMBERSHIP_RENEWAL_INTERVAL_MS = 5 * 60_000;
/** How long a claimed renewal try is held before another run may take it (a process died mid-charge). */
const CLAIM_MS = 10 * 60_000;
/** Renewals tried per run at most (the next run takes the rest). */
const BATCH = 100;

const termOf = (m: Membership): MembershipTerm => ({ period: m.period, endsAt: m.endsAt, cancelledAt: m.cancelledAt, graceUntil: m.graceUntil });

/**
 * The membership a paid order's plan line gives, inside the order's transaction: a new one for the
 * plan's period, or, when the person already holds that plan and it still opens courses, the same
 * membership one period longer (renewing again, with the new card).
 */
export async function grantMembership(tx: Tx, order: Order, line: { id: number; cents: number }, now: Date, payment: { gateway: string; token: string }): Promise<void> {
  const [plan] = await tx.select({ period: plans.period }).from(plans).where(eq(plans.id, line.id));
  if (!plan) return;
  const card = { gateway: payment.gateway, gatewayToken: payment.token || null, cardBrand: order.cardBrand, cardLast4: order.cardLast4 };
  const [held] = await tx
    .select()
    .from(memberships)
    .where(and(eq(memberships.userId, order.userId), eq(memberships.planId, line.id), gt(memberships.endsAt, now)))
    .orderBy(desc(memberships.endsAt))
    .limit(1)
    .for('update');
  if (held) {
    await tx
      .update(memberships)
      .set({ endsAt: periodEnd(held.endsAt, held.period), cancelledAt: null, graceUntil: null, nextTryAt: null, priceCents: line.cents, ...card })
      .where(eq(memberships.id, held.id));
    return;
  }
  await tx.insert(memberships).values({ userId: order.userId, planId: line.id, orderId: order.id, startsAt: now, endsAt: periodEnd(now, plan.period), period: plan.period, priceCents: line.cents, ...card });
}

/**
 * What happened to one membership's renewal try. `in-doubt`: an earlier try's charge was sent and its
 * answer is not known yet (the process making it died); the member keeps access (grace) meanwhile, and
 * no new charge is made until the gateway has answered about that one.
 */
export type RenewalResult = { membershipId: number; userId: number; outcome: 'renewed' | 'grace' | 'lapsed' | 'in-doubt' };

/** The condition of a membership whose renewal is due at `now` (`membership.ts` `renewalDue`) and not claimed. */
const due = (now: Date) =>
  and(
    isNull(memberships.cancelledAt),
    lte(memberships.endsAt, now),
    or(isNull(memberships.graceUntil), gt(memberships.graceUntil, now)),
    or(isNull(memberships.nextTryAt), lte(memberships.nextTryAt, now)),
  );

/**
 * Tries every membership renewal due at `now`, one after another; returns what happened to each. Each
 * is on its own: one that throws is logged and tried again by a later run, the others go on.
 */
export async function renewDueMemberships(db: Db, gateway: PaymentGateway, now: Date, log?: Logger): Promise<RenewalResult[]> {
  const ids = await db.select({ id: memberships.id }).from(memberships).where(due(now)).orderBy(asc(memberships.endsAt)).limit(BATCH);
  const results: RenewalResult[] = [];
  for (const { id } of ids) {
    try {
      const r = await renewMembership(db, gateway, id, now, log);
      if (r) results.push(r);
    } catch (err) {
      log?.error({ membershipId: id, err: err instanceof Error ? err.message : String(err) }, 'membership renewal failed; tried again later');
    }
  }
  return results;
}

/**
 * One renewal try of membership `id` at `now`, if it is still due and no one else claimed it: the
 * period's renewal order (made on the first try), a payment attempt, the charge of the saved token,
 * and the membership's next term. An attempt an earlier try left `started` (its process died) is first
 * asked about by its key: its answer settles this try, no charge having been made frees the way for a
 * new attempt, and an answer not known yet leaves the renewal in doubt (no second charge meanwhile).
 * From the claim on, the member is in grace: a renewal in doubt never takes access away. Null when
 * there was nothing to do.
 */
export async function renewMembership(db: Db, gateway: PaymentGateway, id: number, now: Date, log?: Logger): Promise<RenewalResult | null> {
  const [m] = await db
    .update(memberships)
    .set({ nextTryAt: new Date(now.getTime() + CLAIM_MS), graceUntil: sql`coalesce(${memberships.graceUntil}, ${memberships.endsAt} + ${`${GRACE_DAYS} days`}::interval)` })
    .where(and(eq(memberships.id, id), due(now)))
    .returning();
  if (!m) return null;
  const order = await db.transaction((tx) => renewalOrder(tx, m));
  const [unanswered] = await db
    .select()
    .from(paymentAttempts)
    .where(and(eq(paymentAttempts.orderId, order.id), eq(paymentAttempts.status, 'started')))
    .limit(1);
  let attempt: number;
  let result: ChargeResult | null = null;
  if (unanswered) {
    const answer = await gateway.lookup({ idempotencyKey: unanswered.idempotencyKey, startedAt: unanswered.createdAt, now });
    if (answer.status === 'unknown') {
      log?.warn({ membershipId: m.id, orderId: order.id, attempt: unanswered.attemptNumber }, 'membership renewal in doubt: the gateway cannot tell yet');
      return { membershipId: m.id, userId: m.userId, outcome: 'in-doubt' };
    }
    if (answer.status === 'none') {
      await db.update(paymentAttempts).set({ status: 'void', finishedAt: now }).where(and(eq(paymentAttempts.id, unanswered.id), eq(paymentAttempts.status, 'started')));
    } else {
      attempt = unanswered.attemptNumber;
      result = answer;
    }
  }
  if (result === null) {
    attempt = await db.transaction(async (tx) => {
      const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(paymentAttempts).where(eq(paymentAttempts.orderId, order.id));
      const next = n + 1;
      await tx.insert(paymentAttempts).values({ orderId: order.id, attemptNumber: next, gateway: gateway.name, idempotencyKey: `${order.idempotencyKey}-${next}`, amountCents: order.totalCents, createdAt: now });
      return next;
    });
    if (!m.gatewayToken || m.gateway !== gateway.name) {
      // No token this gateway can charge (a membership from before, or another gateway's): nothing to charge.
      result = { status: 'declined', chargeId: '' };
    } else {
      try {
        result = await gateway.charge({ amountCents: order.totalCents, currency: PAYMENT_CONSTANTS.currencyCode, token: m.gatewayToken, idempotencyKey: `${order.idempotencyKey}-${attempt}` });
      } catch (err) {
        log?.warn({ membershipId: m.id, orderId: order.id, err: err instanceof Error ? err.message : String(err) }, 'renewal charge failed');
        result = { status: 'processing-error', retryable: true };
      }
    }
  }
  const answered = result;
  const tried = attempt!;
  const next = applyRenewal(termOf(m), answered.status, now);
  await db.transaction(async (tx) => {
    await tx
      .update(paymentAttempts)
      .set({ status: answered.status, chargeId: 'chargeId' in answered && answered.chargeId ? answered.chargeId : null, finishedAt: now })
      .where(and(eq(paymentAttempts.orderId, order.id), eq(paymentAttempts.attemptNumber, tried)));
    if (next.kind === 'renewed') {
      await tx.update(orders).set({ status: 'paid', paidAt: now, failureReason: null }).where(eq(orders.id, order.id));
      await tx
        .update(memberships)
        .set({ endsAt: next.term.endsAt, graceUntil: null, nextTryAt: null, renewals: sql`${memberships.renewals} + 1` })
        .where(eq(memberships.id, m.id));
    } else if (next.kind === 'grace') {
      await tx.update(orders).set({ failureReason: answered.status }).where(eq(orders.id, order.id));
      await tx.update(memberships).set({ graceUntil: next.term.graceUntil, nextTryAt: next.retryAt }).where(eq(memberships.id, m.id));
    } else {
      await tx.update(orders).set({ status: 'failed', failureReason: answered.status }).where(eq(orders.id, order.id));
      // No further try: access ends with the grace.
      await tx.update(memberships).set({ graceUntil: next.term.graceUntil, nextTryAt: next.term.graceUntil }).where(eq(memberships.id, m.id));
    }
  });
  log?.info({ membershipId: m.id, orderId: order.id, attempt: tried, status: answered.status, outcome: next.kind }, 'membership renewal');
  return { membershipId: m.id, userId: m.userId, outcome: next.kind };
}

/** The order a period's renewal is paid with (one per membership and period end; made on the first try). */
async function renewalOrder(tx: Tx, m: Membership): Promise<Order> {
  const key = `${RENEWAL_KEY_PREFIX}${m.id}-${m.endsAt.toISOString()}`;
  const [existing] = await tx
    .select()
    .from(orders)
    .where(and(eq(orders.userId, m.userId), eq(orders.idempotencyKey, key)))
    .limit(1);
  if (existing) return existing;
  const [plan] = await tx.select().from(plans).where(eq(plans.id, m.planId));
  const [first] = m.orderId === null ? [] : await tx.select({ language: orders.language }).from(orders).where(eq(orders.id, m.orderId));
  const [order] = await tx
    .insert(orders)
    .values({
      userId: m.userId,
      status: 'pending',
      subtotalCents: m.priceCents,
      totalCents: m.priceCents,
      idempotencyKey: key,
      language: first?.language ?? 'es',
      cardBrand: (m.cardBrand ?? null) as Order['cardBrand'],
      cardLast4: m.cardLast4,
    })
    .returning();
  await tx.insert(orderItems).values({ orderId: order!.id, productKind: 'plan', productId: m.planId, productCode: plan?.code ?? `PLAN-${m.planId}`, titleEs: plan?.nameEs ?? '', titleEn: plan?.nameEn ?? '', priceCents: m.priceCents });
  return order!;
}

/**
 * The learner cancels membership `id`: no more renewals, access until the period ends. Cancelling
 * again changes nothing. `null` when the person holds no such membership (someone else's, unknown).
 */
export async function cancelMembership(db: Db, userId: number, id: number, now: Date): Promise<Membership | null> {
  const [cancelled] = await db
    .update(memberships)
    .set({ cancelledAt: now })
    .where(and(eq(memberships.id, id), eq(memberships.userId, userId), isNull(memberships.cancelledAt)))
    .returning();
  if (cancelled) return cancelled;
  const [held] = await db
    .select()
    .from(memberships)
    .where(and(eq(memberships.id, id), eq(memberships.userId, userId)));
  return held ?? null;
}

/** A membership as *my shopping* shows it. */
export interface MembershipView {
  id: number;
  planId: number;
  name: { es: string; en: string };
  period: MembershipPeriod;
  priceCents: number;
  state: MembershipState;
  startsAt: Date;
  endsAt: Date;
  /** Access until (the period's end, or the grace's). */
  accessUntil: Date;
  nextRenewal: Date | null;
  card: { brand: string; last4: string } | null;
  cancellable: boolean;
}

/** The person's memberships, newest first: the live ones and those that ended. */
export async function listMemberships(db: Db, userId: number, now: Date): Promise<MembershipView[]> {
  const rows = await db
    .select({ m: memberships, nameEs: plans.nameEs, nameEn: plans.nameEn })
    .from(memberships)
    .innerJoin(plans, eq(plans.id, memberships.planId))
    .where(eq(memberships.userId, userId))
    .orderBy(desc(memberships.endsAt));
  return rows.map(({ m, nameEs, nameEn }) => {
    const term = termOf(m);
    const state = membershipState(term, now);
    return {
      id: m.id,
      planId: m.planId,
      name: { es: nameEs, en: nameEn },
      period: m.period,
      priceCents: m.priceCents,
      state,
      startsAt: m.startsAt,
      endsAt: m.endsAt,
      accessUntil: state === 'grace' && m.graceUntil ? m.graceUntil : m.endsAt,
      nextRenewal: nextRenewal(term, now),
      card: m.cardBrand && m.cardLast4 ? { brand: m.cardBrand, last4: m.cardLast4 } : null,
      cancellable: state === 'active',
    };
  });
}

/** Registers the renewal job: every few minutes, exactly once per slot across processes. */
export function registerMembershipRenewals(scheduler: Scheduler, db: Db, gateway: PaymentGateway, onChanged: (userId: number) => void | Promise<void>, log?: Logger, intervalMs = MEMBERSHIP_RENEWAL_INTERVAL_MS): void {
  scheduler.every('membership-renewals', intervalMs, async ({ now }) => {
    for (const r of await renewDueMemberships(db, gateway, now, log)) await onChanged(r.userId);
  });
}
