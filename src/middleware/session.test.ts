import { describe, expect, it } from 'vitest';
import { session } from './session';
import { passOf } from './pass';
import { fakeContext, fakeNext } from './context.testing';
import type { Runtime } from '~/lib/runtime/runtime.server';
import type { SessionInfo } from '~/lib/identity/session.server';

const ana = { identity: { kind: 'user', userId: 1 }, user: { id: 1 } } as unknown as SessionInfo;
const runtimeReading = (read: (token: string) => Promise<SessionInfo | null>) => ({ sessions: { read } }) as unknown as Runtime;
const sessions = runtimeReading(async (token) => (token === 'good' ? ana : null));

describe('session step', () => {
  it('reads the session cookie into locals', async () => {
    const { ctx, recorded } = fakeContext('/courses', { cookies: { session: 'good' }, locals: { runtime: sessions } });
    await session(ctx, fakeNext());
    expect(ctx.locals.session).toBe(ana);
    expect(ctx.locals.identity).toBe(ana.identity);
    expect(recorded.deleted).toEqual([]);
  });

  it('drops a forged, expired or revoked cookie, and says so to the later steps', async () => {
    const { ctx, recorded } = fakeContext('/courses', { cookies: { session: 'forged' }, locals: { runtime: sessions } });
    const next = fakeNext();
    await session(ctx, next);
    expect(ctx.locals.session).toBeNull();
    expect(ctx.locals.identity).toBeNull();
    expect(recorded.deleted).toEqual(['session']);
    expect(passOf(ctx).droppedCookie).toBe(true);
    expect(next.calls).toBe(1);
  });

  it('a visitor has no session; a session that cannot be checked fails the request, except on the error page', async () => {
    const visitor = fakeContext('/courses', { locals: { runtime: sessions } }).ctx;
    await session(visitor, fakeNext());
    expect(visitor.locals.session).toBeNull();
    const down = runtimeReading(() => Promise.reject(new Error('database down')));
    await expect(session(fakeContext('/courses', { cookies: { session: 'good' }, locals: { runtime: down } }).ctx, fakeNext())).rejects.toThrow('database down');
    const { ctx, recorded } = fakeContext('/500', { routePattern: '/500', cookies: { session: 'good' }, locals: { runtime: down } });
    await session(ctx, fakeNext());
    expect(ctx.locals.session).toBeNull();
    expect(recorded.deleted).toEqual([]);
  });
});
