import { describe, expect, it } from 'vitest';
import { canConfirmProspect, prospectSchema } from './prospect';

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
