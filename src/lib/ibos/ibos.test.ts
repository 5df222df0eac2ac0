/**
 * The IBO form's rules, pure: codes an affiliate link can carry (case, characters, length, a digit),
 * names and e-mails without control characters or overlong text, the sponsor loop rule and the list's
 * search read from an address.
 */
import { describe, expect, it } from 'vitest';
import { looksLikeAffiliateCode } from '../identity/ibo';
import { containsPattern, iboListQuery, readIboCode, readIboForm, readIboListFilter, sponsorLoops } from './ibos';

const valid = { code: ' nuevo2026 ', companyName: 'Nuevo Viajes', businessId: '1', contactName: 'Ana Ruiz', contactEmail: 'Ana@Example.com', contactPhone: '+57 300 123 4567', accountEmail: 'IBO@example.com', sponsorCode: 'horizonte01', lang: 'es' };

describe('an IBO code', () => {
  it('is stored in capitals, letters and digits with at least one digit, so its link always works', () => {
    expect(readIboCode(' horizonte01 ')).toEqual({ ok: true, value: 'HORIZONTE01' });
    for (const code of ['HORIZONTE01', 'A12', 'X'.repeat(31) + '9']) {
      const read = readIboCode(code);
      expect(read.ok).toBe(true);
      if (read.ok) expect(looksLikeAffiliateCode(read.value)).toBe(true);
    }
  });

  it('refuses empty, overlong, digitless and codes with other characters', () => {
    expect(readIboCode('')).toMatchObject({ ok: false, problem: { problem: 'required' } });
    expect(readIboCode('A1'.repeat(17))).toMatchObject({ ok: false, problem: { problem: 'tooLong' } });
    expect(readIboCode('A'.repeat(100_000))).toMatchObject({ ok: false, problem: { problem: 'tooLong' } });
    for (const bad of ['HORIZONTE', 'AB-12', 'AB_12', 'AB 12', 'ÁB12', 'AB12\u0000', '<b>12', 'A1', 'AB12/x', '../12']) {
      expect(readIboCode(bad), bad).toMatchObject({ ok: false, problem: { field: 'code', problem: 'codeShape' } });
    }
  });
});

describe('the IBO form', () => {
  it('reads a whole form: trimmed, codes in capitals, e-mails in lower case', () => {
    expect(readIboForm(valid)).toEqual({
      ok: true,
      value: { id: null, draft: { code: 'NUEVO2026', companyName: 'Nuevo Viajes', businessId: 1, contactName: 'Ana Ruiz', contactEmail: 'ana@example.com', contactPhone: '+57 300 123 4567', accountEmail: 'ibo@example.com', sponsorCode: 'HORIZONTE01' } },
    });
    expect(readIboForm({ ...valid, sponsorCode: '', businessId: '', contactPhone: '' })).toMatchObject({ ok: true, value: { draft: { sponsorCode: null, businessId: null, contactPhone: '' } } });
  });

  it('names the field of the first problem: NUL, 100 KB, bad e-mail, bad phone, bad ids', () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ companyName: 'Viajes\u0000' }, 'companyName', 'invalidCharacters'],
      [{ companyName: 'x'.repeat(100_000) }, 'companyName', 'tooLong'],
      [{ companyName: '  ' }, 'companyName', 'required'],
      [{ contactName: 'Ana\u202eRuiz' }, 'contactName', 'invalidCharacters'],
      [{ contactEmail: 'not-an-email' }, 'contactEmail', 'email'],
      [{ contactEmail: `${'a'.repeat(100_000)}@x.com` }, 'contactEmail', 'tooLong'],
      [{ contactPhone: 'call me' }, 'contactPhone', 'phone'],
      [{ accountEmail: '' }, 'accountEmail', 'required'],
      [{ sponsorCode: 'NO-CODE' }, 'sponsorCode', 'codeShape'],
      [{ businessId: '1; drop table' }, 'businessId', 'invalidId'],
      [{ id: '-3' }, 'id', 'invalidId'],
      [{ id: '99999999999' }, 'id', 'invalidId'],
      [{ code: { nested: true } }, 'code', 'required'],
    ];
    for (const [change, field, problem] of cases) expect(readIboForm({ ...valid, ...change }), JSON.stringify(change).slice(0, 60)).toEqual({ ok: false, problem: { field, problem } });
  });
});

describe('a sponsor', () => {
  const line = new Map<number, number | null>([
    [2, 1],
    [1, null],
    [3, 2],
  ]);
  it('may be anyone above or beside, never the IBO itself or anyone below it', () => {
    expect(sponsorLoops(null, 3, line)).toBe(false);
    expect(sponsorLoops(4, 3, line)).toBe(false);
    expect(sponsorLoops(3, 3, line)).toBe(true);
    // 1 sponsors 2 sponsors 3: 3 cannot become 1's sponsor.
    expect(sponsorLoops(1, 3, line)).toBe(true);
  });
  it('refuses a line that does not end (a loop stored by other means)', () => {
    const loop = new Map<number, number | null>([
      [5, 6],
      [6, 5],
    ]);
    expect(sponsorLoops(7, 5, loop, 100)).toBe(true);
  });
});

describe('the list search', () => {
  it('ignores malformed filters and cuts long text', () => {
    expect(readIboListFilter(new URLSearchParams('q=%00horizonte&status=nope&page=-2'))).toEqual({ q: 'horizonte', status: undefined, page: 1 });
    expect(readIboListFilter(new URLSearchParams(`q=${'a'.repeat(1000)}`)).q).toHaveLength(80);
    expect(iboListQuery({ q: 'a b', status: 'suspended' }, 2)).toBe('?q=a+b&status=suspended&page=2');
  });
  it('takes % and _ literally', () => {
    expect(containsPattern('50%_a\\')).toBe('%50\\%\\_a\\\\%');
  });
});
