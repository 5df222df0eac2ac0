import { describe, expect, it } from 'vitest';
import { protectedPaths } from './protected-paths';
import { fakeContext, fakeNext } from './context.testing';
import type { SessionInfo } from '~/lib/identity/session.server';

const user = { user: { id: 1 } } as SessionInfo;

describe('protected paths step', () => {
  it('sends a visitor on a personal page to the login page, which brings them back (303 after a post)', async () => {
    const get = (await protectedPaths(fakeContext('/en/mylearning?tab=2', { locals: { session: null } }).ctx, fakeNext()))!;
    expect(get.status).toBe(302);
    expect(get.headers.get('location')).toBe(`/en/login?next=${encodeURIComponent('/en/mylearning?tab=2')}`);
    const post = (await protectedPaths(fakeContext('/mylearning', { method: 'POST', locals: { session: null } }).ctx, fakeNext()))!;
    expect(post.status).toBe(303);
  });

  it('lets a logged-in user through, and anyone to a public page', async () => {
    const next = fakeNext();
    await protectedPaths(fakeContext('/mylearning', { locals: { session: user } }).ctx, next);
    await protectedPaths(fakeContext('/courses', { locals: { session: null } }).ctx, next);
    expect(next.calls).toBe(2);
  });
});
