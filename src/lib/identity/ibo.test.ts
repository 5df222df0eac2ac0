import { describe, expect, it } from 'vitest';
import { canConfirmProspect, iboCodeProblem, looksLikeAffiliateCode, nextReferral, normalizeIboCode, prospectSchema } from './ibo';

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

  it('trims and lower-cases the e-mail', () => {
    expect(prospectSchema.parse({ firstName: ' Ana ', lastName: 'Ruiz', email: ' Ana@Example.COM ' })).toEqual({ firstName: 'Ana', lastName: 'Ruiz', email: 'ana@example.com' });
  });

  it('enables Confirm only with every field filled, or an existing customer found (spec)', () => {
    expect(canConfirmProspect({ firstName: 'A', lastName: 'B', email: 'a@b.co' }, false)).toBe(true);
    expect(canConfirmProspect({ firstName: 'A', lastName: '', email: 'a@b.co' }, false)).toBe(false);
    expect(canConfirmProspect({ firstName: '', lastName: '', email: 'a@b.co' }, true)).toBe(true);
  });
});

describe('referrals', () => {
  it('keeps the first IBO and moves the last one', () => {
    expect(nextReferral(null, 5)).toEqual({ firstIboId: 5, lastIboId: 5 });
    expect(nextReferral({ firstIboId: 5, lastIboId: 5 }, 9)).toEqual({ firstIboId: 5, lastIboId: 9 });
  });
});
