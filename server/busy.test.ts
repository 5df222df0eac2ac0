/**
 * PostgreSQL out of reach while the compiled server (`npm run build`) keeps running: a page and an
 * action that need the database answer 503 "the academy is busy, try again in a few seconds" in the
 * reader's language, with `Retry-After` and no details — not 500 "something went wrong" — and work
 * again once PostgreSQL is back. An action is always answered in Astro's action error shape (JSON),
 * in the language its input names. The outage is logged as one warning when it begins and one line
 * when it ends, not one error with a stack trace per request. Skipped, saying why, without a build or
 * PostgreSQL.
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
  /** The server's log (JSON lines on standard error, `LOG_LEVEL=warn`). */
  let log = '';
  let cookie: string;
  /** A second session of the same person that this process has never read (it cannot check it while PostgreSQL is out of reach). */
  let unseen: string;

  beforeAll(async () => {
    database = await createPostgresDatabase();
    const url = new URL(database.url);
    proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
    url.host = `127.0.0.1:${proxy.port}`;
    child = spawn(process.execPath, ['dist/runtime/index.mjs'], {
      // No video conversions here (VIDEO_WORKER=0): the demo clips' conversion, running when the outage
      // begins, would log its own failed attempt among the outage's lines.
      env: { ...process.env, NODE_ENV: 'production', PORT: String(PORT), HOST: '127.0.0.1', DATABASE_URL: url.href, REDIS_URL: '', LOG_LEVEL: 'warn', WEB_CONCURRENCY: '', VIDEO_WORKER: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stderr!.on('data', (d: Buffer) => (log += d));
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
  /** An action posted as the actions client does (JSON), naming its language only in its input. */
  const rpc = (name: string, input: object, as = cookie, headers: Record<string, string> = {}) =>
    fetch(`${base}/_actions/${name}`, { method: 'POST', headers: { cookie: as, origin: base, 'content-type': 'application/json', ...headers }, body: JSON.stringify(input) });
  /** The log's lines from `from` on, as entries (a line that is not JSON is kept as its text). */
  const logLines = (from: number) =>
    log
      .slice(from)
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l): { level?: string; msg?: string; stack?: string; text: string } => {
        try {
          return { ...(JSON.parse(l) as object), text: l };
        } catch {
          return { text: l };
        }
      });
  const start = (lang: 'es' | 'en') =>
    // As the rules page posts it: the reader's language is the page's (its address is the referrer).
    fetch(`${base}/_actions/exams.start`, {
      method: 'POST',
      headers: { cookie, origin: base, referer: `${base}${lang === 'en' ? '/en' : ''}/course-exam-info/2`, 'content-type': 'application/x-www-form-urlencoded' },
      body: `course=2&lang=${lang}`,
    });

  it('answers the exam rules page and the start action 503 in the reader’s language while PostgreSQL is out of reach, then serves again', async () => {
    // The server answers (at another address: a rules page viewed once may be kept for its reader, and
    // the pages asked for below must be rendered, reading the person's attempts, during the outage).
    expect((await page('/course-exam-info/2?before')).status).toBe(200);
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

  it('answers every script’s action as JSON and every form post as the busy page, in the language its input names, and logs the outage once', async () => {
    expect((await page('/course-exam-info/2')).status).toBe(200);
    await vi.waitFor(() => expect(logLines(0).filter((l) => l.msg === 'database reachable again' || l.msg?.startsWith('database unreachable')).length % 2).toBe(0), { timeout: 15_000 });
    const logFrom = log.length;
    proxy.cut();
    let requests = 0;
    try {
      const busyJson = async (r: Response, locale: 'es' | 'en', what: string) => {
        requests += 1;
        expect(r.status, what).toBe(503);
        expect(r.headers.get('retry-after'), what).toBe('5');
        expect(r.headers.get('content-type'), what).toMatch(/^application\/json/);
        expect(await r.json(), what).toEqual({ type: 'AstroActionError', code: 'SERVICE_UNAVAILABLE', status: 503, message: messages(locale).busy.action });
      };
      for (const locale of ['es', 'en'] as const) {
        // A form post naming its language only in its `lang` field (no referring page).
        await busyJson(
          await fetch(`${base}/_actions/exams.start`, { method: 'POST', headers: { cookie, origin: base, 'content-type': 'application/x-www-form-urlencoded' }, body: `course=2&lang=${locale}` }),
          locale,
          `exams.start lang=${locale}`,
        );
        // A session this process cannot check: refused before the action runs, still as an action's answer.
        await busyJson(await rpc('cart.view', { lang: locale }, unseen), locale, `cart.view lang=${locale}, unchecked session`);
        await busyJson(await rpc('exams.start', { course: 2, lang: locale }, unseen), locale, `exams.start (JSON) lang=${locale}, unchecked session`);
      }
      // No `lang` in the input: the browser's language, else Spanish.
      await busyJson(await rpc('cart.view', {}, unseen, { 'accept-language': 'en-GB,en;q=0.9' }), 'en', 'cart.view, Accept-Language en');
      await busyJson(await rpc('cart.view', {}, unseen), 'es', 'cart.view, no language');
      // A form posted to a page with `?_action=` (no JavaScript) is a page the browser shows: the busy
      // page in the form's language, whose "try again" link is the page without the action.
      for (const locale of ['es', 'en'] as const) {
        const r = await fetch(`${base}/course-exam-info/2?_action=exams.start`, { method: 'POST', headers: { cookie: unseen, origin: base, 'content-type': 'application/x-www-form-urlencoded' }, body: `course=2&lang=${locale}` });
        requests += 1;
        expect(r.status, `form post lang=${locale}`).toBe(503);
        expect(r.headers.get('content-type')).toMatch(/^text\/html/);
        const html = await r.text();
        expect(html).toContain(messages(locale).busy.message);
        expect(html).toContain('href="/course-exam-info/2"');
      }
      // Pages keep answering the busy page, in the address's language.
      for (let i = 0; i < 12; i++) {
        const path = i % 2 ? '/en/course-exam-info/2' : '/course-exam-info/2';
        const r = await page(`${path}?v=${i}`);
        requests += 1;
        expect(r.status).toBe(503);
        const html = await r.text();
        expect(html).toContain(messages(i % 2 ? 'en' : 'es').busy.message);
        // Its "try again" link is the page asked for.
        expect(html).toContain(`href="${path}?v=${i}"`);
      }
    } finally {
      proxy.restore();
    }
    await vi.waitFor(async () => expect((await page('/course-exam-info/2')).status).toBe(200), { timeout: 15_000, interval: 200 });
    await vi.waitFor(() => expect(logLines(logFrom).some((l) => l.msg === 'database reachable again')).toBe(true), { timeout: 15_000, interval: 100 });
    const lines = logLines(logFrom);
    expect(requests).toBeGreaterThanOrEqual(20);
    // One warning when it began, one line when it ended; nothing else at warn or above, no stack trace.
    // (A change told to the other processes just as the connection went — the previous test's exam start,
    // sent after its 100 ms batch — may add the bus's own warning that it could not be: they resync.)
    const watch = lines.filter((l) => (l.msg ?? l.text) !== 'bus: could not tell the other processes');
    expect(watch.map((l) => l.msg ?? l.text)).toEqual([expect.stringMatching(/^database unreachable/), 'database reachable again']);
    expect(lines.every((l) => l.level === 'warn' && l.stack === undefined && !/\n\s+at /.test(l.text))).toBe(true);
  });
});