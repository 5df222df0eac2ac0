/** The production server under test: a client folder, an empty database, a stand-in for Astro and helpers to ask it (shared by the server/app.*.test.ts files). */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { get } from 'node:http';
import { afterAll, beforeAll } from 'vitest';
import { precompress } from '../src/lib/http/compress.server';
import type { DbHandle } from '../src/lib/db/client';
import { pglite } from '../src/lib/db/testing';
import { createApp, type App, type AstroHandler } from './app';
import type { ErrorLogEntry } from '../src/lib/http/errors';
import { keepForAudience, lookUp, type Rendered } from '../src/lib/http/page-cache';
import type { SessionInfo } from '../src/lib/identity/session.server';
import { testRuntime } from '../src/lib/testing/runtime';
import { useTempFolders } from '../src/lib/testing/temp-folders';
import type { Runtime } from '../src/lib/runtime/runtime.server';
/** The database, runtime, app and address of the server under test; set before the tests run. */
export let handle: DbHandle;
export let runtime: Runtime;
export let app: App;
export let base: string;
export let release: (() => void) | null = null;
export const BIG_HTML = `<ul>${'<li>Lección en curso</li>'.repeat(800)}</ul>`;
export const BIG_JS = `export const lessons = ${JSON.stringify(Array.from({ length: 500 }, (_, i) => ({ id: i, name: `Lección ${i}` })))};\n`;

/** A GET whose body is not decoded (fetch would undo the compression). */
export function raw(path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(base + path, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

/** Keeps `page` as the page cache keeps a rendered page at `path` for `session`'s audience (visitors by default). */
export async function keepPage(path: string, page: Rendered, session: SessionInfo | null = null) {
  return keepForAudience(runtime, await lookUp(runtime, { url: new URL(path), session }), page);
}

/** A failure whose message carries SQL and its parameters, as a failed query's does. */
export const QUERY_FAILURE = 'Failed query: insert into "contact_messages" ("name", "email") values ($1, $2)\nparams: Ana\u0000,ana@example.com';
/** Failed requests the server logged. */
export const logged: ErrorLogEntry[] = [];

/** Stands in for Astro: one slow page, one page, an echo of what Astro would see, a failure, and `next()` for everything else. */
export const astro: AstroHandler = async (req, res, next, locals) => {
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

/** Starts the server (a client folder of a few files, an empty database, a stand-in for Astro) before the calling file's tests, and stops it after. */
export function serveTestApp() {
  const tempFolder = useTempFolders();
  beforeAll(async () => {
    // The client folder inside a folder of the file's own, beside the file a path traversal would reach:
    // both are removed with it.
    const outside = tempFolder('academy-client-');
    const client = join(outside, 'client');
    mkdirSync(join(client, '_astro'), { recursive: true });
    mkdirSync(join(client, 'about-us'));
    mkdirSync(join(client, 'en/404'), { recursive: true });
    writeFileSync(join(client, '_astro/app.abc123.js'), 'console.log(1)');
    writeFileSync(join(client, 'about-us/index.html'), '<h1>about</h1>');
    writeFileSync(join(client, '404.html'), '<h1>no encontrada</h1>');
    writeFileSync(join(client, 'en/404/index.html'), '<h1>not found</h1>');
    writeFileSync(join(outside, 'academy-secret.txt'), 'secret');
    writeFileSync(join(client, '_astro/big.def456.js'), BIG_JS);
    precompress(client);
    handle = await pglite.create();
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
}
