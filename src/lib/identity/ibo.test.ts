import { describe, expect, it } from 'vitest';
import { iboCodeProblem, isOwnProspect, looksLikeAffiliateCode, nextReferral, normalizeIboCode } from './ibo';

describe('IBO codes', () => {
  it('normalises a typed code', () => {
    expect(normalizeIboCode('  horizonte01 ')).toBe('HORIZONTE01');
    expect(normalizeIboCode('MUNDO-2026_x')).toBe('MUNDO-2026_X');
  });

  it.each(['', '  ', 'ab', '../etc/passwd', '<script>', 'a b c', 'x'.repeat(33), "RUTAS99'--", 'código', null, 42])('refuses %s', (raw) => {
    expect(normalizeIboCode(raw)).toBeNull();
  });

  it('says an empty code is required and a malformed one invalid', () => {
    expect(iboCodeProblem('')).toBe('required');
    expect(iboCodeProblem('   ')).toBe('required');
    expect(iboCodeProblem('<b>')).toBe('invalid');
    expect(iboCodeProblem('HORIZONTE01')).toBeNull();
  });
});

describe('affiliate addresses', () => {
  it('treats letters-and-digits segments with a digit as codes, anything else as a page that does not exist', () => {
    for (const code of ['HORIZONTE01', 'mundo2026', 'RUTAS99']) expect(looksLikeAffiliateCode(code), code).toBe(true);
    for (const page of ['no-existe', 'contact', 'favicon.ico', 'a1', 'x'.repeat(40) + '1', 'ABC-123']) expect(looksLikeAffiliateCode(page), page).toBe(false);
  });
});

describe('whose prospect a person may be', () => {
  const ibo = { id: 3, userId: 30 };
  const prospectOf = (mainUserId: number) => ({ prospect: true, mainUserId });

  it('is the IBO’s own prospect: its contact, and at most a prospect account the IBO created', () => {
    expect(isOwnProspect(ibo, { iboId: 3 }, null)).toBe(true);
    expect(isOwnProspect(ibo, { iboId: 3 }, prospectOf(30))).toBe(true);
    // An account the IBO created whose contact is still to be made.
    expect(isOwnProspect(ibo, null, prospectOf(30))).toBe(true);
  });

  it('is never a registered customer, another IBO’s prospect, or no one at all', () => {
    expect(isOwnProspect(ibo, { iboId: 3 }, { prospect: false, mainUserId: null }), 'a prospect who signed up').toBe(false);
    expect(isOwnProspect(ibo, { iboId: null }, { prospect: false, mainUserId: null }), 'a learner').toBe(false);
    expect(isOwnProspect(ibo, null, { prospect: false, mainUserId: null }), 'a learner without a contact').toBe(false);
    expect(isOwnProspect(ibo, { iboId: null }, null), 'a contact of no IBO').toBe(false);
    expect(isOwnProspect(ibo, { iboId: 4 }, null), 'another IBO’s contact').toBe(false);
    expect(isOwnProspect(ibo, { iboId: 4 }, prospectOf(40)), 'another IBO’s prospect').toBe(false);
    expect(isOwnProspect(ibo, { iboId: 3 }, prospectOf(40)), 'a prospect account of another IBO').toBe(false);
    expect(isOwnProspect(ibo, null, null)).toBe(false);
  });
});

describe('referrals', () => {
  it('keeps the first IBO and moves the last one', () => {
    expect(nextReferral(null, 5)).toEqual({ firstIboId: 5, lastIboId: 5 });
    expect(nextReferral({ firstIboId: 5, lastIboId: 5 }, 9)).toEqual({ firstIboId: 5, lastIboId: 9 });
  });
});
