/**
 * PostgreSQL out of reach while the compiled server (`npm run build`) keeps running: a page and an
 * action that need the database answer 503 "the academy is busy, try again in a few seconds" in the
 * reader's language, with `Retry-After` and no details — not 500 "something went wrong" — and work
 * again once PostgreSQL is back. Skipped, saying why, without a build or PostgreSQL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPostgresDatabase, postgresAvailable } from '../src/lib/db/testing';
import { startTcpProxy, type TcpProxy } from '../src/lib/testing/tcp-proxy';
import { messages } from '../src/i18n';

const built = existsSync('dist/server/entry.mjs') && existsSync('dist/runtime/index.mjs');
const pgUp = await postgresAvailable();
const missing = [!built && 'a build (`npm run build`)', !pgUp && 'PostgreSQL'].filter(Boolean);
if (missing.length) console.warn(`The busy-database tests are skipped: they need ${missing.join(', ')}.`);

const PORT = 4841;
const base = `http://127.0.0.1:${PORT}`;

describe.skipIf(missing.length > 0)('the database out of reach: 503 and "busy", never 500', () => {
  let database: { url: string; drop(): Promise<void> };
  let proxy: TcpProxy;
  let child: ChildProcess;
  let cookie: string;
  /** A second session of the same person that this process has never read (it cannot check it while PostgreSQL is out of reach). */
  let unseen: string;

  beforeAll(async () => {
    database = await createPostgresDatabase();
    const url = new URL(database.url);
    proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
    url.host = `127.0.0.1:${proxy.port}`;
    child = spawn(process.execPath, ['dist/runtime/index.mjs'], {
      env: { ...process.env, NODE_ENV: 'production', PORT: String(PORT), HOST: '127.0.0.1', DATABASE_URL: url.href, REDIS_URL: '', LOG_LEVEL: 'fatal', WEB_CONCURRENCY: '' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (d: Buffer) => {
        out += d;
        if (out.includes('ready at')) resolve();
      });
      child.on('exit', (code) => reject(new Error(`the server exited with ${code}: ${out}`)));
    });
    const login = await logIn();
    expect(login.status).toBe(200);
    cookie = login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    unseen = (await logIn()).headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  }, 120_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    await proxy?.close();
    await database?.drop();
  });

  const logIn = () =>
    fetch(`${base}/_actions/auth.login`, {
      method: 'POST',
      headers: { origin: base, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: 'ready@academia.example', password: 'Examen2026' }),
    });
  const page = (path: string, as = cookie) => fetch(`${base}${path}`, { headers: { cookie: as } });
  const start = (lang: 'es' | 'en') =>
    // As the rules page posts it: the reader's language is the page's (its address is the referrer).
    fetch(`${base}/_actions/exams.start`, {
      method: 'POST',
      headers: { cookie, origin: base, referer: `${base}${lang === 'en' ? '/en' : ''}/course-exam-info/2`, 'content-type': 'application/x-www-form-urlencoded' },
      body: `course=2&lang=${lang}`,
    });

  it('answers the exam rules page and the start action 503 in the reader’s language while PostgreSQL is out of reach, then serves again', async () => {
    // The rules page reads the person's attempts on every view (never kept).
    expect((await page('/course-exam-info/2')).status).toBe(200);
    proxy.cut();
    try {
      // A session it knows (kept in memory) and one it cannot check: the same busy page either way.
      for (const [path, locale, as] of [['/course-exam-info/2', 'es', cookie], ['/en/course-exam-info/2', 'en', cookie], ['/en/course-exam-info/2', 'en', unseen]] as const) {
        const r = await page(path, as);
        const html = await r.text();
        expect(r.status, `${path} (${as === unseen ? 'a session it cannot check' : 'a session it knows'})`).toBe(503);
        expect(r.headers.get('retry-after')).toBe('5');
        expect(r.headers.get('cache-control')).toContain('no-store');
        expect(html).toContain(messages(locale).busy.message);
        expect(html).not.toContain(messages(locale).serverError.message);
        expect(html).not.toMatch(/ECONNREFUSED|select |postgres/i);
      }
      for (const locale of ['es', 'en'] as const) {
        const r = await start(locale);
        const body = await r.text();
        expect(r.status).toBe(503);
        expect(r.headers.get('retry-after')).toBe('5');
        expect(body).toContain(messages(locale).busy.action);
        expect(body).not.toMatch(/ECONNREFUSED|Failed query|select /i);
      }
    } finally {
      proxy.restore();
    }
    await vi.waitFor(async () => expect((await page('/course-exam-info/2')).status).toBe(200), { timeout: 15_000, interval: 200 });
    expect((await start('es')).status).toBe(200);
  });
});
