import { describe, expect, it } from 'vitest';
import { actions, type AstroActions } from './actions';
import { passOf } from './pass';
import { fakeContext, fakeNext } from './context.testing';
import type { ErrorLogEntry } from '~/lib/http/errors';
import { messages } from '~/i18n';

/** Stand-ins for Astro's action error and result serialisation (the real ones need Astro's pipeline). */
class FakeActionError extends Error {
  code: string;
  constructor({ code, message }: { code: string; message?: string }) {
    super(message);
    this.code = code;
  }
}
class FakeDatabaseBusy extends FakeActionError {}
const STATUS: Record<string, number> = { BAD_REQUEST: 400, TOO_MANY_REQUESTS: 429, INTERNAL_SERVER_ERROR: 500, UNSUPPORTED_MEDIA_TYPE: 415, CONTENT_TOO_LARGE: 413 };

type Outcome = { data?: unknown; error?: FakeActionError } | (() => never);

/** Astro's actions, with one posted action whose handler gives `outcome`. */
function astroWith(outcome: Outcome, calledFrom: 'rpc' | 'form' = 'rpc') {
  const set: [string, unknown][] = [];
  const astro = {
    ActionError: FakeActionError,
    DatabaseBusy: FakeDatabaseBusy,
    getActionContext: () => ({
      action: { name: 'cart.add', calledFrom, handler: async () => (typeof outcome === 'function' ? outcome() : { data: outcome.data, error: outcome.error }) },
      setActionResult: (name: string, result: unknown) => set.push([name, result]),
      serializeActionResult: (r: { data?: unknown; error?: FakeActionError }) =>
        r.error ? { type: 'error', status: STATUS[r.error.code] ?? 500, contentType: 'application/json', body: JSON.stringify({ code: r.error.code, message: r.error.message }) } : { type: 'data', status: 200, contentType: 'application/json', body: JSON.stringify(r.data) },
    }),
  } as unknown as AstroActions;
  return { astro, set };
}

function posted(url = '/_actions/cart.add', body = '{"lang":"en"}', locals: Partial<App.Locals> = {}) {
  const logged: ErrorLogEntry[] = [];
  const { ctx } = fakeContext(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body, locals: { requestId: 'req-7', logError: (e) => logged.push(e), ...locals } });
  passOf(ctx).input = ctx.request.clone();
  return { ctx, logged };
}

describe('actions step', () => {
  it("answers a called action with its result, never rendering the page", async () => {
    const { ctx } = posted();
    const next = fakeNext();
    const r = (await actions(astroWith({ data: { items: 1 } }).astro)(ctx, next))!;
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(await r.json()).toEqual({ items: 1 });
    expect(next.calls).toBe(0);
  });

  it('replaces an unexpected failure with a sentence quoting the request id, in the language the input names; the log has the error', async () => {
    const { ctx, logged } = posted();
    const failure = new Error('Failed query: insert into "carts" params: secret');
    const r = (await actions(astroWith(() => { throw failure; }).astro)(ctx, fakeNext()))!;
    expect(r.status).toBe(500);
    const body = await r.text();
    expect(body).toContain('Something went wrong on our side.');
    expect(body).toContain('req-7');
    expect(body).not.toContain('secret');
    expect(logged).toMatchObject([{ requestId: 'req-7', where: 'action cart.add', error: failure }]);
  });

  it('answers the database busy with 503 and Retry-After', async () => {
    const { ctx } = posted();
    const r = (await actions(astroWith({ error: new FakeDatabaseBusy({ code: 'SERVICE_UNAVAILABLE', message: 'timeout' }) }).astro)(ctx, fakeNext()))!;
    expect(r.status).toBe(503);
    expect(r.headers.get('retry-after')).toBe('5');
    expect(await r.json()).toMatchObject({ message: messages('en').busy.action });
  });

  it('says when to try again after a refusal for too many attempts, and refuses a body that is not JSON in words', async () => {
    const limited = posted('/_actions/cart.add', '{}', { retryAfterSeconds: 42 }).ctx;
    const r = (await actions(astroWith({ error: new FakeActionError({ code: 'TOO_MANY_REQUESTS', message: 'slow down' }) }).astro)(limited, fakeNext()))!;
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('42');
    const unreadable = (await actions(astroWith({ data: 1 }).astro)(posted('/en/_actions/cart.add', '{not json').ctx, fakeNext()))!;
    expect(unreadable.status).toBe(400);
    expect(await unreadable.json()).toMatchObject({ message: messages('en').unreadableBody });
  });

  it("says in words that a body was too large (Astro's own refusal, by its length), and keeps an action's own sentence", async () => {
    const tooLarge = new FakeActionError({ code: 'CONTENT_TOO_LARGE', message: 'Request body exceeds 5308416 bytes' });
    const r = (await actions(astroWith({ error: tooLarge }).astro)(posted('/en/_actions/cart.add').ctx, fakeNext()))!;
    expect(r.status).toBe(413);
    expect(await r.json()).toMatchObject({ message: messages('en').bodyTooLarge });
    const own = new FakeActionError({ code: 'UNSUPPORTED_MEDIA_TYPE', message: messages('es').identity.photo.errors.notImage });
    const kept = (await actions(astroWith({ error: own }).astro)(posted().ctx, fakeNext()))!;
    expect(kept.status).toBe(415);
    expect(await kept.json()).toMatchObject({ message: messages('es').identity.photo.errors.notImage });
  });

  it("hands a form's result to the page it renders, and leaves reads alone", async () => {
    const { astro, set } = astroWith({ data: 'done' }, 'form');
    const next = fakeNext();
    await actions(astro)(posted('/cart?_action=cart.add').ctx, next);
    expect(next.calls).toBe(1);
    expect(set).toHaveLength(1);
    const read = fakeNext();
    await actions(astro)(fakeContext('/cart').ctx, read);
    expect(read.calls).toBe(1);
    expect(set).toHaveLength(1);
  });
});
