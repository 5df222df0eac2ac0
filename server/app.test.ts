import { messages } from '../src/i18n';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connect } from 'socket.io-client';
import { get } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { precompress } from '../src/lib/http/compress.server';
import { openDatabase, type DbHandle } from '../src/lib/db/client';
import { migrate } from '../src/lib/db/migrate';
import { testDatabases } from '../src/lib/db/testing';
import { createApp, type App, type AstroHandler } from './app';
import type { ErrorLogEntry } from '../src/lib/http/errors';
import { loadPagePolicies } from './static';
import { keepForAudience, lookUp, personalMarks, type Rendered } from '../src/lib/http/page-cache';
import { createSession, type SessionInfo } from '../src/lib/identity/session.server';
import { testRuntime } from '../src/lib/testing/runtime';
import type { Runtime } from '../src/lib/runtime/runtime.server';
import * as schema from '../src/lib/db/schema';
import { eq } from 'drizzle-orm';
import { createLogger } from '../src/lib/http/log.server';

let handle: DbHandle;
let runtime: Runtime;
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

/** Keeps `page` as the page cache keeps a rendered page at `path` for `session`'s audience (visitors by default). */
async function keepPage(path: string, page: Rendered, session: SessionInfo | null = null) {
  return keepForAudience(runtime, await lookUp(runtime, { url: new URL(path), session }), page);
}

/** A failure whose message carries SQL and its parameters, as a failed query's does. */
const QUERY_FAILURE = 'Failed query: insert into "contact_messages" ("name", "email") values ($1, $2)\nparams: Ana\u0000,ana@example.com';
/** Failed requests the server logged. */
const logged: ErrorLogEntry[] = [];

