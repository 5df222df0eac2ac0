/**
 * Two processes that behave as one: two compiled servers (`npm run build`) on one PostgreSQL database
 * with Redis, as two replicas behind a balancer. A learner's session, progress and logout, and a
 * catalogue change, seen from both. Skipped, saying why, without a build, PostgreSQL or Redis.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { io as connectClient, type Socket as ClientSocket } from 'socket.io-client';
import { createPostgresDatabase, postgresAvailable } from '../src/lib/db/testing';
import { openDatabase, type DbHandle } from '../src/lib/db/client';
import * as s from '../src/lib/db/schema';
import { loadCatalog } from '../src/lib/catalog/catalog.server';
import { createBus } from '../src/lib/bus/bus.server';
import { createLogger } from '../src/lib/http/log.server';
import { redisReachable } from '../src/lib/testing/services';
import type { TrackingAck, TrackingBroadcast } from '../src/lib/learning/learning';
import { certificateByCode } from '../src/lib/certificates/certificates.server';
import { decodeJwt } from 'jose';
import { revokeEverywhere } from '../src/lib/certificates/revoke.server';
import { decodeStatusList, statusBit, statusPosition } from '../src/lib/certificates/status-list';

/**
 * How long a test waits for the other process to hear of a change. Kept pages live until told and kept
 * sessions for a minute, so only the notice can make a test pass within it. A notice is heard in a few
 * hundred milliseconds here, but a test is a check of behaviour, not a stopwatch: on a machine busy with
 * the other suites a render alone can take a second.
 */
const NOTICE_MS = 10_000;

const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const built = existsSync('dist/server/entry.mjs') && existsSync('dist/runtime/index.mjs');
const pgUp = await postgresAvailable();
const redisUp = await redisReachable(redisUrl);
const missing = [!built && 'a build (`npm run build`)', !pgUp && 'PostgreSQL', !redisUp && `Redis at ${redisUrl}`].filter(Boolean);
if (missing.length) console.warn(`The two-process tests are skipped: they need ${missing.join(', ')}.`);

interface Proc {
  base: string;
  child: ChildProcess;
}

/** Starts one compiled server on `port` and resolves once it listens. */
function startProcess(port: number, databaseUrl: string): Promise<Proc> {
  const child = spawn(process.execPath, ['dist/runtime/index.mjs'], {
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: databaseUrl, REDIS_URL: redisUrl, LOG_LEVEL: 'warn', WEB_CONCURRENCY: '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d;
      if (out.includes('ready at')) resolve({ base: `http://127.0.0.1:${port}`, child });
    });
    child.on('exit', (code) => reject(new Error(`the server on ${port} exited with ${code}: ${out}`)));
  });
}

