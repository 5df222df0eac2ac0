import { describe, expect, it } from 'vitest';
import { accessUntil, applyRenewal, cancelMembership, GRACE_DAYS, grantsAccess, membershipLines, membershipState, nextRenewal, periodEnd, renewalDue, type MembershipTerm } from './membership';

const at = (iso: string) => new Date(iso);
const DAY = 24 * 60 * 60 * 1000;
const term = (over: Partial<MembershipTerm> = {}): MembershipTerm => ({ period: 'month', endsAt: at('2026-12-15T10:00:00Z'), cancelledAt: null, graceUntil: null, ...over });

describe('periodEnd', () => {
  it('adds a month or a year at the same day and time', () => {
    expect(periodEnd(at('2026-11-26T02:30:00Z'), 'month').toISOString()).toBe('2026-12-26T02:30:00.000Z');
    expect(periodEnd(at('2026-12-26T02:30:00Z'), 'month').toISOString()).toBe('2027-01-26T02:30:00.000Z');
    expect(periodEnd(at('2026-11-26T02:30:00Z'), 'year').toISOString()).toBe('2027-11-26T02:30:00.000Z');
  });
  it('ends on the last day of a shorter month', () => {
    expect(periodEnd(at('2027-01-31T08:00:00Z'), 'month').toISOString()).toBe('2027-02-28T08:00:00.000Z');
    expect(periodEnd(at('2028-01-31T08:00:00Z'), 'month').toISOString()).toBe('2028-02-29T08:00:00.000Z');
    expect(periodEnd(at('2028-02-29T08:00:00Z'), 'year').toISOString()).toBe('2029-02-28T08:00:00.000Z');
    expect(periodEnd(at('2027-03-31T08:00:00Z'), 'month').toISOString()).toBe('2027-04-30T08:00:00.000Z');
  });
  it('twelve monthly renewals from the 31st never drift past the year', () => {
    let end = at('2027-01-31T00:00:00Z');
    for (let i = 0; i < 12; i++) end = periodEnd(end, 'month');
    expect(end.getTime()).toBeLessThanOrEqual(at('2028-01-31T00:00:00Z').getTime());
  });
});

describe('state and access', () => {
  it('is active until the period ends, then due for renewal', () => {
    const m = term();
    expect(membershipState(m, at('2026-12-01T00:00:00Z'))).toBe('active');
    expect(grantsAccess(m, at('2026-12-15T09:59:59Z'))).toBe(true);
    expect(renewalDue(m, at('2026-12-15T09:59:59Z'))).toBe(false);
    expect(renewalDue(m, at('2026-12-15T10:00:00Z'))).toBe(true);
    expect(nextRenewal(m, at('2026-12-01T00:00:00Z'))).toEqual(m.endsAt);
  });
  it('cancelled: access until the period ends, no renewal, then lapsed', () => {
    const m = cancelMembership(term(), at('2026-12-01T00:00:00Z'));
    expect(membershipState(m, at('2026-12-10T00:00:00Z'))).toBe('cancelled');
    expect(grantsAccess(m, at('2026-12-15T09:00:00Z'))).toBe(true);
    expect(nextRenewal(m, at('2026-12-10T00:00:00Z'))).toBeNull();
    expect(renewalDue(m, at('2026-12-16T00:00:00Z'))).toBe(false);
    expect(grantsAccess(m, at('2026-12-15T10:00:00Z'))).toBe(false);
    expect(membershipState(m, at('2026-12-15T10:00:00Z'))).toBe('lapsed');
    expect(cancelMembership(m, at('2026-12-05T00:00:00Z')).cancelledAt).toEqual(at('2026-12-01T00:00:00Z'));
  });
});