/** Stands in for Astro: one slow page, one page, an echo of what Astro would see, a failure, and `next()` for everything else. */
const astro: AstroHandler = async (req, res, next, locals) => {
  if (req.url === '/echo') {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    const { runtime: _runtime, ...seen } = (locals ?? {}) as Record<string, unknown>;
    res.end(JSON.stringify({ headers: req.headers, locals: seen, runtime: _runtime !== undefined }));
  } else if (req.url === '/boom') {
    throw new Error(QUERY_FAILURE);
  } else if (req.url === '/busy') {
    // A query that found no free connection in time, as Drizzle wraps the driver's error.
    throw new Error(QUERY_FAILURE, { cause: new Error('timeout exceeded when trying to connect') });
  } else if (req.url === '/slow') {
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
  await migrate(handle);
  runtime = await testRuntime(handle, { env: { NODE_ENV: 'production' } });
  app = createApp({ runtime, astroHandler: astro, clientDir: client, logError: (e) => logged.push(e) });
  await new Promise<void>((r) => app.server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await app?.close(2000);
  await runtime?.close();
  await handle?.close();
});

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

describe('page cache', () => {
  it('answers a kept page before Astro runs, with the security headers, but never to a session', async () => {
    await keepPage(`${base}/kept?b=2&a=1`, { status: 200, headers: [['content-type', 'text/html']], body: '<p>kept</p>' });
    const hit = await fetch(`${base}/kept?a=1&b=2`);
    expect(await hit.text()).toBe('<p>kept</p>');
    expect(hit.headers.get('x-page-cache')).toBe('hit');
    expect(hit.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const withSession = await fetch(`${base}/kept?a=1&b=2`, { headers: { cookie: 'session=abc' } });
    expect(withSession.status).toBe(404);
    const posted = await fetch(`${base}/kept?a=1&b=2`, { method: 'POST' });
    expect(posted.headers.get('x-page-cache')).toBeNull();
    runtime.catalog.invalidate();
    expect((await fetch(`${base}/kept?a=1&b=2`)).status).toBe(404);
  });

  it("answers a session the page kept for its access context, privately, and never a visitor's page", async () => {
    const [user] = await handle.db.insert(schema.users).values({ email: 'kept@example.com', firstName: 'Kept', lastName: 'Page' }).returning();
    const { token } = await createSession(handle.db, { kind: 'user', userId: user!.id });
    const info = (await runtime.sessions.read(token))!;
    await keepPage(`${base}/kept-audience`, { status: 200, headers: [['content-type', 'text/html'], ['cache-control', 'public, s-maxage=30']], body: '<p>for visitors</p>' });
    const cookie = { cookie: `session=${token}` };
    // Nothing kept for this access context yet: Astro answers (here: not found), not the visitor's page.
    expect((await raw('/kept-audience', cookie)).status).toBe(404);
    await keepPage(`${base}/kept-audience`, { status: 200, headers: [['content-type', 'text/html'], ['cache-control', 'public, s-maxage=30']], body: '<p>for learners like this one</p>' }, info);
    const hit = await raw('/kept-audience', cookie);
    expect(hit.body.toString()).toBe('<p>for learners like this one</p>');
    expect(hit.headers['x-page-cache']).toBe('hit');
    expect(hit.headers['cache-control']).toBe('private, no-store');
    expect((await raw('/kept-audience')).body.toString()).toBe('<p>for visitors</p>');
    // Logged out (the session gone, every process told): the cookie no longer reaches the kept page.
    await handle.db.delete(schema.sessions).where(eq(schema.sessions.userId, user!.id));
    await runtime.sessionChanged({ userId: user!.id });
    expect((await raw('/kept-audience', cookie)).status).toBe(404);
  });

  it("fills a page kept for an access context with each reader's own parts, never another reader's", async () => {
    const made = await handle.db
      .insert(schema.users)
      .values([
        { email: 'ana.kept@example.com', firstName: 'Ana', lastName: 'Primera' },
        { email: 'bea.kept@example.com', firstName: 'Bea', lastName: 'Segunda' },
      ])
      .returning();
    const [ana, bea] = await Promise.all(made.map((u) => createSession(handle.db, { kind: 'user', userId: u.id })));
    const anaInfo = (await runtime.sessions.read(ana!.token))!;
    const beaInfo = (await runtime.sessions.read(bea!.token))!;
    const [open, close] = personalMarks('user');
    const rendered = (name: string): Rendered => ({ status: 200, headers: [['content-type', 'text/html']], body: `<header>${open}<span>${name}</span>${close}</header><main>catálogo</main>` });
    // Rendered for Ana: kept for everyone with her access (neither bought nor completed anything), her parts kept apart.
    await keepPage(`${base}/en/kept-template`, rendered('Ana Primera'), anaInfo);
    const forAna = await raw('/en/kept-template', { cookie: `session=${ana!.token}` });
    expect(forAna.headers['x-page-cache']).toBe('hit');
    expect(forAna.headers['cache-control']).toBe('private, no-store');
    expect(forAna.body.toString()).toBe(rendered('Ana Primera').body);
    // Bea has the same access, but her own parts are not known yet: the page is rendered for her (Astro answers), Ana's name never shown.
    const beaFirst = await raw('/en/kept-template', { cookie: `session=${bea!.token}` });
    expect(beaFirst.status).toBe(404);
    expect(beaFirst.body.toString()).not.toContain('Ana');
    // Once a page was rendered for Bea, the kept page answers her with her own name, and Ana with hers.
    await keepPage(`${base}/en/kept-template`, rendered('Bea Segunda'), beaInfo);
    const beaKept = await raw('/en/kept-template', { cookie: `session=${bea!.token}` });
    expect(beaKept.headers['x-page-cache']).toBe('hit');
    expect(beaKept.body.toString()).toBe(rendered('Bea Segunda').body);
    expect((await raw('/en/kept-template', { cookie: `session=${ana!.token}` })).body.toString()).toBe(rendered('Ana Primera').body);
    // The Spanish page's parts are another language's: Ana's English parts do not answer it.
    await keepPage(`${base}/kept-template`, rendered('Bea Segunda'), beaInfo);
    expect((await raw('/kept-template', { cookie: `session=${bea!.token}` })).headers['x-page-cache']).toBe('hit');
    expect((await raw('/kept-template', { cookie: `session=${ana!.token}` })).status).toBe(404);
  });

  it('sends a kept page compressed, compressing it once', async () => {
    const html = '<li>curso</li>'.repeat(2000);
    const kept = await keepPage(`${base}/kept-big`, { status: 200, headers: [['content-type', 'text/html'], ['vary', 'Cookie']], body: html });
    const first = await raw('/kept-big', { 'accept-encoding': 'br' });
    expect(first.headers['content-encoding']).toBe('br');
    expect(first.headers.vary).toBe('Cookie, Accept-Encoding');
    expect(brotliDecompressSync(first.body).toString()).toBe(html);
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

describe('request ids and unexpected errors (Trust #7)', () => {
  it('gives every response its own x-request-id, and ignores one a client sends', async () => {
    const ids = new Set<string>();
    for (const path of ['/about-us', '/ssr', '/nothing', '/healthz', '/_astro/app.abc123.js']) {
      const r = await raw(path, { 'x-request-id': 'client-chosen-id' });
      const id = String(r.headers['x-request-id']);
      expect(id, path).toMatch(/^[A-Za-z0-9_-]{16}$/);
      ids.add(id);
    }
    expect(ids.size).toBe(5);
  });

  it('passes the request id and the runtime to Astro through locals', async () => {
    const r = await raw('/echo');
    const seen = JSON.parse(r.body.toString()) as { locals: { requestId: string; requestOrigin: string }; runtime: boolean };
    expect(seen.runtime).toBe(true);
    expect(seen.locals.requestId).toBe(r.headers['x-request-id']);
    expect(seen.locals.requestOrigin).toBe(base);
  });

  it('answers a failure with a sentence and the request id, never the SQL, its parameters or a stack; the log has them', async () => {
    for (const [headers, sentence] of [
      [{ 'accept-language': 'en' }, 'Something went wrong on our side.'],
      [{}, 'Algo salió mal de nuestro lado.'],
    ] as const) {
      logged.length = 0;
      const r = await raw('/boom', headers);
      const body = r.body.toString();
      const id = String(r.headers['x-request-id']);
      expect(r.status).toBe(500);
      expect(body).toContain(sentence);
      expect(body).toContain(id);
      for (const secret of ['Failed query', 'insert into', 'contact_messages', 'params', 'ana@example.com', '    at ']) expect(body).not.toContain(secret);
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatchObject({ requestId: id, method: 'GET', path: '/boom', where: 'server' });
      expect((logged[0]!.error as Error).message).toBe(QUERY_FAILURE);
    }
  });
});

describe('the database out of reach', () => {
  it('answers 503 "busy, try again in a few seconds" with Retry-After, in the reader’s language, never the SQL', async () => {
    for (const [headers, locale] of [[{ 'accept-language': 'en' }, 'en'], [{}, 'es']] as const) {
      logged.length = 0;
      const r = await raw('/busy', headers);
      const body = r.body.toString();
      expect(r.status).toBe(503);
      expect(r.headers['retry-after']).toBe('5');
      expect(body).toContain(messages(locale).busy.action);
      for (const secret of ['Failed query', 'insert into', 'timeout exceeded', '    at ']) expect(body).not.toContain(secret);
      // Still logged in full, with its cause.
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatchObject({ method: 'GET', path: '/busy', where: 'server' });
    }
  });
});

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

  beforeAll(async () => {
    proxiedRuntime = await testRuntime(handle, { env: { NODE_ENV: 'production', TRUST_PROXY: '1', PUBLIC_URL: 'https://academy.example', ALLOWED_HOSTS: 'localhost,127.0.0.1' } });
    proxied = createApp({ runtime: proxiedRuntime, astroHandler: astro, clientDir: mkdtempSync(join(tmpdir(), 'academy-client-')) });
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

/** The build the production server serves (`DIST_DIR`, default `dist/`); the tests below need one. */
const dist = resolve(process.env.DIST_DIR ?? 'dist');
const entry = join(dist, 'server/entry.mjs');

describe.skipIf(!existsSync(entry))('failures inside the built site (needs `npm run build` first; Trust #7)', () => {
  let site: App;
  let siteRuntime: Runtime;
  let siteBase: string;
  let db: DbHandle;
  /** What the server's log received while the tests ran. */
  const stderr: string[] = [];
  /** What a failed query's message and stack hold: none of it may reach a body. */
  const secrets = ['Failed query', 'select "', 'from "', 'params:', 'search_fold', '"users"', 'users_gone', '    at ', 'node_modules', '.mjs:'];
  const logLine = (id: string) =>
    stderr
      .flatMap((chunk) => chunk.split('\n'))
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, string>)
      .find((l) => l.requestId === id);

  beforeAll(async () => {
    db = await (await testDatabases())[0]!.create({ seed: true });
    siteRuntime = await testRuntime(db, { env: { NODE_ENV: 'production' }, logger: createLogger('info', { write: (line: string) => void stderr.push(line) }) });
    const { handler } = (await import(/* @vite-ignore */ pathToFileURL(entry).href)) as { handler: AstroHandler };
    site = createApp({ runtime: siteRuntime, astroHandler: handler, clientDir: join(dist, 'client'), policies: loadPagePolicies(dist) });
    await new Promise<void>((r) => site.server.listen(0, '127.0.0.1', r));
    siteBase = `http://127.0.0.1:${(site.server.address() as AddressInfo).port}`;
    // The catalogue is read (and kept) before anything breaks: only the query under test fails.
    expect((await fetch(`${siteBase}/courses`)).status).toBe(200);
  });

  afterAll(async () => {
    await site?.close(2000);
    await siteRuntime?.close();
    await db?.close();
  });

  it('a page whose query fails answers the error page with the request id; the log line has the error under that id', async () => {
    await db.db.execute(sql`alter function search_fold(text) rename to search_fold_gone`);
    try {
      for (const [path, sentence] of [
        ['/en/courses?q=vision', 'Something went wrong on our side.'],
        ['/courses?q=vision', 'Algo salió mal de nuestro lado.'],
      ] as const) {
        const r = await fetch(siteBase + path);
        const body = await r.text();
        const id = r.headers.get('x-request-id')!;
        expect(r.status, path).toBe(500);
        expect(body).toContain(sentence);
        expect(body).toContain(id);
        for (const secret of secrets) expect(body, secret).not.toContain(secret);
        const line = logLine(id);
        expect(line, `log line for ${id}`).toMatchObject({ level: 'error', method: 'GET', path: path.split('?')[0], where: 'page' });
        expect(line!.error).toContain('search_fold');
        expect(line!.stack).toBeTruthy();
      }
    } finally {
      await db.db.execute(sql`alter function search_fold_gone(text) rename to search_fold`);
    }
  });

  it('an action whose query fails answers a sentence with the request id, never the SQL or its parameters, called or posted', async () => {
    await db.db.execute(sql`alter table users rename to users_gone`);
    try {
      const form = new URLSearchParams({ email: 'nadie.7@example.com', password: 'Nadie2026x', lang: 'en' });
      const headers = { origin: siteBase, 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'en' };
      const rpc = await fetch(`${siteBase}/_actions/auth.login`, { method: 'POST', headers, body: form });
      const rpcBody = await rpc.text();
      const rpcId = rpc.headers.get('x-request-id')!;
      expect(rpc.status).toBe(500);
      expect(JSON.parse(rpcBody)).toMatchObject({ code: 'INTERNAL_SERVER_ERROR', message: `Something went wrong on our side. Please try again in a moment. Error reference: ${rpcId}` });
      for (const secret of [...secrets, 'nadie.7@example.com']) expect(rpcBody, secret).not.toContain(secret);
      expect(logLine(rpcId)).toMatchObject({ method: 'POST', path: '/_actions/auth.login', where: 'action auth.login' });
      expect(logLine(rpcId)!.error).toContain('users');

      // The same action posted by a form without JavaScript: the page shows no detail either.
      const posted = await fetch(`${siteBase}/en/login?_action=auth.login`, { method: 'POST', headers, body: form, redirect: 'manual' });
      const postedBody = await posted.text();
      expect(postedBody).toContain(`Error reference: ${posted.headers.get('x-request-id')}`);
      for (const secret of secrets) expect(postedBody, secret).not.toContain(secret);
      expect(logLine(posted.headers.get('x-request-id')!)).toMatchObject({ method: 'POST', where: 'action auth.login' });
    } finally {
      await db.db.execute(sql`alter table users_gone rename to users`);
    }
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
