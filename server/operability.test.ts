import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connect, type Socket } from 'socket.io-client';
import type { DbHandle } from '../src/lib/db/client';
import { pglite } from '../src/lib/db/testing';
import { createApp, type App, type AstroHandler } from './app';
import { createLogger } from '../src/lib/http/log.server';
import { keepForAudience, lookUp } from '../src/lib/http/page-cache';
import { testRuntime } from '../src/lib/testing/runtime';
import { useTempFolders } from '../src/lib/testing/temp-folders';
import type { Runtime } from '../src/lib/runtime/runtime.server';
import { routePattern } from './metrics';
import { request } from 'node:http';
import { messages } from '../src/i18n';

/** A GET with headers fetch will not send as given (a forged Host). */
function raw(base: string, path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { headers }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

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
/** The client folders the apps serve, removed after the file's tests. */
const tempFolder = useTempFolders();

/** The token the metrics are read with in these tests. */
const TOKEN = 'metrics-test-token-0123456789';
const bearer = { authorization: `Bearer ${TOKEN}` };

async function build(db: DbHandle, env: Record<string, string> = { METRICS_TOKEN: TOKEN }): Promise<App> {
  const client = tempFolder('academy-ops-');
  writeFileSync(join(client, '404.html'), '<h1>no encontrada</h1>');
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const rt = await testRuntime(db, { env: { NODE_ENV: 'production', ...env }, logger: createLogger('info', sink) });
  runtimes.push(rt);
  return createApp({ runtime: rt, astroHandler: astro, clientDir: client });
}

async function listen(a: App): Promise<string> {
  await new Promise<void>((r) => a.server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(a.server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  handle = await pglite.create();
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
    const r = await fetch(`${base}/metrics`, { headers: bearer });
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

  it('/healthz and /readyz tell only up (200) or down (503), with no details; why goes to the log', async () => {
    for (const path of ['/healthz', '/readyz']) {
      const ok = await fetch(`${base}${path}`);
      expect(ok.status).toBe(200);
      expect(ok.headers.get('cache-control')).toBe('no-store');
      expect(await ok.text()).toBe('{"status":"up"}');
    }

    const closed = await pglite.create();
    await closed.close();
    const broken = await build(closed);
    const brokenBase = await listen(broken);
    try {
      for (const path of ['/healthz', '/readyz']) {
        const down = await fetch(`${brokenBase}${path}`);
        expect(down.status).toBe(503);
        expect(down.headers.get('cache-control')).toBe('no-store');
        expect(await down.text()).toBe('{"status":"down"}');
        const id = down.headers.get('x-request-id')!;
        expect(lines.find((l) => l.requestId === id && l.level === 'error')).toMatchObject({ msg: 'request failed', path });
      }
    } finally {
      await broken.close(2000);
    }
  });

  it('/metrics is an unknown page unless METRICS_TOKEN or METRICS_PORT is set', async () => {
    const off = await build(handle, {});
    const offBase = await listen(off);
    try {
      expect(off.metricsServer).toBeNull();
      for (const headers of [{}, bearer]) {
        const r = await fetch(`${offBase}/metrics`, { headers });
        expect(r.status).toBe(404);
        expect(await r.text()).not.toContain('http_request_duration_seconds');
      }
    } finally {
      await off.close(2000);
    }
  });

  it('/metrics on the site’s port answers only the bearer of METRICS_TOKEN, and only on an allowed Host', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token-0123456789', `Basic ${TOKEN}`, `Bearer ${TOKEN}x`]) {
      const r = await fetch(`${base}/metrics`, { headers: authorization ? { authorization, 'accept-language': 'en' } : { 'accept-language': 'en' } });
      expect(r.status, String(authorization)).toBe(401);
      expect(r.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
      expect(await r.text()).toBe(messages('en').metricsToken);
    }
    const es = await fetch(`${base}/metrics`);
    expect(await es.text()).toBe(messages('es').metricsToken);
    // A forged Host is refused before the token is even looked at, as on every other route.
    const forged = await raw(base, '/metrics', { host: 'evil.example', ...bearer });
    expect(forged.status).toBe(421);
    expect(forged.body).toBe(messages('es').unknownHost);
  });

  it('METRICS_PORT answers /metrics on a listener of its own (with the token when one is set), nothing else, under the Host check', async () => {
    const own = await build(handle, { METRICS_PORT: '9464' });
    const site = await listen(own);
    const server = own.metricsServer!;
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const metricsBase = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const r = await fetch(`${metricsBase}/metrics`);
      expect(r.status).toBe(200);
      expect(await r.text()).toContain('http_request_duration_seconds');
      expect((await fetch(`${metricsBase}/ssr`)).status).toBe(404);
      expect((await raw(metricsBase, '/metrics', { host: 'evil.example' })).status).toBe(421);
      // The site's own port has no metrics without a token.
      expect((await fetch(`${site}/metrics`)).status).toBe(404);
    } finally {
      await own.close(2000);
    }
    const both = await build(handle, { METRICS_PORT: '9465', METRICS_TOKEN: TOKEN });
    await listen(both);
    const guarded = both.metricsServer!;
    await new Promise<void>((r) => guarded.listen(0, '127.0.0.1', r));
    const guardedBase = `http://127.0.0.1:${(guarded.address() as AddressInfo).port}`;
    try {
      expect((await fetch(`${guardedBase}/metrics`)).status).toBe(401);
      expect((await fetch(`${guardedBase}/metrics`, { headers: bearer })).status).toBe(200);
    } finally {
      await both.close(2000);
    }
  });
});

describe('HTTP caching', () => {
  it('gives a kept page an ETag and CDN-friendly Cache-Control, and answers 304 to a matching If-None-Match', async () => {
    const url = new URL(`${base}/kept-etag`);
    keepForAudience(runtimes[0]!, await lookUp(runtimes[0]!, { url, session: null }), { status: 200, headers: [['content-type', 'text/html'], ['cache-control', 'no-cache']], body: '<p>kept</p>' });
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
    const metrics = await (await fetch(`${base}/metrics`, { headers: bearer })).text();
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
