/** The production server's own answers: health, assets (cached, compressed), security headers, 404s, socket.io, and shutdown. */
import { describe, expect, it } from 'vitest';
import { io as connect } from 'socket.io-client';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { serveTestApp, app, base, release, BIG_HTML, BIG_JS, raw } from './app.testing';

serveTestApp();

describe('production server', () => {
  it('answers /healthz after checking the database, saying only that it is up', async () => {
    const r = await fetch(`${base}/healthz`);
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(await r.json()).toEqual({ status: 'up' });
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

describe('shutdown', () => {
  it('stops accepting, but finishes the request in flight', async () => {
    const slow = fetch(`${base}/slow`).then((r) => r.text());
    await expect.poll(() => release).not.toBeNull();
    const closed = app.close(5000);
    await expect.poll(() => app.server.listening).toBe(false);
    await expect(fetch(`${base}/healthz`)).rejects.toThrow();
    release?.();
    expect(await slow).toBe('slow done');
    await closed;
    expect(app.server.listening).toBe(false);
  });
});
