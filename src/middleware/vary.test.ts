import { describe, expect, it } from 'vitest';
import { varyOnCookies } from './vary';
import { fakeContext, fakeNext } from './context.testing';

describe('vary step', () => {
  it('makes every answer vary on Cookie, a redirect too', async () => {
    const { ctx } = fakeContext('/courses');
    expect((await varyOnCookies(ctx, fakeNext(new Response('page', { headers: { vary: 'Accept-Language' } }))))!.headers.get('vary')).toBe('Accept-Language, Cookie');
    const redirect = (await varyOnCookies(ctx, fakeNext(() => Response.redirect('http://localhost:4321/login', 302))))!;
    expect(redirect.headers.get('vary')).toBe('Cookie');
    expect(redirect.headers.get('location')).toBe('http://localhost:4321/login');
  });
});
