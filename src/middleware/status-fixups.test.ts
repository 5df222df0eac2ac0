import { describe, expect, it } from 'vitest';
import { statusFixups } from './status-fixups';
import { fakeContext, fakeNext } from './context.testing';
import type { SessionInfo } from '~/lib/identity/session.server';

const run = async (response: Response, opts: Parameters<typeof fakeContext>[1] = {}) => (await statusFixups(fakeContext('/en/courses', opts).ctx, fakeNext(response)))!;

describe('status fixups step', () => {
  it("answers an English page (Astro's rewrite: 302 without Location) with 200, and a real redirect as it is", async () => {
    expect((await run(new Response('page', { status: 302 }))).status).toBe(200);
    expect((await run(new Response(null, { status: 302, headers: { location: '/login' } }))).status).toBe(302);
  });

  it('answers the error page that found the database busy (500 with Retry-After) with 503', async () => {
    expect((await run(new Response('busy', { status: 500, headers: { 'retry-after': '5' } }))).status).toBe(503);
    expect((await run(new Response('broken', { status: 500 }))).status).toBe(500);
  });

  it('drops the reason phrase "OK" of a page that set another status', async () => {
    const r = await run(new Response('forbidden', { status: 403, statusText: 'OK' }));
    expect(r.status).toBe(403);
    expect(r.statusText).not.toBe('OK');
  });

  it('gives a page refused with 429 (a form posted without JavaScript) the Retry-After the action set', async () => {
    const refused = await run(new Response('too many', { status: 429 }), { locals: { retryAfterSeconds: 120 } });
    expect(refused.headers.get('retry-after')).toBe('120');
    expect((await run(new Response('too many', { status: 429 }))).headers.has('retry-after')).toBe(false);
  });

  it('adds Vary: Cookie, and keeps whatever answers a cookie holder out of shared caches', async () => {
    const page = () => new Response('page', { headers: { 'cache-control': 'public, max-age=60' } });
    const visitor = await run(page());
    expect(visitor.headers.get('vary')).toBe('Cookie');
    expect(visitor.headers.get('cache-control')).toBe('public, max-age=60');
    expect((await run(page(), { headers: { cookie: 'cart=[]' } })).headers.get('cache-control')).toBe('private, no-store');
    expect((await run(page(), { locals: { session: {} as SessionInfo } })).headers.get('cache-control')).toBe('private, no-store');
    expect((await run(new Response('x', { headers: { 'cache-control': 'no-store' } }), { headers: { cookie: 'a=1' } })).headers.get('cache-control')).toBe('no-store');
  });
});
