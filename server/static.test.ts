/**
 * The built site's files: listed once when the server starts, found without touching the disk, small
 * bodies answered from memory once sent, large ones streamed; nothing outside the site is ever found.
 */
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTempFolders } from '../src/lib/testing/temp-folders';
import { staticSite, type StaticSite } from './static';

const tempFolder = useTempFolders();
const BIG = 'x'.repeat(300 * 1024);

let root: string;
let site: StaticSite;
let server: Server;
let base: string;

beforeAll(async () => {
  const parent = tempFolder('academy-static-');
  root = join(parent, 'client');
  for (const dir of ['_astro', 'about-us', 'en/404']) mkdirSync(join(root, dir), { recursive: true });
  writeFileSync(join(root, '_astro/app.abc.js'), 'console.log("plain")');
  // The compressed copy says something else, to tell which one was sent.
  writeFileSync(join(root, '_astro/app.abc.js.br'), brotliCompressSync('console.log("brotli")'));
  writeFileSync(join(root, '_astro/big.def.js'), BIG);
  writeFileSync(join(root, 'about-us/index.html'), '<h1>about</h1>');
  writeFileSync(join(root, 'legal.html'), '<h1>legal</h1>');
  writeFileSync(join(root, 'index.html'), '<h1>home</h1>');
  writeFileSync(join(parent, 'secret.txt'), 'secret');
  // A link to a folder above: listing the site must not follow it (it would loop) nor serve what it leads to.
  symlinkSync(parent, join(root, 'loop'));
  site = staticSite(root);
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const hit = site.resolve(path);
    if (!hit) {
      res.statusCode = 404;
      res.end('none');
      return;
    }
    site.send(req, res, hit, path);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

describe('the built site', () => {
  it('finds a file, a folder’s index.html and a page’s .html, as the addresses name them', () => {
    expect(site.resolve('/_astro/app.abc.js')?.key).toBe('_astro/app.abc.js');
    expect(site.resolve('/about-us')?.key).toBe('about-us/index.html');
    expect(site.resolve('/about-us/')?.key).toBe('about-us/index.html');
    expect(site.resolve('/legal')?.key).toBe('legal.html');
    expect(site.resolve('/')?.key).toBe('index.html');
    expect(site.resolve('/_astro//app.abc.js')?.key).toBe('_astro/app.abc.js');
    expect(site.resolve('/_astro/missing.js')).toBeNull();
    expect(site.resolve('/legal/')).toBeNull();
  });

  it('finds nothing outside the site, however the address is disguised, nor with a NUL', () => {
    for (const path of ['/loop/secret.txt', '/loop/client/legal.html', '/../secret.txt', '/%2e%2e/secret.txt', '/_astro/../../secret.txt', '/..%2fsecret.txt', '/%2e%2e%2fsecret.txt', '/about-us%00', '/%E0%A4%A']) {
      expect(site.resolve(path), path).toBeNull();
    }
  });

  it('is the list taken when the server started: a file written later is not served', () => {
    writeFileSync(join(root, 'later.html'), '<h1>later</h1>');
    expect(site.resolve('/later')).toBeNull();
  });

  it('answers a small file from memory once sent, the brotli copy to a browser that takes it, with its ETag', async () => {
    const plain = await fetch(`${base}/_astro/app.abc.js`, { headers: { 'accept-encoding': 'identity' } });
    expect(await plain.text()).toBe('console.log("plain")');
    expect(plain.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(plain.headers.get('vary')).toBe('Accept-Encoding');
    const br = await fetch(`${base}/_astro/app.abc.js`, { headers: { 'accept-encoding': 'br' } });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(await br.text()).toBe('console.log("brotli")');
    // Gone from the disk: the kept body still answers (no file was opened for it).
    rmSync(join(root, '_astro/app.abc.js'));
    const again = await fetch(`${base}/_astro/app.abc.js`, { headers: { 'accept-encoding': 'identity' } });
    expect(await again.text()).toBe('console.log("plain")');
    const etag = again.headers.get('etag')!;
    expect((await fetch(`${base}/_astro/app.abc.js`, { headers: { 'accept-encoding': 'identity', 'if-none-match': etag } })).status).toBe(304);
  });

  it('streams a large file from the disk each time, whole', async () => {
    const r = await fetch(`${base}/_astro/big.def.js`, { headers: { 'accept-encoding': 'identity' } });
    expect(r.headers.get('content-length')).toBe(String(BIG.length));
    expect(await r.text()).toBe(BIG);
    writeFileSync(join(root, '_astro/big.def.js'), 'y'.repeat(BIG.length));
    expect(await (await fetch(`${base}/_astro/big.def.js`, { headers: { 'accept-encoding': 'identity' } })).text()).toBe('y'.repeat(BIG.length));
  });

  it('answers HEAD with the length and no body', async () => {
    const r = await fetch(`${base}/legal`, { method: 'HEAD' });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-length')).toBe('14');
    expect(await r.text()).toBe('');
  });
});
