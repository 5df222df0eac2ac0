import { describe, expect, it } from 'vitest';
import { requestId } from './request-id';
import { fakeContext, fakeNext } from './context.testing';
import type { Runtime } from '~/lib/runtime/runtime.server';

const runtime = {} as Runtime;

describe('request id step', () => {
  it('gives a request without an id one, and keeps the one the server gave', async () => {
    const { ctx } = fakeContext('/courses', { locals: { runtime } });
    await requestId(ctx, fakeNext());
    expect(ctx.locals.requestId).toMatch(/^[A-Za-z0-9_-]{16}$/);
    const given = fakeContext('/courses', { locals: { runtime, requestId: 'from-the-server' } }).ctx;
    await requestId(given, fakeNext());
    expect(given.locals.requestId).toBe('from-the-server');
  });

  it('refuses to run without the runtime', () => {
    const { ctx } = fakeContext('/courses');
    const next = fakeNext();
    expect(() => requestId(ctx, next)).toThrow(/locals.runtime is missing/);
    expect(next.calls).toBe(0);
  });
});
