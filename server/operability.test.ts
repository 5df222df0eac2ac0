import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connect, type Socket } from 'socket.io-client';
import { openDatabase, type DbHandle } from '../src/lib/db/client';
import { migrate } from '../src/lib/db/migrate';
import { createApp, type App, type AstroHandler } from './app';
import { createLogger } from '../src/lib/http/log.server';
import { keptPage } from '../src/lib/http/etag.server';
import { pageKey } from '../src/lib/http/page-cache';
import { testRuntime } from '../src/lib/testing/runtime';
import type { Runtime } from '../src/lib/runtime/runtime.server';
import { routePattern } from './metrics';

let handle: DbHandle;
let app: App;
let base: string;
/** Lines the app's logger wrote. */
const lines: Record<string, unknown>[] = [];

const astro: AstroHandler = (req, res, next) => {
  const path = (req.url ?? '/').split('?')[0];
  if (path === '/ssr' || path?.startsWith('/courses/')) {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end('<p>ssr</p>');
  } else if (path === '/public-ssr') {
    res.setHeader('Cache-Control', 'public, max-age=60');
    res.end('<p>mine</p>');
  } else if (path === '/boom') {
    throw new Error('Failed query: select 1\nparams: ana@example.com');
  } else next?.();
};

const runtimes: Runtime[] = [];

async function build(db: DbHandle): Promise<App> {
  const client = mkdtempSync(join(tmpdir(), 'academy-ops-'));
  writeFileSync(join(client, '404.html'), '<h1>no encontrada</h1>');
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const rt = await testRuntime(db, { env: { NODE_ENV: 'production' }, logger: createLogger('info', sink) });
  runtimes.push(rt);
  return createApp({ runtime: rt, astroHandler: astro, clientDir: client });
}

async function listen(a: App): Promise<string> {
  await new Promise<void>((r) => a.server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(a.server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  handle = await openDatabase({ databaseUrl: null, dataDir: 'memory://' });
  await migrate(handle);
  app = await build(handle);
  base = await listen(app);
});

afterAll(async () => {
  await app?.close(2000);
  for (const rt of runtimes) await rt.close();
  await handle?.close();
});

/** Waits until the access line of `id` is written (it is written when the response closes). */
async function accessLine(id: string): Promise<Record<string, unknown>> {
  for (let i = 0; i < 50; i++) {
    const line = lines.find((l) => l.requestId === id && l.msg === 'request');
    if (line) return line;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`no access line for ${id}`);
}

describe('structured logs', () => {
  it('writes one JSON access line per request with id, method, path without query, status and duration', async () => {
    const r = await fetch(`${base}/ssr?token=s3cret-token`, { headers: { cookie: 'cart=secret-cart' } });
    const id = r.headers.get('x-request-id')!;
    const line = await accessLine(id);
    expect(line).toMatchObject({ level: 'info', msg: 'request', requestId: id, method: 'GET', path: '/ssr', status: 200 });
    expect(typeof line.durationMs).toBe('number');
    expect(typeof line.time).toBe('string');
    expect(JSON.stringify(lines)).not.toMatch(/s3cret-token|secret-cart/);
  });

  it('writes an unexpected error through the same logger, with its fields and without query parameters', async () => {
    const r = await fetch(`${base}/boom`);
    expect(r.status).toBe(500);
    const id = r.headers.get('x-request-id')!;
    const error = lines.find((l) => l.requestId === id && l.level === 'error');
    expect(error).toMatchObject({ msg: 'request failed', method: 'GET', path: '/boom', where: 'server', error: expect.stringContaining('params: [redacted]') });
    expect(JSON.stringify(error)).not.toContain('ana@example.com');
    expect(await accessLine(id)).toMatchObject({ status: 500 });
  });
});

describe('/metrics and /readyz', () => {
  it('labels paths by a bounded route pattern, never an id', () => {
    expect(routePattern('/courses/intro-123')).toBe('/courses');
    expect(routePattern('/en/courses/intro-123')).toBe('/en/courses');
    expect(routePattern('/ABC12345')).toBe('/other');
    expect(routePattern('/')).toBe('/');
  });

  it('exposes the request histogram by route and status class, the socket gauge and page-cache counters', async () => {
    await fetch(`${base}/courses/intro-4711`);
    const socket: Socket = connect(base, { transports: ['websocket'], reconnection: false });
    await new Promise<void>((resolve) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', () => resolve());
      socket.once('disconnect', () => resolve());
    });
    const r = await fetch(`${base}/metrics`);
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-store');
    const text = await r.text();
    socket.close();
    expect(text).toMatch(/http_request_duration_seconds_bucket\{le="[^"]+",route="\/courses",status_class="2xx"\}/);
    expect(text).not.toContain('intro-4711');
    expect(text).toMatch(/^socketio_connections \d+$/m);
    expect(text).toContain('nodejs_eventloop_lag_seconds');
    expect(text).toContain('page_cache_requests_total');
  });

  it('/readyz answers 200 when the database answers, 503 when it does not', async () => {
    const ok = await fetch(`${base}/readyz`);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('cache-control')).toBe('no-store');
    expect(await ok.json()).toEqual({ status: 'ready' });

    const closed = await openDatabase({ databaseUrl: null, dataDir: 'memory://' });
    await closed.close();
    const broken = await build(closed);
    const brokenBase = await listen(broken);
    try {
      const down = await fetch(`${brokenBase}/readyz`);
      expect(down.status).toBe(503);
      expect(down.headers.get('cache-control')).toBe('no-store');
      expect(await down.json()).toEqual({ status: 'unavailable' });
    } finally {
      await broken.close(2000);
    }
  });
});

describe('HTTP caching', () => {
  it('gives a kept page an ETag and CDN-friendly Cache-Control, and answers 304 to a matching If-None-Match', async () => {
    const url = new URL(`${base}/kept-etag`);
    runtimes[0]!.pages.set(pageKey(url), runtimes[0]!.catalog.version, keptPage(200, [['content-type', 'text/html'], ['cache-control', 'no-cache']], '<p>kept</p>'));
    const first = await fetch(url);
    expect(await first.text()).toBe('<p>kept</p>');
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^W\/".+"$/);
    expect(first.headers.get('cache-control')).toBe('public, max-age=0, s-maxage=30, stale-while-revalidate=30');
    const again = await fetch(url, { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    expect(await again.text()).toBe('');
    const changed = await fetch(url, { headers: { 'if-none-match': 'W/"other"' } });
    expect(changed.status).toBe(200);
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).toMatch(/page_cache_requests_total\{result="hit"\} [1-9]/);
  });

  it('keeps every answer to a session private, even one a page marked public', async () => {
    for (const path of ['/ssr', '/public-ssr', '/nowhere']) {
      const r = await fetch(`${base}${path}`, { headers: { cookie: 'lang=en; session=abc' } });
      expect(r.headers.get('cache-control'), path).toBe('private, no-store');
    }
    expect((await fetch(`${base}/public-ssr`)).headers.get('cache-control')).toBe('public, max-age=60');
  });
});
