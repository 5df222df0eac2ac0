import { describe, expect, it } from 'vitest';
import { pageCache } from './page-cache';
import { passOf } from './pass';
import { fakeContext, fakeNext } from './context.testing';
import { PageCache, PersonalPartsCache, PersonStamps, personalMarks } from '~/lib/http/page-cache';
import { VISITOR } from '~/lib/access/access';
import type { Runtime } from '~/lib/runtime/runtime.server';
import type { SessionInfo } from '~/lib/identity/session.server';

function fakeRuntime(business = { stamp: '1|0:1', fails: false }) {
  const viewer = { ...VISITOR, kind: 'learner' as const, userId: 1, contactId: 11 };
  return {
    ownRenders: new Map(),
    changeCounts: async (ibos: readonly number[]) => {
      if (business.fails) throw new Error('the database is out of reach');
      return ibos.join() === '0,7' ? business.stamp : 'another';
    },
    pages: new PageCache(),
    personalParts: new PersonalPartsCache(),
    ownPages: new PageCache(),
    personStamps: new PersonStamps(),
    catalog: { version: 1 },
    store: { viewer: async () => viewer },
    siteOrigin: () => 'http://localhost:4321',
  } as unknown as Runtime;
}

const ana = { identity: { kind: 'user', userId: 1 }, user: { id: 1, firstName: 'Ana', lastName: 'P', email: 'a@x', imageUrl: null, userType: 1 }, ibo: null, prospect: null } as unknown as SessionInfo;
const html = (body: string, status = 200) => new Response(body, { status, headers: { 'content-type': 'text/html' } });

/** One request through the step; `render` stands for the page (and what it declares). */
async function request(runtime: Runtime, path: string, render: (locals: App.Locals) => Response, opts: Parameters<typeof fakeContext>[1] = {}) {
  const counted: string[] = [];
  const { ctx } = fakeContext(path, { ...opts, locals: { runtime, session: null, pageCacheResult: (r) => counted.push(r), ...opts.locals } });
  const next = fakeNext(() => render(ctx.locals));
  const response = (await pageCache(ctx, next))!;
  return { response, rendered: next.calls, counted, ctx };
}

/** As `request`, for a page rendered asynchronously. */
async function requestAsync(runtime: Runtime, path: string, render: (locals: App.Locals) => Promise<Response>, opts: Parameters<typeof fakeContext>[1] = {}) {
  const counted: string[] = [];
  const { ctx } = fakeContext(path, { ...opts, locals: { runtime, session: null, pageCacheResult: (r) => counted.push(r), ...opts.locals } });
  const response = (await pageCache(ctx, () => render(ctx.locals)))!;
  return { response, counted };
}

