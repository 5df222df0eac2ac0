import { describe, expect, it } from 'vitest';
import { cookieValue } from './cookies';

describe('cookieValue', () => {
  it('reads the session cookie among others', () => {
    expect(cookieValue('a=1; session=abc%2Bdef; b=2', 'session')).toBe('abc+def');
    expect(cookieValue('xsession=1; session_x=2', 'session')).toBeUndefined();
    expect(cookieValue(undefined, 'session')).toBeUndefined();
    expect(cookieValue('session=%E0%A4%A', 'session')).toBe('%E0%A4%A');
  });
});
