/** The people area's pure rules: the search read from an address, ids, user types, a grant's reason, and who may be blocked. */
import { describe, expect, it } from 'vitest';
import { USER_TYPE } from '../db/schema';
import { blockRefused, escapeLike, pageOf, personTypeOf, readPeopleSearch, readPersonId, readPersonType, readReason, searchQuery, searchTerms, PEOPLE_PAGE_SIZE } from './people';

const search = (q: Record<string, string>) => readPeopleSearch(new URLSearchParams(q));

describe('the people search', () => {
  it('reads the text (trimmed, spaces joined) and the page, and refuses control characters and overlong text', () => {
    expect(search({ q: '  Laura   Méndez ', page: '2' })).toEqual({ ok: true, value: { q: 'Laura Méndez', page: 2 } });
    expect(search({})).toEqual({ ok: true, value: { q: '', page: 1 } });
    for (const page of ['0', '-1', 'x', '1.5', '']) expect(search({ page })).toEqual({ ok: true, value: { q: '', page: 1 } });
    expect(search({ page: '999999' })).toMatchObject({ ok: true, value: { page: 400 } });
    expect(search({ q: 'ana\u0000' })).toEqual({ ok: false, problem: 'invalid' });
    expect(search({ q: 'a\nb' })).toEqual({ ok: false, problem: 'invalid' });
    expect(search({ q: 'x'.repeat(100 * 1024) })).toEqual({ ok: false, problem: 'invalid' });
    expect(search({ q: 'x'.repeat(200) })).toMatchObject({ ok: true });
  });

  it('matches like-wildcards as themselves and reads a code only when the text can be one', () => {
    expect(escapeLike('50%_off\\')).toBe('50\\%\\_off\\\\');
    expect(searchTerms('Ana_%')).toEqual({ pattern: '%ana\\_\\%%', code: null });
    expect(searchTerms('horizonte01')).toEqual({ pattern: '%horizonte01%', code: 'HORIZONTE01' });
    expect(searchTerms('ana@example.com').code).toBeNull();
  });

  it('links a page of a search and clamps the page to the last one', () => {
    expect(searchQuery({ q: 'ana pérez', page: 1 })).toBe('?q=ana+p%C3%A9rez');
    expect(searchQuery({ q: '', page: 3 })).toBe('?page=3');
    expect(searchQuery({ q: '', page: 1 })).toBe('');
    expect(pageOf(0, 5)).toEqual({ page: 1, pages: 1 });
    expect(pageOf(PEOPLE_PAGE_SIZE * 2 + 1, 9)).toEqual({ page: 3, pages: 3 });
  });
});

describe('ids, types and reasons', () => {
  it('takes a positive 32-bit integer in digits as an id, nothing else', () => {
    expect(readPersonId('42')).toEqual({ ok: true, id: 42 });
    expect(readPersonId(7)).toEqual({ ok: true, id: 7 });
    for (const raw of ['0', '-3', '1e3', 'abc', '2147483648', '12.0', '', null, undefined, {}, 'ACAD-1', '4\u00002']) expect(readPersonId(raw)).toEqual({ ok: false });
  });

  it('knows the academy user types, by name and by stored number', () => {
    expect(readPersonType('refused')).toBe('refused');
    for (const raw of ['root', 'Learner', '1', '', null, 3]) expect(readPersonType(raw)).toBeNull();
    expect(personTypeOf(USER_TYPE.prospect)).toBe('prospect');
    expect(personTypeOf(42)).toBeNull();
  });

  it('needs a reason of 3 to 500 characters without control characters', () => {
    expect(readReason('  Compensación por el corte del 12 de mayo  ')).toEqual({ ok: true, reason: 'Compensación por el corte del 12 de mayo' });
    expect(readReason('Línea uno\nLínea dos')).toMatchObject({ ok: true });
    expect(readReason('')).toEqual({ ok: false, problem: 'required' });
    expect(readReason(undefined)).toEqual({ ok: false, problem: 'required' });
    expect(readReason('ok')).toEqual({ ok: false, problem: 'tooShort' });
    expect(readReason('x'.repeat(501))).toEqual({ ok: false, problem: 'tooLong' });
    expect(readReason('x'.repeat(100 * 1024))).toEqual({ ok: false, problem: 'tooLong' });
    expect(readReason('regalo\u0000')).toEqual({ ok: false, problem: 'invalid' });
  });
});

describe('who may be blocked', () => {
  it('never oneself, never the last administrator who can log in', () => {
    expect(blockRefused(1, 1, true, 3)).toBe('self');
    expect(blockRefused(1, 2, true, 1)).toBe('lastAdministrator');
    expect(blockRefused(1, 2, true, 2)).toBeNull();
    expect(blockRefused(1, 2, false, 1)).toBeNull();
  });
});

describe("the people actions' declarations", () => {
  it('let support staff and administrators in; editors and finance are refused (403), learners too, visitors must log in (401)', async () => {
    const { ACTION_RULES } = await import('../../actions/access');
    const { accessVerdict } = await import('../access/policy');
    const names = Object.keys(ACTION_RULES).filter((n) => n.startsWith('people.'));
    expect(names.sort()).toEqual(['people.block', 'people.endSessions', 'people.grantCourse', 'people.resendVerification', 'people.sendReset', 'people.setType', 'people.unblock']);
    for (const name of names) {
      const { access } = ACTION_RULES[name as keyof typeof ACTION_RULES];
      expect(accessVerdict(access, { session: 'user', roles: ['support'] }), name).toBe('allowed');
      expect(accessVerdict(access, { session: 'user', roles: ['administrator'] }), name).toBe('allowed');
      for (const role of ['editor', 'finance'] as const) expect(accessVerdict(access, { session: 'user', roles: [role] }), `${name} ${role}`).toBe('forbidden');
      expect(accessVerdict(access, { session: 'user', roles: [] }), name).toBe('forbidden');
      expect(accessVerdict(access, { session: 'visitor', roles: [] }), name).toBe('unauthorized');
    }
  });
});
