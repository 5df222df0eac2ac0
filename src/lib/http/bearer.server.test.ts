import { describe, expect, it } from 'vitest';
import { bearerMatches } from './bearer.server';

describe('bearerMatches', () => {
  const token = 'metrics-token-0123456789';
  it('accepts the token as a Bearer credential, whatever the scheme’s case', () => {
    expect(bearerMatches(`Bearer ${token}`, token)).toBe(true);
    expect(bearerMatches(`bearer ${token}`, token)).toBe(true);
  });
  it('refuses a missing, wrong, longer, shorter or differently sent token', () => {
    for (const h of [undefined, '', 'Bearer', `Bearer ${token}x`, `Bearer ${token.slice(0, -1)}`, `Basic ${token}`, token, `Bearer ${token} extra`]) {
      expect(bearerMatches(h, token), String(h)).toBe(false);
    }
  });
});
