/**
 * A membership's life: bought for a period (a month or a year), renewed at the period's end by
 * charging the saved gateway token, given 3 days of grace when a renewal fails (retried each day),
 * then lapsed; cancelled by the learner, it keeps its access until the period ends and is not renewed.
 * Pure: the scheduler and the access module apply these rules to the `memberships` rows.
 */
import { format } from '~/i18n/format';
import type { ChargeStatus } from './gateway';

export const MEMBERSHIP_PERIODS = ['month', 'year'] as const;
export type MembershipPeriod = (typeof MEMBERSHIP_PERIODS)[number];

/** Days of access after a failed renewal, while the renewal is retried. */
export const GRACE_DAYS = 3;
const DAY_MS = 24 * 60 * 60 * 1000;
/** How long after a failed renewal the next try comes (within the grace). */
export const RENEWAL_RETRY_MS = DAY_MS;

/** What the rules need of a membership row. */
export interface MembershipTerm {
  period: MembershipPeriod;
  /** The end of the period paid for. */
  endsAt: Date;
  /** When the learner cancelled (no renewal), or null. */
  cancelledAt: Date | null;
  /** The end of the grace after a failed renewal, or null when the last renewal did not fail. */
  graceUntil: Date | null;
}

export type MembershipState = 'active' | 'cancelled' | 'grace' | 'lapsed';

/**
 * The end of a period that starts at `start`: the same day and time one month or one year later, or
 * the last day of that month when it is shorter (31 January → 28/29 February; 29 February → 28 February).
 */
export function periodEnd(start: Date, period: MembershipPeriod): Date {
  const months = period === 'month' ? 1 : 12;
  const y = start.getUTCFullYear();
  const m = start.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  const end = new Date(start);
  end.setUTCDate(1);
  end.setUTCFullYear(y, m, Math.min(start.getUTCDate(), lastDay));
  return end;
}

/** Until when the membership opens what its plan unlocks: the period's end, or the grace's while a renewal is retried. */
export function accessUntil(m: MembershipTerm): Date {
  return !m.cancelledAt && m.graceUntil && m.graceUntil > m.endsAt ? m.graceUntil : m.endsAt;
}

/** Whether the membership opens its plan's courses at `now`. */
export function grantsAccess(m: MembershipTerm, now: Date): boolean {
  return now < accessUntil(m);
}

/** Where the membership stands at `now`. */
export function membershipState(m: MembershipTerm, now: Date): MembershipState {
  if (now < m.endsAt) return m.cancelledAt ? 'cancelled' : 'active';
  if (!m.cancelledAt && m.graceUntil && now < m.graceUntil) return 'grace';
  return 'lapsed';
}

/** The next renewal charge, or null when there is none (cancelled or lapsed). */
export function nextRenewal(m: MembershipTerm, now: Date): Date | null {
  if (m.cancelledAt) return null;
  const state = membershipState(m, now);
  if (state === 'lapsed') return null;
  return m.endsAt;
}

/** Whether the scheduler should charge a renewal at `now`. */
export function renewalDue(m: MembershipTerm, now: Date): boolean {
  if (m.cancelledAt || now < m.endsAt) return false;
  // The first try at the period's end; after a failure, until the grace ends.
  return m.graceUntil === null || now < m.graceUntil;
}

/** A renewal's outcome applied to the membership: the new term, and what the scheduler does next. */
export type RenewalOutcome =
  | { kind: 'renewed'; term: MembershipTerm }
  | { kind: 'grace'; term: MembershipTerm; retryAt: Date }
  | { kind: 'lapsed'; term: MembershipTerm };

/**
 * The membership after a renewal charge answered `status` at `now`: approved → the next period,
 * counted from the end of the one paid for (a late charge does not shorten it); refused or failed →
 * grace (3 days from the period's end, retried daily), or lapsed once the grace is over.
 */
export function applyRenewal(m: MembershipTerm, status: ChargeStatus, now: Date): RenewalOutcome {
  if (status === 'approved') {
    return { kind: 'renewed', term: { ...m, endsAt: periodEnd(m.endsAt, m.period), graceUntil: null } };
  }
  const graceUntil = m.graceUntil ?? new Date(m.endsAt.getTime() + GRACE_DAYS * DAY_MS);
  const retryAt = new Date(now.getTime() + RENEWAL_RETRY_MS);
  if (retryAt >= graceUntil) return { kind: 'lapsed', term: { ...m, graceUntil } };
  return { kind: 'grace', term: { ...m, graceUntil }, retryAt };
}

/** The learner cancels at `now`: no renewal, access until the period ends. Cancelling twice keeps the first date. */
export function cancelMembership(m: MembershipTerm, now: Date): MembershipTerm {
  return m.cancelledAt ? m : { ...m, cancelledAt: now };
}

/** A membership as *my shopping* shows it (what `memberships.server.ts` `listMemberships` returns). */
export interface MembershipFacts {
  name: string;
  period: MembershipPeriod;
  state: MembershipState;
  startsAt: Date;
  accessUntil: Date;
  nextRenewal: Date | null;
  /** "Visa ending in 4242", or null without a saved card. */
  card: string | null;
}

/** The words of a membership's lines (the `commerce.memberships` texts). */
export interface MembershipWords {
  plan: string;
  started: string;
  renews: string;
  renewsNoCard: string;
  cancelledUntil: string;
  grace: string;
  lapsed: string;
  states: Record<MembershipState, string>;
}

/** The title, state and the one sentence that says what comes next, with dates written by `date`. */
export function membershipLines(f: MembershipFacts, w: MembershipWords, date: (d: Date) => string): { title: string; state: string; since: string; next: string } {
  const title = format(w.plan, { name: f.name });
  const since = format(w.started, { date: date(f.startsAt) });
  let next: string;
  if (f.state === 'active' && f.nextRenewal) next = f.card ? format(w.renews, { date: date(f.nextRenewal), card: f.card }) : format(w.renewsNoCard, { date: date(f.nextRenewal) });
  else if (f.state === 'cancelled') next = format(w.cancelledUntil, { date: date(f.accessUntil) });
  else if (f.state === 'grace') next = format(w.grace, { date: date(f.accessUntil) });
  else next = format(w.lapsed, { date: date(f.accessUntil) });
  return { title, state: w.states[f.state], since, next };
}
