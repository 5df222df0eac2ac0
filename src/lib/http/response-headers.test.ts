import { describe, expect, it } from 'vitest';
import { privately, varyOnCookie, withHeader } from './response-headers';

describe('response headers', () => {
  it('adds Cookie to Vary once, and leaves Vary: * alone', () => {
    expect(varyOnCookie(new Response('x')).headers.get('vary')).toBe('Cookie');
    expect(varyOnCookie(new Response('x', { headers: { vary: 'Accept-Language' } })).headers.get('vary')).toBe('Accept-Language, Cookie');
    expect(varyOnCookie(new Response('x', { headers: { vary: 'cookie' } })).headers.get('vary')).toBe('cookie');
    expect(varyOnCookie(new Response('x', { headers: { vary: '*' } })).headers.get('vary')).toBe('*');
  });

  it('copies a response whose headers are immutable, keeping its status and body', async () => {
    const immutable = Response.redirect('http://x/login', 302);
    const changed = withHeader(immutable, 'vary', 'Cookie');
    expect(changed).not.toBe(immutable);
    expect(changed.status).toBe(302);
    expect(changed.headers.get('location')).toBe('http://x/login');
    expect(changed.headers.get('vary')).toBe('Cookie');
    expect(privately(new Response('x', { headers: { 'cache-control': 'public, max-age=60' } })).headers.get('cache-control')).toBe('private, no-store');
  });
});