describe.skipIf(missing.length > 0)('two processes on PostgreSQL and Redis', () => {
  let database: { url: string; drop(): Promise<void> };
  let direct: DbHandle;
  let a: Proc;
  let b: Proc;
  let lessons: number[];
  const sockets: ClientSocket[] = [];

  beforeAll(async () => {
    database = await createPostgresDatabase();
    // The first prepares (migrates, seeds) the database; the second finds it ready.
    a = await startProcess(4821, database.url);
    b = await startProcess(4822, database.url);
    direct = await openDatabase({ databaseUrl: database.url, dataDir: 'unused' });
    lessons = (await loadCatalog(direct.db)).byId.get(1)!.modules.flatMap((m) => m.lessons.map((l) => l.id));
  }, 120_000);

  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    for (const p of [a, b]) {
      if (!p || p.child.exitCode !== null) continue;
      p.child.kill('SIGTERM');
      await new Promise((r) => p.child.once('exit', r));
    }
    await direct?.close();
    await database?.drop();
  });

  /** Logs a demo learner in through `p`'s login form; returns the session cookie. */
  async function logIn(p: Proc, email = 'learner@academia.example', password = 'Aprende2026'): Promise<string> {
    const r = await fetch(`${p.base}/_actions/auth.login`, {
      method: 'POST',
      headers: { origin: p.base, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email, password, lang: 'es' }).toString(),
      redirect: 'manual',
    });
    const cookie = r.headers.getSetCookie().find((c) => c.startsWith('session='));
    expect(cookie, `login through ${p.base} (${r.status})`).toBeDefined();
    return cookie!.split(';')[0]!;
  }

  /** What `p` answers for a page only a logged-in learner sees (200, or a redirect to log in). */
  const myLearning = (p: Proc, cookie: string) => fetch(`${p.base}/mylearning`, { headers: { cookie }, redirect: 'manual' }).then((r) => r.status);

  function connect(p: Proc, cookie: string): Promise<ClientSocket> {
    return new Promise((resolve, reject) => {
      const socket = connectClient(p.base, { auth: { courseId: 1 }, extraHeaders: { cookie, origin: p.base }, reconnection: false, forceNew: true, transports: ['websocket'] });
      sockets.push(socket);
      socket.once('connect', () => resolve(socket));
      socket.once('connect_error', reject);
    });
  }

  it('a session made through one process is known to the other, and logging out through the other ends it on both at once, sockets included', async () => {
    const cookie = await logIn(a);
    expect(await myLearning(a, cookie)).toBe(200);
    expect(await myLearning(b, cookie)).toBe(200);
    const onA = await connect(a, cookie);
    const hungUp = new Promise<string>((resolve) => onA.once('disconnect', resolve));

    const out = await fetch(`${b.base}/_actions/auth.logout`, {
      method: 'POST',
      headers: { origin: b.base, cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ lang: 'es' }).toString(),
      redirect: 'manual',
    });
    expect(out.status).toBeLessThan(400);
    // Process A kept the session in its cache a moment ago; the bus tells it to forget.
    await expect.poll(() => myLearning(a, cookie), { timeout: NOTICE_MS, interval: 20 }).not.toBe(200);
    expect(await myLearning(b, cookie)).not.toBe(200);
    expect(await hungUp).toBe('io server disconnect');
  });

  it('progress written through process B reaches a tab connected to process A', async () => {
    const cookie = await logIn(a);
    const tabOnA = await connect(a, cookie);
    const heard: TrackingBroadcast[] = [];
    tabOnA.on('tracking', (m: TrackingBroadcast) => heard.push(m));
    const tabOnB = await connect(b, cookie);
    const ack = (await tabOnB.timeout(5000).emitWithAck('tracking', { Identificador: lessons[0], Avance: 7 })) as TrackingAck;
    expect(ack).toMatchObject({ ok: true, Avance: 7 });
    await expect.poll(() => heard.find((m) => m.Identificador === lessons[0] && m.Avance === 7), { timeout: NOTICE_MS, interval: 10 }).toBeDefined();

    // The HTTP fallback through B reaches A's tab as well.
    const http = await fetch(`${b.base}/api/tracking`, {
      method: 'POST',
      headers: { origin: b.base, cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ event: 'tracking', courseId: 1, payload: { Identificador: lessons[1], Avance: 3 } }),
    });
    expect(http.status).toBe(200);
    await expect.poll(() => heard.some((m) => m.Identificador === lessons[1] && m.Avance === 3), { timeout: NOTICE_MS, interval: 10 }).toBe(true);
  });

  it("a player page kept for a learner on process A shows progress written through process B, and is never another learner's", async () => {
    const cookie = await logIn(a);
    const player = async (p: Proc, c: string) => {
      const r = await fetch(`${p.base}/course-tracking/1`, { headers: { cookie: c } });
      return { cache: r.headers.get('x-page-cache'), control: r.headers.get('cache-control'), html: await r.text() };
    };
    /** Where the page says a lesson resumes (its serialised `resumeAt`). */
    const resumeAt = (html: string, lesson: number) => {
      const at = html.indexOf(`&quot;id&quot;:[0,${lesson}],&quot;moduleId&quot;`);
      const m = at < 0 ? null : /&quot;resumeAt&quot;:\[0,([\d.]+)\]/.exec(html.slice(at));
      return m ? Number(m[1]) : null;
    };
    // Kept from the second view on; a notice of this learner's earlier progress arriving late (they are
    // batched between processes) may make one more view a miss first.
    let kept = await player(a, cookie);
    await expect.poll(async () => (kept = await player(a, cookie)).cache, { timeout: 5000 }).toBe('hit');
    expect(kept.control).toContain('private');
    expect(resumeAt(kept.html, lessons[2]!)).toBe(0);

    const tabOnB = await connect(b, cookie);
    const ack = (await tabOnB.timeout(5000).emitWithAck('tracking', { Identificador: lessons[2], Avance: 4 })) as TrackingAck;
    expect(ack).toMatchObject({ ok: true, Avance: 4 });
    await expect.poll(async () => resumeAt((await player(a, cookie)).html, lessons[2]!), { timeout: NOTICE_MS, interval: 20 }).toBe(4);

    // Another learner on the same process gets their own page, with their own name.
    const buyer = await logIn(a, 'buyer@academia.example', 'Compra2026');
    for (let i = 0; i < 2; i++) {
      const theirs = await player(a, buyer);
      expect(theirs.html).not.toContain('learner@academia.example');
      expect(resumeAt(theirs.html, lessons[2]!)).toBe(0);
    }
  });

  it("an exam's rules page kept for a learner on process A shows an attempt started through process B", async () => {
    // Every lesson of course 2 completed, its exam not taken.
    const cookie = await logIn(a, 'ready@academia.example', 'Examen2026');
    const rules = async () => {
      const r = await fetch(`${a.base}/course-exam-info/2`, { headers: { cookie } });
      return { cache: r.headers.get('x-page-cache'), html: await r.text() };
    };
    // Kept from the second view on (the first view of a fresh process loads the exam and renders).
    let kept = await rules();
    await expect.poll(async () => (kept = await rules()).cache, { timeout: 20_000 }).toBe('hit');
    expect(kept.html).toContain('Empezar el examen');
    const started = await fetch(`${b.base}/_actions/exams.start`, {
      method: 'POST',
      headers: { origin: b.base, cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ course: '2', lang: 'es' }).toString(),
    });
    expect(started.status).toBe(200);
    await expect.poll(async () => (await rules()).html, { timeout: NOTICE_MS, interval: 20 }).toContain('Continuar el examen');
  });

  it("a certificate's verification page kept by both processes shows its revocation", async () => {
    const code = 'ACAD-GRAD-2026-0000-0002';
    const verify = async (p: Proc) => {
      const r = await fetch(`${p.base}/verify/${code}`);
      await r.body?.cancel();
      return `${r.status} ${r.headers.get('x-page-cache')}`;
    };
    // The published revocation list: its bit of the certificate, as each process serves it (kept a minute).
    const certificate = (await certificateByCode(direct.db, code))!;
    const listed = async (p: Proc) => {
      const jwt = await (await fetch(`${p.base}/credentials/status/1`)).text();
      const { encodedList } = (decodeJwt(jwt) as { credentialSubject: { encodedList: string } }).credentialSubject;
      return statusBit(decodeStatusList(encodedList), statusPosition(certificate.id).index);
    };
    for (const p of [a, b]) expect(await listed(p)).toBe(false);
    // The first view of a fresh process signs the seed's certificate and renders; kept from the second on.
    for (const p of [a, b]) await expect.poll(() => verify(p), { timeout: 20_000 }).toBe('200 hit');
    const bus = createBus({ kind: 'redis', redisUrl }, createLogger('silent'));
    await bus.ready();
    try {
      // What the academy's revocation does: the write, then one notice to every process.
      expect(await revokeEverywhere({ db: direct.db, catalogChanged: () => bus.publish('catalog', {}) }, certificate.id, Date.now())).toBe(true);
      await Promise.all([a, b].map((p) => expect.poll(() => verify(p), { timeout: NOTICE_MS, interval: 20 }).toMatch(/^410 /)));
      // Both drop their kept list at once (not a minute later).
      await Promise.all([a, b].map((p) => expect.poll(() => listed(p), { timeout: NOTICE_MS, interval: 20 }).toBe(true)));
    } finally {
      await bus.close();
    }
  });

  it('a catalogue change announced once shows on both processes, without a rebuild', async () => {
    const page = (p: Proc) => fetch(`${p.base}/en/courses-details/1`).then((r) => r.text());
    // Both keep the page for visitors.
    for (const p of [a, b]) expect(await page(p)).not.toContain('Renamed for the scale-out test');
    await direct.db.update(s.courses).set({ nameEn: 'Renamed for the scale-out test' }).where(eq(s.courses.id, 1));
    // What the academy's own writes do: one notice on the bus (here from a third party: this test).
    const bus = createBus({ kind: 'redis', redisUrl }, createLogger('silent'));
    await bus.ready();
    try {
      await bus.publish('catalog', {});
      for (const p of [a, b]) await expect.poll(() => page(p), { timeout: NOTICE_MS, interval: 20 }).toContain('Renamed for the scale-out test');
    } finally {
      await bus.close();
    }
  });
});
