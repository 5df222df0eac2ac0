import { describe, expect, it } from 'vitest';
import { failures } from './failures';
import { passOf } from './pass';
import { failingNext, fakeContext, fakeNext } from './context.testing';
import type { ErrorLogEntry } from '~/lib/http/errors';
import { messages } from '~/i18n';

/** A query that found no free connection in time, as Drizzle wraps the driver's error. */
const busy = () => new Error('Failed query: select 1', { cause: new Error('timeout exceeded when trying to connect') });

function context(url: string, opts: Parameters<typeof fakeContext>[1] = {}) {
  const logged: ErrorLogEntry[] = [];
  const made = fakeContext(url, { ...opts, locals: { requestId: 'req-1', logError: (e) => logged.push(e), ...opts.locals } });
  return { ...made, logged };
}

describe('failures step', () => {
  it('keeps a copy of a posted action for the later steps, and passes answers through', async () => {
    const { ctx } = context('/_actions/cart.add', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"lang":"en"}' });
    expect((await failures(ctx, fakeNext()))!.status).toBe(200);
    expect(await passOf(ctx).input?.json()).toEqual({ lang: 'en' });
    const page = context('/courses').ctx;
    await failures(page, fakeNext());
    expect(passOf(page).input).toBeNull();
  });

  it('logs an unexpected failure once, with the request id, and lets Astro show its error page', async () => {
    const { ctx, logged } = context('/courses');
    const error = new Error('boom');
    await expect(failures(ctx, failingNext(error))).rejects.toBe(error);
    // The error page renders through the middleware again: the same error is not logged twice.
    await expect(failures(context('/500', { locals: { logError: (e) => logged.push(e) } }).ctx, failingNext(error))).rejects.toBe(error);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ requestId: 'req-1', method: 'GET', path: '/courses', where: 'page', error });
  });

  it('answers a page the database could not serve with the busy page, in the language of the address', async () => {
    const { ctx, recorded } = context('/courses', { originPathname: '/en/courses/', routePattern: '/courses' });
    const r = (await failures(ctx, failingNext(busy())))!;
    expect(recorded.rewrites).toEqual(['/500']);
    expect(await r.text()).toBe('rewritten to /500');
    expect(ctx.locals.busyPage).toMatchObject({ locale: 'en', retryHref: '/en/courses' });
  });

  it("answers an action the database could not serve in its caller's shape: 503, Retry-After, the language its input names", async () => {
    const { ctx } = context('/_actions/cart.add', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"lang":"en"}' });
    const r = (await failures(ctx, failingNext(busy())))!;
    expect(r.status).toBe(503);
    expect(r.headers.get('retry-after')).toBe('5');
    expect(r.headers.get('content-language')).toBe('en');
    expect(await r.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: messages('en').busy.action });
  });
});