describe('page cache step', () => {
  it("keeps a page declared the same for every visitor and answers the next visitor from it, with a validator and 304", async () => {
    const runtime = fakeRuntime();
    const shared = (locals: App.Locals) => ((locals.sharedPage = true), html('<p>catálogo</p>'));
    const first = await request(runtime, '/courses?b=1&a=2', shared);
    expect(first.response.headers.get('x-page-cache')).toBe('miss');
    expect(first.counted).toEqual(['miss']);
    const etag = first.response.headers.get('etag');
    expect(etag).toMatch(/^W\//);
    const second = await request(runtime, '/courses/?a=2&b=1', shared);
    expect(second.rendered).toBe(0);
    expect(second.counted).toEqual(['hit']);
    expect(second.response.headers.get('x-page-cache')).toBe('hit');
    expect(await second.response.text()).toBe('<p>catálogo</p>');
    const again = await request(runtime, '/courses?a=2&b=1', shared, { headers: { 'if-none-match': etag! } });
    expect(again.response.status).toBe(304);
    const head = await request(runtime, '/courses?a=2&b=1', shared, { method: 'HEAD' });
    expect(await head.response.text()).toBe('');
  });

  it('keys a page by the address the browser asked for, so an English page is never served for the Spanish one', async () => {
    const runtime = fakeRuntime();
    const shared = (text: string) => (locals: App.Locals) => ((locals.sharedPage = true), html(text));
    await request(runtime, '/courses', shared('English'), { originPathname: '/en/courses' });
    const spanish = await request(runtime, '/courses', shared('Español'));
    expect(spanish.rendered).toBe(1);
    expect(await (await request(runtime, '/courses', shared('x'), { originPathname: '/en/courses' })).response.text()).toBe('English');
  });

  it('keeps nothing that sets a cookie, is not HTML or was not declared, and answers nothing while a forged cookie is dropped', async () => {
    const runtime = fakeRuntime();
    for (const render of [
      (l: App.Locals) => ((l.sharedPage = true), new Response('<p>x</p>', { headers: { 'content-type': 'text/html', 'set-cookie': 'cart=1' } })),
      (l: App.Locals) => ((l.sharedPage = true), new Response('{}', { headers: { 'content-type': 'application/json' } })),
      () => html('<p>x</p>'),
    ]) {
      await request(runtime, '/page', render);
      expect((await request(runtime, '/page', render)).rendered).toBe(1);
    }
    await request(runtime, '/kept', (l) => ((l.sharedPage = true), html('kept')));
    const { ctx } = fakeContext('/kept', { locals: { runtime, session: null } });
    passOf(ctx).droppedCookie = true;
    const next = fakeNext(() => html('rendered'));
    expect(await (await pageCache(ctx, next))!.text()).toBe('rendered');
    expect((await request(runtime, '/kept', () => html('rendered'), { method: 'POST' })).rendered).toBe(1);
  });

  it("answers a logged-in reader their audience's page with their own parts, privately", async () => {
    const runtime = fakeRuntime();
    const [open, close] = personalMarks('user');
    const page = (l: App.Locals) => ((l.sharedPage = true), html(`<header>${open}Ana${close}</header>`));
    const first = await request(runtime, '/courses', page, { locals: { session: ana } });
    expect(first.response.headers.get('cache-control')).toBe('private, no-store');
    const second = await request(runtime, '/courses', page, { locals: { session: ana } });
    expect(second.rendered).toBe(0);
    expect(second.response.headers.get('cache-control')).toBe('private, no-store');
    expect(await second.response.text()).toBe(`<header>${open}Ana${close}</header>`);
    // A visitor never gets it.
    expect((await request(runtime, '/courses', () => html('visitors'))).rendered).toBe(1);
  });

  it('keeps a page rendered for one person for them, until something of theirs changes', async () => {
    const runtime = fakeRuntime();
    let n = 0;
    const own = (l: App.Locals) => ((l.ownPage = true), html(`<p>progress ${++n}</p>`));
    await request(runtime, '/mylearning', own, { locals: { session: ana } });
    const kept = await request(runtime, '/mylearning', own, { locals: { session: ana } });
    expect(kept.rendered).toBe(0);
    expect(await kept.response.text()).toBe('<p>progress 1</p>');
    expect(kept.response.headers.get('cache-control')).toBe('private, no-store');
    runtime.personStamps.changed({ contactId: 11 });
    expect(await (await request(runtime, '/mylearning', own, { locals: { session: ana } })).response.text()).toBe('<p>progress 2</p>');
  });

  it("keeps an IBO's business page for its owner while the counts of changes read the same, and not past its time", async () => {
    const business = { stamp: '1|7:3', fails: false };
    const runtime = fakeRuntime(business);
    let n = 0;
    let until = Date.now() + 60_000;
    const page = (l: App.Locals) => ((l.ownPage = true), (l.businessPage = { ibos: [0, 7], stamp: business.stamp, until }), html(`<p>people ${++n}</p>`));
    const visit = () => request(runtime, '/mybusiness/people', page, { locals: { session: ana } });
    expect(await (await visit()).response.text()).toBe('<p>people 1</p>');
    const kept = await visit();
    expect(kept.rendered).toBe(0);
    expect(await kept.response.text()).toBe('<p>people 1</p>');
    expect(kept.response.headers.get('cache-control')).toBe('private, no-store');
    // One of the IBO's people made progress (committed by any process): rendered again.
    business.stamp = '1|7:4';
    const fresh = await visit();
    expect(fresh.rendered).toBe(1);
    expect(await fresh.response.text()).toBe('<p>people 2</p>');
    expect((await visit()).rendered).toBe(0);
    // The counts cannot be read (the database out of reach): never answered from the cache.
    business.fails = true;
    expect((await visit()).rendered).toBe(1);
    business.fails = false;
    // Kept until a commission's hold ends: past it, rendered again although nothing was written.
    business.stamp = '1|7:5';
    until = Date.now() - 1;
    expect((await visit()).rendered).toBe(1);
    expect((await visit()).rendered).toBe(1);
  });

  it('with an embedded database, which tells of every committed change, reads the counts of a kept business page only after one', async () => {
    const runtime = fakeRuntime({ stamp: '1|7:3', fails: false }) as Runtime & { businessClock: () => number };
    let told = 0;
    let reads = 0;
    const read = runtime.changeCounts;
    Object.assign(runtime, { businessClock: () => told, changeCounts: (ibos: readonly number[]) => (reads++, read(ibos)) });
    const page = (l: App.Locals) => ((l.ownPage = true), (l.businessPage = { ibos: [0, 7], stamp: '1|7:3', until: Date.now() + 60_000, clock: told }), html('<p>people</p>'));
    const visit = () => request(runtime, '/mybusiness/people', page, { locals: { session: ana } });
    await visit();
    expect((await visit()).rendered).toBe(0);
    expect((await visit()).rendered).toBe(0);
    expect(reads).toBe(0);
    // Another IBO's change was committed: the counts are read once, found the same, and not again.
    told++;
    expect((await visit()).rendered).toBe(0);
    expect((await visit()).rendered).toBe(0);
    expect(reads).toBe(1);
  });

  it("renders a person's page once for many requests at once: the others wait for it and are answered from it", async () => {
    const runtime = fakeRuntime();
    let renders = 0;
    let finish = () => {};
    const slow = new Promise<void>((resolve) => (finish = resolve));
    const page = async (l: App.Locals) => {
      l.ownPage = true;
      renders++;
      await slow;
      return html('<p>my learning</p>');
    };
    const many = Promise.all(Array.from({ length: 20 }, () => requestAsync(runtime, '/mylearning', page, { locals: { session: ana } })));
    await new Promise((r) => setImmediate(r));
    finish();
    const answers = await many;
    expect(renders).toBe(1);
    expect(await Promise.all(answers.map((a) => a.response.text()))).toEqual(Array(20).fill('<p>my learning</p>'));
    expect(answers.filter((a) => a.counted[0] === 'hit')).toHaveLength(19);
    expect(runtime.ownRenders.size).toBe(0);
  });

  it("waits for a page that is not kept, then renders its own: each request still gets its answer", async () => {
    const runtime = fakeRuntime();
    let renders = 0;
    const page = async () => html(`<p>not kept ${++renders}</p>`);
    const answers = await Promise.all([1, 2, 3].map(() => requestAsync(runtime, '/account/orders', page, { locals: { session: ana } })));
    expect(renders).toBe(3);
    expect(new Set(await Promise.all(answers.map((a) => a.response.text()))).size).toBe(3);
    expect(runtime.ownRenders.size).toBe(0);
  });

  it('keeps a page that varies on a cookie once per value of it: one cart is never answered for another, and no CDN may keep it', async () => {
    const runtime = fakeRuntime();
    let renders = 0;
    const cart = (l: App.Locals, cookie: string | null) => ((l.sharedPage = true), (l.pageVaries = ['cart']), renders++, html(`<p>cart ${cookie ?? 'empty'}</p>`));
    const visit = (cookie: string | null, session: SessionInfo | null = null) =>
      request(runtime, '/purchase', (l) => cart(l, cookie), { headers: cookie ? { cookie: `theme=dark; cart=${cookie}` } : {}, locals: { session } });
    const a = await visit('A');
    expect(a.response.headers.get('cache-control')).toBe('private, no-store');
    expect(await (await visit('B')).response.text()).toBe('<p>cart B</p>');
    expect(await (await visit(null)).response.text()).toBe('<p>cart empty</p>');
    expect(renders).toBe(3);
    for (const [cookie, text] of [['A', 'cart A'], ['B', 'cart B'], [null, 'cart empty']] as const) {
      const again = await visit(cookie);
      expect(again.rendered).toBe(0);
      expect(await again.response.text()).toBe(`<p>${text}</p>`);
      expect(again.response.headers.get('cache-control')).toBe('private, no-store');
    }
    // A logged-in reader has their audience's copies, per cart too.
    expect(await (await visit('A', ana)).response.text()).toBe('<p>cart A</p>');
    expect(renders).toBe(4);
    expect((await visit('A', ana)).rendered).toBe(0);
    expect(await (await visit('C', ana)).response.text()).toBe('<p>cart C</p>');
  });
});
