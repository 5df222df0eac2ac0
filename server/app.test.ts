import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connect } from 'socket.io-client';
import { get } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { precompress } from '../src/lib/http/compress.server';
import { openDatabase, type DbHandle } from '../src/lib/db/client';
import { createApp, type App, type AstroHandler } from './app';
import { pageKey, sharedPageCache } from '../src/lib/http/page-cache';
import { catalogVersion, invalidateCatalog } from '../src/lib/catalog/catalog.server';

let handle: DbHandle;
let app: App;
let base: string;
let release: (() => void) | null = null;
const BIG_HTML = `<ul>${'<li>Lección en curso</li>'.repeat(800)}</ul>`;
const BIG_JS = `export const lessons = ${JSON.stringify(Array.from({ length: 500 }, (_, i) => ({ id: i, name: `Lección ${i}` })))};\n`;

/** A GET whose body is not decoded (fetch would undo the compression). */
function raw(path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(base + path, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

/** Stands in for Astro: one slow page, one page, and `next()` for everything else. */
const astro: AstroHandler = async (req, res, next) => {
  if (req.url === '/slow') {
    await new Promise<void>((r) => (release = r));
    res.end('slow done');
  } else if (req.url === '/ssr-big' || req.url === '/media/resource/1') {
    res.writeHead(200, { 'Content-Type': req.url === '/ssr-big' ? 'text/html' : 'text/vtt' });
    res.end(BIG_HTML);
  } else if (req.url === '/ssr') {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end('<p>ssr</p>');
  } else next?.();
};

beforeAll(async () => {
  const client = mkdtempSync(join(tmpdir(), 'academy-client-'));
  mkdirSync(join(client, '_astro'));
  mkdirSync(join(client, 'about-us'));
  mkdirSync(join(client, 'en/404'), { recursive: true });
  writeFileSync(join(client, '_astro/app.abc123.js'), 'console.log(1)');
  writeFileSync(join(client, 'about-us/index.html'), '<h1>about</h1>');
  writeFileSync(join(client, '404.html'), '<h1>no encontrada</h1>');
  writeFileSync(join(client, 'en/404/index.html'), '<h1>not found</h1>');
  writeFileSync(join(tmpdir(), 'academy-secret.txt'), 'secret');
  writeFileSync(join(client, '_astro/big.def456.js'), BIG_JS);
  precompress(client);
  handle = await openDatabase({ databaseUrl: null, dataDir: 'memory://' });
  app = createApp({ db: handle, astroHandler: astro, clientDir: client, production: true });
  await new Promise<void>((r) => app.server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await app?.close(2000);
  await handle?.close();
});

describe('production server', () => {
  it('answers /healthz after checking the database', async () => {
    const r = await fetch(`${base}/healthz`);
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(await r.json()).toMatchObject({ status: 'ok', db: 'pglite' });
  });

  it('serves hashed assets as immutable for a year and pages with revalidation', async () => {
    const asset = await fetch(`${base}/_astro/app.abc123.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    const page = await fetch(`${base}/about-us`);
    expect(await page.text()).toBe('<h1>about</h1>');
    expect(page.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
    const again = await fetch(`${base}/about-us/`, { headers: { 'if-none-match': page.headers.get('etag')! } });
    expect(again.status).toBe(304);
  });

  it('sends text assets compressed as the browser accepts (brotli, else gzip, else plain), from copies made at build time', async () => {
    const br = await raw('/_astro/big.def456.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    expect(br.body.length).toBeLessThan(BIG_JS.length / 4);
    expect(brotliDecompressSync(br.body).toString()).toBe(BIG_JS);
    const gz = await raw('/_astro/big.def456.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(BIG_JS);
    const plain = await raw('/_astro/big.def456.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(BIG_JS);
    // Each coding has its own validator, so a cache never mixes them up.
    expect(new Set([br.headers.etag, gz.headers.etag, plain.headers.etag]).size).toBe(3);
    expect((await raw('/_astro/big.def456.js', { 'accept-encoding': 'br', 'if-none-match': String(br.headers.etag) })).status).toBe(304);
    // A file too small to gain from compression is sent as it is.
    expect((await raw('/_astro/app.abc123.js', { 'accept-encoding': 'br' })).headers['content-encoding']).toBeUndefined();
  });

  it('compresses pages rendered per request, but never lesson media', async () => {
    const page = await raw('/ssr-big', { 'accept-encoding': 'gzip, br' });
    expect(page.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(page.body).toString()).toBe(BIG_HTML);
    expect((await raw('/ssr-big', { 'accept-encoding': 'gzip' })).headers['content-encoding']).toBe('gzip');
    expect((await raw('/ssr-big')).body.toString()).toBe(BIG_HTML);
    const media = await raw('/media/resource/1', { 'accept-encoding': 'gzip, br' });
    expect(media.headers['content-encoding']).toBeUndefined();
    expect(media.body.toString()).toBe(BIG_HTML);
  });

  it('sends the security headers on every response', async () => {
    for (const path of ['/about-us', '/ssr', '/nothing', '/healthz']) {
      const r = await fetch(base + path);
      expect(r.headers.get('content-security-policy'), path).toContain("frame-ancestors 'none'");
      expect(r.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(r.headers.get('referrer-policy'), path).toBe('strict-origin-when-cross-origin');
      expect(r.headers.get('strict-transport-security'), path).toContain('max-age=');
    }
  });

  it('hands everything else to Astro and answers 404 with the page of the right language', async () => {
    expect(await (await fetch(`${base}/ssr`)).text()).toBe('<p>ssr</p>');
    const es = await fetch(`${base}/no/existe`);
    expect(es.status).toBe(404);
    expect(await es.text()).toContain('no encontrada');
    const en = await fetch(`${base}/en/nothing/here`);
    expect(en.status).toBe(404);
    expect(await en.text()).toContain('not found');
    expect((await fetch(`${base}/404.html`)).status).toBe(404);
  });

  it('never serves files outside the client folder', async () => {
    for (const path of ['/../academy-secret.txt', '/%2e%2e/academy-secret.txt', '/..%2facademy-secret.txt', '/%00', '/%E0%A4%A']) {
      const r = await fetch(base + path);
      expect(r.status, path).toBe(404);
      expect(await r.text()).not.toContain('secret');
    }
  });

  it('answers socket.io on the same port, and refuses a socket without a session', async () => {
    const socket = connect(base, { transports: ['websocket'], reconnection: false });
    const refused = await new Promise<Error>((resolve, reject) => {
      socket.on('connect', () => reject(new Error('a socket without a session was accepted')));
      socket.on('connect_error', resolve);
    });
    expect(refused.message).toBe('unauthorized');
    expect(socket.connected).toBe(false);
    socket.close();
  });
});

describe('page cache', () => {
  it('answers a kept page before Astro runs, with the security headers, but never to a session', async () => {
    const url = new URL(`${base}/kept?b=2&a=1`);
    sharedPageCache().set(pageKey(url), catalogVersion(), { status: 200, headers: [['content-type', 'text/html']], body: '<p>kept</p>' });
    const hit = await fetch(`${base}/kept?a=1&b=2`);
    expect(await hit.text()).toBe('<p>kept</p>');
    expect(hit.headers.get('x-page-cache')).toBe('hit');
    expect(hit.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const withSession = await fetch(`${base}/kept?a=1&b=2`, { headers: { cookie: 'session=abc' } });
    expect(withSession.status).toBe(404);
    const posted = await fetch(`${base}/kept?a=1&b=2`, { method: 'POST' });
    expect(posted.headers.get('x-page-cache')).toBeNull();
    invalidateCatalog();
    expect((await fetch(`${base}/kept?a=1&b=2`)).status).toBe(404);
  });

  it('sends a kept page compressed, compressing it once', async () => {
    const url = new URL(`${base}/kept-big`);
    const html = '<li>curso</li>'.repeat(2000);
    sharedPageCache().set(pageKey(url), catalogVersion(), { status: 200, headers: [['content-type', 'text/html'], ['vary', 'Cookie']], body: html });
    const first = await raw('/kept-big', { 'accept-encoding': 'br' });
    expect(first.headers['content-encoding']).toBe('br');
    expect(first.headers.vary).toBe('Cookie, Accept-Encoding');
    expect(brotliDecompressSync(first.body).toString()).toBe(html);
    const kept = sharedPageCache().get(pageKey(url), catalogVersion())!;
    const once = kept.compressed?.br;
    expect(once).toBeDefined();
    await raw('/kept-big', { 'accept-encoding': 'br' });
    expect(kept.compressed?.br).toBe(once);
    const plain = await raw('/kept-big');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(html);
    expect(Number(plain.headers['content-length'])).toBe(Buffer.byteLength(html));
  });
});

describe('shutdown', () => {
  it('stops accepting, but finishes the request in flight', async () => {
    const slow = fetch(`${base}/slow`).then((r) => r.text());
    await new Promise((r) => setTimeout(r, 100));
    const closed = app.close(5000);
    await new Promise((r) => setTimeout(r, 100));
    await expect(fetch(`${base}/healthz`)).rejects.toThrow();
    release?.();
    expect(await slow).toBe('slow done');
    await closed;
    expect(app.server.listening).toBe(false);
  });
});