describe('applyRenewal', () => {
  it('an approved charge adds a period from the end of the paid one, even when charged late', () => {
    const r = applyRenewal(term({ graceUntil: at('2026-12-18T10:00:00Z') }), 'approved', at('2026-12-17T00:00:00Z'));
    expect(r.kind).toBe('renewed');
    expect(r.term.endsAt.toISOString()).toBe('2027-01-15T10:00:00.000Z');
    expect(r.term.graceUntil).toBeNull();
  });
  for (const status of ['declined', 'insufficient-funds', 'processing-error'] as const) {
    it(`a ${status} renewal gives ${GRACE_DAYS} days of grace, retried daily, then lapses`, () => {
      const m = term();
      const first = applyRenewal(m, status, m.endsAt);
      expect(first.kind).toBe('grace');
      if (first.kind !== 'grace') return;
      expect(first.term.graceUntil!.getTime() - m.endsAt.getTime()).toBe(GRACE_DAYS * DAY);
      expect(first.retryAt.getTime() - m.endsAt.getTime()).toBe(DAY);
      expect(membershipState(first.term, first.retryAt)).toBe('grace');
      expect(grantsAccess(first.term, at('2026-12-18T09:59:59Z'))).toBe(true);
      expect(accessUntil(first.term)).toEqual(at('2026-12-18T10:00:00Z'));
      expect(renewalDue(first.term, first.retryAt)).toBe(true);
      const second = applyRenewal(first.term, status, first.retryAt);
      expect(second.kind).toBe('grace');
      if (second.kind !== 'grace') return;
      expect(second.term.graceUntil).toEqual(first.term.graceUntil);
      const third = applyRenewal(second.term, status, second.retryAt);
      expect(third.kind).toBe('lapsed');
      expect(grantsAccess(third.term, at('2026-12-18T10:00:00Z'))).toBe(false);
      expect(membershipState(third.term, at('2026-12-18T10:00:00Z'))).toBe('lapsed');
      expect(renewalDue(third.term, at('2026-12-18T10:00:00Z'))).toBe(false);
      expect(nextRenewal(third.term, at('2026-12-19T00:00:00Z'))).toBeNull();
    });
  }
  it('cancelling during the grace ends access at once (the paid period is over)', () => {
    const grace = applyRenewal(term(), 'declined', at('2026-12-15T10:00:00Z'));
    const cancelled = cancelMembership(grace.term, at('2026-12-16T00:00:00Z'));
    expect(grantsAccess(cancelled, at('2026-12-16T00:00:01Z'))).toBe(false);
    expect(renewalDue(cancelled, at('2026-12-16T10:00:00Z'))).toBe(false);
  });
});

describe('membershipLines', () => {
  const w = {
    plan: '{name} membership',
    started: 'Since {date}',
    renews: 'Renews on {date} with the card {card}.',
    renewsNoCard: 'Renews on {date}.',
    cancelledUntil: 'Cancelled: you keep access until {date}; it will not renew.',
    grace: 'We could not charge the renewal: we will try again, and you keep access until {date}.',
    lapsed: 'Ended on {date}.',
    states: { active: 'Active', cancelled: 'Cancelled', grace: 'Payment due', lapsed: 'Ended' },
  };
  const date = (d: Date) => d.toISOString().slice(0, 10);
  const facts = { name: 'Basic', period: 'month' as const, startsAt: at('2026-11-15T10:00:00Z'), accessUntil: at('2026-12-15T10:00:00Z'), nextRenewal: at('2026-12-15T10:00:00Z'), card: 'Visa ending in 4242' };
  it('says what comes next in each state', () => {
    expect(membershipLines({ ...facts, state: 'active' }, w, date)).toEqual({ title: 'Basic membership', state: 'Active', since: 'Since 2026-11-15', next: 'Renews on 2026-12-15 with the card Visa ending in 4242.' });
    expect(membershipLines({ ...facts, state: 'active', card: null }, w, date).next).toBe('Renews on 2026-12-15.');
    expect(membershipLines({ ...facts, state: 'cancelled', nextRenewal: null }, w, date).next).toBe('Cancelled: you keep access until 2026-12-15; it will not renew.');
    expect(membershipLines({ ...facts, state: 'grace', accessUntil: at('2026-12-18T10:00:00Z') }, w, date).next).toBe('We could not charge the renewal: we will try again, and you keep access until 2026-12-18.');
    expect(membershipLines({ ...facts, state: 'lapsed', nextRenewal: null }, w, date)).toMatchObject({ state: 'Ended', next: 'Ended on 2026-12-15.' });
  });
});
