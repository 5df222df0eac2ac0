import { describe, expect, it } from 'vitest';
import { crossSiteMutation } from './csrf';

const post = (headers: Record<string, string>, expected: string | null = 'http://academy.test:4321') => crossSiteMutation('POST', new Headers(headers), expected);

describe('cross-site changes', () => {
  it('accepts a change from exactly the same origin', () => {
    expect(post({ origin: 'http://academy.test:4321' })).toBe(false);
  });

  it('refuses the same host over another scheme or port, and another host', () => {
    expect(post({ origin: 'https://academy.test:4321' })).toBe(true);
    expect(post({ origin: 'http://academy.test:4322' })).toBe(true);
    expect(post({ origin: 'http://evil.example' })).toBe(true);
    expect(post({ origin: 'null' })).toBe(true);
    expect(post({ origin: 'not a url' })).toBe(true);
    expect(post({ origin: 'http://academy.test:4321' }, null)).toBe(true);
  });

  it('behind a TLS proxy, an https Origin matches an https request', () => {
    expect(post({ origin: 'https://academy.example' }, 'https://academy.example')).toBe(false);
    expect(post({ origin: 'http://academy.example' }, 'https://academy.example')).toBe(true);
  });

  it('without Origin, trusts the browser’s Sec-Fetch-Site; safe methods pass', () => {
    expect(post({ 'sec-fetch-site': 'cross-site' })).toBe(true);
    expect(post({ 'sec-fetch-site': 'same-origin' })).toBe(false);
    expect(crossSiteMutation('GET', new Headers({ origin: 'http://evil.example' }), 'http://academy.test')).toBe(false);
  });
});
