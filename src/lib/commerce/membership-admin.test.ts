/** The memberships area's rules: which change each state allows, the changed term, the days' bounds, the filters. */
import { describe, expect, it } from 'vitest';
import { adminState, changedTerm, filterStateOf, likePattern, membershipQuery, readDays, readMembershipFilter, refusalOf } from './membership-admin';
import type { MembershipTerm } from './membership';

const NOW = new Date('2026-11-27T12:00:00Z');
const DAY = 86_400_000;
const term = (over: Partial<MembershipTerm> = {}): MembershipTerm => ({ period: 'month', endsAt: new Date(NOW.getTime() + 10 * DAY), cancelledAt: null, graceUntil: null, ...over });

describe('membership changes by staff', () => {
  it('refuses every change to an ended membership, and all but cancelling now during a renewal being retried', () => {
    for (const change of ['extend', 'cancelNow', 'cancelAtEnd', 'resume'] as const) expect(refusalOf(change, 'lapsed')).toBe('ended');
    expect(refusalOf('cancelNow', 'grace')).toBeNull();
    expect(refusalOf('extend', 'grace')).toBe('grace');
    expect(refusalOf('cancelAtEnd', 'grace')).toBe('grace');
    expect(refusalOf('resume', 'grace')).toBe('grace');
  });

  it('cancels at the end once and undoes it once', () => {
    expect(refusalOf('cancelAtEnd', 'active')).toBeNull();
    expect(refusalOf('cancelAtEnd', 'cancelled')).toBe('alreadyCancelling');
    expect(refusalOf('resume', 'cancelled')).toBeNull();
    expect(refusalOf('resume', 'active')).toBe('notCancelling');
    expect(refusalOf('extend', 'cancelled')).toBeNull();
  });

  it('moves the end by whole days, cancels at the end without touching it, and cancelling now ends access now', () => {
    expect(changedTerm(term(), 'extend', NOW, 30).endsAt).toEqual(new Date(NOW.getTime() + 40 * DAY));
    expect(changedTerm(term(), 'cancelAtEnd', NOW)).toEqual(term({ cancelledAt: NOW }));
    expect(changedTerm(term({ cancelledAt: NOW }), 'resume', NOW)).toEqual(term());
    expect(changedTerm(term(), 'cancelNow', NOW)).toEqual(term({ endsAt: NOW, cancelledAt: NOW }));
    // During a renewal's grace the period already ended: it stays, and the grace goes.
    const grace = term({ endsAt: new Date(NOW.getTime() - DAY), graceUntil: new Date(NOW.getTime() + 2 * DAY) });
    expect(changedTerm(grace, 'cancelNow', NOW)).toEqual({ ...grace, cancelledAt: NOW, graceUntil: null });
  });

  it('counts a period ended with its renewal still to try as grace, not ended', () => {
    expect(adminState(term({ endsAt: new Date(NOW.getTime() - 60_000) }), NOW)).toBe('grace');
    expect(adminState(term({ endsAt: new Date(NOW.getTime() - 60_000), cancelledAt: NOW }), NOW)).toBe('lapsed');
    expect(adminState(term({ endsAt: new Date(NOW.getTime() - 5 * DAY), graceUntil: new Date(NOW.getTime() - 2 * DAY) }), NOW)).toBe('lapsed');
    expect(filterStateOf('grace')).toBe('active');
    expect(filterStateOf('cancelled')).toBe('cancelling');
    expect(filterStateOf('lapsed')).toBe('ended');
  });

  it('takes 1 to 366 whole days, nothing else', () => {
    expect(readDays('30')).toBe(30);
    expect(readDays(' 366 ')).toBe(366);
    expect(readDays('1')).toBe(1);
    for (const bad of ['0', '-5', '367', '100000', '1.5', '1e2', 'abc', '', null, undefined, '٣٠', 30.5]) expect(readDays(bad), String(bad)).toBeNull();
  });
});

describe('the memberships list filters', () => {
  it('reads good filters and ignores malformed ones', () => {
    expect(readMembershipFilter(new URLSearchParams('q=ana%40example.com&plan=2&state=cancelling&page=3'))).toEqual({ q: 'ana@example.com', plan: 2, state: 'cancelling', page: 3 });
    // A search holding a NUL or another control character (which the database refuses) is no search.
    expect(readMembershipFilter(new URLSearchParams('q=ana%00x&page=2'))).toEqual({ page: 2 });
    expect(readMembershipFilter(new URLSearchParams('q=%1Bana'))).toEqual({ page: 1 });
    expect(readMembershipFilter(new URLSearchParams("plan=1' or 1=1&state=<script>&page=-1&q="))).toEqual({ page: 1 });
    expect(membershipQuery({ q: 'ana', plan: 2, state: 'ended' }, 2)).toBe('?q=ana&plan=2&state=ended&page=2');
    expect(membershipQuery({}, 1)).toBe('');
  });

  it('escapes LIKE wildcards typed in the search', () => {
    expect(likePattern('50%_off\\')).toBe('%50\\%\\_off\\\\%');
  });
});
