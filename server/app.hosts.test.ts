/** Hosts the production server answers to, pages kept per public origin, and forwarded headers believed only behind a trusted proxy. */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get } from 'node:http';
import { createApp, type App } from './app';
import { testRuntime } from '../src/lib/testing/runtime';
import { useTempFolders } from '../src/lib/testing/temp-folders';
import type { Runtime } from '../src/lib/runtime/runtime.server';
import { serveTestApp, handle, base, astro, raw, keepPage } from './app.testing';

serveTestApp();

describe('Host header (Trust #4, #5)', () => {
  it('refuses a Host the academy does not answer to, with a localized 421, before any file, cache or page', async () => {
    await keepPage(`${base}/kept-host`, { status: 200, headers: [['content-type', 'text/html']], body: '<p>kept</p>' });
    for (const path of ['/kept-host', '/about-us', '/ssr', '/_astro/app.abc123.js', '/en/courses-details/8']) {
      const r = await raw(path, { host: 'evil.example', 'accept-language': 'en' });
      expect(r.status, path).toBe(421);
      expect(r.body.toString()).toBe('Unknown address: this academy does not answer to that host name.');
      expect(r.headers['x-request-id']).toBeDefined();
    }
    expect((await raw('/ssr', { host: 'evil.example' })).body.toString()).toContain('Dirección desconocida');
    // A missing or malformed Host is no better.
    expect((await raw('/ssr', { host: 'localhost/evil' })).status).toBe(421);
    expect((await raw('/ssr', { host: '127.0.0.1@evil.example' })).status).toBe(421);
  });

  it('keeps pages per public origin: a page kept for one allowed host is not served under another', async () => {
    const port = new URL(base).port;
    await keepPage(`${base}/kept-origin`, { status: 200, headers: [['content-type', 'text/html']], body: '<p>for 127.0.0.1</p>' });
    expect((await raw('/kept-origin')).body.toString()).toBe('<p>for 127.0.0.1</p>');
    const other = await raw('/kept-origin', { host: `localhost:${port}` });
    expect(other.status).toBe(404);
    expect(other.headers['x-page-cache']).toBeUndefined();
  });

  it('ignores X-Forwarded-* headers unless a proxy is trusted: Astro never sees them', async () => {
    const r = await raw('/echo', { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.9', forwarded: 'host=evil.example' });
    const seen = JSON.parse(r.body.toString()) as { headers: Record<string, string>; locals: { requestOrigin: string } };
    for (const h of ['x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-for', 'forwarded']) expect(seen.headers[h], h).toBeUndefined();
    expect(seen.headers.host).toBe(new URL(base).host);
    expect(seen.locals.requestOrigin).toBe(base);
  });
});

describe('behind a trusted proxy (TRUST_PROXY)', () => {
  let proxied: App;
  let proxiedRuntime: Runtime;
  let proxiedBase: string;
  const echo = (headers: Record<string, string>) =>
    new Promise<{ status: number; id: string | undefined; seen: { headers: Record<string, string>; locals: { requestId: string; requestOrigin: string } } }>((resolve, reject) => {
      get(`${proxiedBase}/echo`, { headers }, (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, id: res.headers['x-request-id'] as string | undefined, seen: body.startsWith('{') ? JSON.parse(body) : { headers: {}, locals: {} } }));
      }).on('error', reject);
    });

  const tempFolder = useTempFolders();
  beforeAll(async () => {
    proxiedRuntime = await testRuntime(handle, { env: { NODE_ENV: 'production', TRUST_PROXY: '1', PUBLIC_URL: 'https://academy.example', ALLOWED_HOSTS: 'localhost,127.0.0.1' } });
    proxied = createApp({ runtime: proxiedRuntime, astroHandler: astro, clientDir: tempFolder('academy-client-') });
    await new Promise<void>((r) => proxied.server.listen(0, '127.0.0.1', r));
    proxiedBase = `http://127.0.0.1:${(proxied.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await proxied?.close(2000);
    await proxiedRuntime?.close();
  });

  it('believes the proxy’s scheme and host: the origin a change must come from is https://academy.example', async () => {
    const { status, seen } = await echo({ host: '10.0.0.5:4321', 'x-forwarded-host': 'academy.example', 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.9' });
    expect(status).toBe(200);
    expect(seen.headers.host).toBe('academy.example');
    expect(seen.headers['x-forwarded-proto']).toBe('https');
    expect(seen.headers['x-forwarded-for']).toBe('203.0.113.9');
    expect(seen.headers['x-forwarded-host']).toBeUndefined();
    expect(seen.locals.requestOrigin).toBe('https://academy.example');
  });

  it('still refuses a forwarded host that is not allowed', async () => {
    expect((await echo({ 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' })).status).toBe(421);
  });

  it('keeps a safe-looking request id from the proxy, and only that', async () => {
    expect((await echo({ 'x-request-id': 'proxy-id-0001' })).id).toBe('proxy-id-0001');
    expect((await echo({ 'x-request-id': 'bad id <script>' })).id).toMatch(/^[A-Za-z0-9_-]{16}$/);
  });
});
