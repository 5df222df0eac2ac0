/** Failures in the production server: request ids, unexpected errors and an unreachable database answered with a sentence, never SQL or a stack. */
import { messages } from '../src/i18n';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DbHandle } from '../src/lib/db/client';
import { testDatabases } from '../src/lib/db/testing';
import { createApp, type App, type AstroHandler } from './app';
import { loadPagePolicies } from './static';
import { testRuntime } from '../src/lib/testing/runtime';
import type { Runtime } from '../src/lib/runtime/runtime.server';
import { createLogger } from '../src/lib/http/log.server';
import { serveTestApp, base, QUERY_FAILURE, logged, raw } from './app.testing';

serveTestApp();

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
