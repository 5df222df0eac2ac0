import { describe, expect, it } from 'vitest';
import { canConfirmProspect, iboCodeProblem, isOwnProspect, looksLikeAffiliateCode, nextReferral, normalizeIboCode, prospectSchema } from './ibo';

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

describe('prospect form', () => {
  it('requires names and a valid e-mail, with codes for each problem', () => {
    const r = prospectSchema.safeParse({ firstName: ' ', lastName: 'x'.repeat(33), email: 'nope' });
    expect(r.success).toBe(false);
    const codes = Object.fromEntries(r.error!.issues.map((i) => [i.path[0], i.message]));
    expect(codes).toEqual({ firstName: 'required', lastName: 'tooLong', email: 'email' });
  });

  it('refuses control characters in every field with their own code', () => {
    for (const ch of ['\u0000', '\n', '\u001b', '\u007f', '\u009f', '\ud83d']) {
      const r = prospectSchema.safeParse({ firstName: `Ana${ch}`, lastName: `${ch}Ruiz`, email: `ana${ch}@example.com` });
      const codes = Object.fromEntries(r.error!.issues.map((i) => [i.path[0], i.message]));
      expect(codes, JSON.stringify(ch)).toEqual({ firstName: 'invalidCharacters', lastName: 'invalidCharacters', email: 'invalidCharacters' });
    }
  });

  it('refuses format characters (a right-to-left override, zero-width spaces) in the names', () => {
    for (const ch of ['\u202e', '\u200b', '\u200e', '\u200f', '\u2066', '\u2069', '\ufeff', '\u00ad', '\u2060']) {
      const r = prospectSchema.safeParse({ firstName: `Ana${ch}`, lastName: `${ch}Ruiz`, email: 'ana@example.com' });
      const codes = Object.fromEntries(r.error!.issues.map((i) => [i.path[0], i.message]));
      expect(codes, JSON.stringify(ch)).toEqual({ firstName: 'invalidCharacters', lastName: 'invalidCharacters' });
    }
  });

  it('trims and lower-cases the e-mail', () => {
    expect(prospectSchema.parse({ firstName: ' Ana ', lastName: 'Ruiz', email: ' Ana@Example.COM ' })).toEqual({ firstName: 'Ana', lastName: 'Ruiz', email: 'ana@example.com' });
  });

  it('enables Confirm only with every field filled, or an existing customer found', () => {
    expect(canConfirmProspect({ firstName: 'A', lastName: 'B', email: 'a@b.co' }, false)).toBe(true);
    expect(canConfirmProspect({ firstName: 'A', lastName: '', email: 'a@b.co' }, false)).toBe(false);
    expect(canConfirmProspect({ firstName: '', lastName: '', email: 'a@b.co' }, true)).toBe(true);
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
