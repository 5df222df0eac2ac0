/**
 * Socket load benchmark (not a test: it asserts nothing). Starts the production server on a fresh
 * PGlite database holding N demo viewers (users, contacts and sessions with known tokens), then for
 * each N opens N concurrent socket.io viewers of one course, each sending `tracking play` and then a
 * progress event every 5 s (start times staggered) while a light HTTP probe keeps asking for the
 * catalogue. Prints per N: events acknowledged per second, ack latency p50/p99/max, peak server RSS,
 * errors, and the probe's p50/p99. After the server's clean shutdown it opens the database and checks
 * that every acknowledged position is the stored one.
 *
 *   npm run bench:socket                                  (200, 1000 and 2000 viewers, 30 s each)
 *   npm run bench:socket -- --viewers=2000 --seconds=60
 *   BENCH_SOCKET_PORT=4511 DIST_DIR=dist-other npm run bench:socket
 *
 * Scaled out (`--processes=2`, or BENCH_PROCESSES=2): the socket tier as replicas run it. P compiled
 * servers (ports BENCH_SOCKET_PORT, +1, …) on one fresh PostgreSQL database share socket rooms through
 * Redis; viewers go to them alternately. Besides the figures above it prints each process's peak RSS,
 * where the CPU went, and the cross-process delivery: one viewer in `--cross-every` (default 10) keeps
 * a second socket open on ANOTHER process, which must hear the `tracking` broadcast of each of that
 * person's acknowledged events (delivered / expected, and the p99 from emit to arrival). Ack latency is
 * from emit to the acknowledgement callback, so a busy client loop would inflate it: each client
 * process prints its event-loop delay and CPU, and `--clients=N` (BENCH_CLIENT_PROCESSES) splits the
 * viewers over N forks of this script (`--role=clients`). The default is 1: 5,000 viewers take about a
 * fifth of one core and its loop stays prompt, and on a 2-core machine that also runs both servers,
 * PostgreSQL and Redis, a second client process only adds CPU to a machine that is already the
 * bottleneck (measured: ack p99 worse with 2). After every server's clean shutdown (SIGTERM) it checks
 * every acknowledged position in PostgreSQL, prints the number lost, and drops the database. It needs
 * PostgreSQL and Redis and says so (exit 1) when either is missing.
 *
 *   npm run bench:socket -- --processes=2 --viewers=5000 --seconds=30
 *   npm run bench:socket -- --processes=2 --viewers=5000 --clients=2 --cross-every=20
 *   BENCH_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/postgres   (where the fresh database is made; this default)
 *   BENCH_DATABASE_URL=postgres://…/academy_bench                   (an existing database instead: kept, not dropped)
 *   BENCH_REDIS_URL=redis://127.0.0.1:6379                          (this default)
 */
import { performance, monitorEventLoopDelay } from 'node:perf_hooks';
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { cpus } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { io, type Socket } from 'socket.io-client';
import { inArray } from 'drizzle-orm';
import { createPostgresDatabase, postgresReachable } from '../src/lib/db/testing';
import { openDatabase, type Db } from '../src/lib/db/client';
import { migrate } from '../src/lib/db/migrate';
import { isEmpty, seed } from '../src/lib/db/seed/seed.server';
import * as s from '../src/lib/db/schema';
import { hashToken, newToken } from '../src/lib/identity/session.server';
import { loadCatalog } from '../src/lib/catalog/catalog.server';
import { redisReachable } from '../src/lib/testing/services';
import type { TrackingAck, TrackingBroadcast } from '../src/lib/learning/learning';
import { BENCH_METRICS_TOKEN, ensureBuilt, rssMb, startBenchProcess, startBenchServer, type BenchProcess, type BenchServer } from './server';

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const counts = (arg('viewers') ?? process.env.BENCH_VIEWERS ?? '200,1000,2000').split(',').map(Number).filter((n) => n > 0);
const seconds = Number(arg('seconds') ?? process.env.BENCH_SOCKET_SECONDS ?? 30);
const intervalMs = Number(arg('interval') ?? 5) * 1000;
const port = Number(process.env.BENCH_SOCKET_PORT ?? 4511);
const COURSE_ID = 1;
const maxViewers = Math.max(...counts);
/** Server processes: 1 is the PGlite benchmark; more is the scaled-out one on PostgreSQL and Redis. */
const processes = Math.max(1, Number(arg('processes') ?? process.env.BENCH_PROCESSES ?? 1));
/** Scaled out: how many processes the clients run in (see above), and which share of viewers gets a second socket on another process. */
const clientProcesses = Math.max(1, Number(arg('clients') ?? process.env.BENCH_CLIENT_PROCESSES ?? 1));
const crossEvery = Math.max(0, Number(arg('cross-every') ?? process.env.BENCH_CROSS_EVERY ?? 10));

interface Lesson {
  id: number;
  duration: number;
}
interface Viewer {
  token: string;
  contactId: number;
  socket: Socket | null;
  lesson: number;
  avance: number;
  timers: ReturnType<typeof setTimeout>[];
}
const viewers: Viewer[] = [];
let lessons: Lesson[] = [];
/** The last acknowledged position of each (contact, lesson), checked against the database at the end. */
const acknowledged = new Map<string, number>();

/**
 * Adds one learner with a session per viewer to a migrated, seeded database (`tag` keeps the e-mails
 * apart from an earlier run's in a database that is kept), and reads the benchmark course's lessons.
 */
async function addViewers(db: Db, tag = ''): Promise<void> {
  const expiresAt = new Date(Date.now() + 24 * 3600_000);
  for (let from = 0; from < maxViewers; from += 500) {
    const batch = Array.from({ length: Math.min(500, maxViewers - from) }, (_, i) => from + i);
    const users = await db
      .insert(s.users)
      .values(batch.map((i) => ({ email: `viewer${i}${tag}@bench.example`, firstName: 'Viewer', lastName: String(i) })))
      .returning({ id: s.users.id, email: s.users.email });
    const contacts = await db
      .insert(s.contacts)
      .values(users.map((u) => ({ userId: u.id, firstName: 'Viewer', lastName: u.email, email: u.email })))
      .returning({ id: s.contacts.id, userId: s.contacts.userId });
    const tokens = users.map(() => newToken());
    await db.insert(s.sessions).values(users.map((u, i) => ({ tokenHash: hashToken(tokens[i]!), kind: 'user' as const, userId: u.id, expiresAt })));
    const contactOf = new Map(contacts.map((c) => [c.userId, c.id]));
    users.forEach((u, i) => viewers.push({ token: tokens[i]!, contactId: contactOf.get(u.id)!, socket: null, lesson: 0, avance: 0, timers: [] }));
  }
  const course = (await loadCatalog(db)).byId.get(COURSE_ID)!;
  lessons = course.modules.flatMap((m) => m.lessons.map((l) => ({ id: l.id, duration: l.durationSeconds })));
}

/** Fills the fresh data folder: catalogue, and one learner with a session per viewer. */
async function prepare(dataDir: string): Promise<void> {
  const handle = await openDatabase({ databaseUrl: null, dataDir });
  await migrate(handle);
  await seed(handle.db, resolve('media'));
  await addViewers(handle.db);
  await handle.close();
}

/** Compares every acknowledged position with the stored one: the rows found, and how many differ (lost). */
async function checkStored(db: Db): Promise<{ rows: number; lost: number }> {
  const rows = await db
    .select({ contactId: s.tracking.contactId, subtopicId: s.tracking.subtopicId, lastPosition: s.tracking.lastPosition })
    .from(s.tracking)
    .where(inArray(s.tracking.contactId, viewers.map((v) => v.contactId)));
  const stored = new Map(rows.map((r) => [`${r.contactId}:${r.subtopicId}`, Number(r.lastPosition)]));
  let lost = 0;
  for (const [key, avance] of acknowledged) if (stored.get(key) !== avance) lost++;
  return { rows: rows.length, lost };
}

/** After the clean shutdown: every acknowledged position must be the stored one. */
async function verify(dataDir: string): Promise<void> {
  const handle = await openDatabase({ databaseUrl: null, dataDir });
  const { rows, lost } = await checkStored(handle.db).finally(() => handle.close());
  console.log(`\nstored after shutdown: ${rows} rows; ${acknowledged.size} acknowledged (person, lesson) positions, ${lost} not as acknowledged`);
}

const percentile = (sorted: number[], p: number) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!);
const ms = (n: number) => `${n.toFixed(1)} ms`;
const sleep = (t: number) => new Promise((r) => setTimeout(r, t));

/** One step of a viewer: play a lesson, report every interval, end it, go on with the next lesson. */
function step(v: { lesson: number; avance: number }, emit: (event: string, avance: number) => void): void {
  const lesson = lessons[v.lesson]!;
  if (v.avance < 0) {
    v.avance = 0;
    emit('tracking play', 0);
  } else if (v.avance + intervalMs / 1000 >= lesson.duration) {
    emit('tracking end', v.avance + intervalMs / 1000);
    v.lesson = (v.lesson + 1) % lessons.length;
    v.avance = -1;
  } else {
    v.avance += intervalMs / 1000;
    emit('tracking', v.avance);
  }
}

/** Opens one viewer's socket to the course on `base` and resolves once it is connected. */
function openSocket(base: string, token: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = io(base, {
      auth: { courseId: COURSE_ID },
      extraHeaders: { cookie: `session=${token}` },
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
    });
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (err) => {
      socket.close();
      reject(err);
    });
  });
}

/* ───────────── one process on PGlite (the default) ───────────── */

let server: BenchServer;
let pid = 0;

async function connect(v: Viewer): Promise<void> {
  v.socket = await openSocket(server.base, v.token);
}

interface RunStats {
  latencies: number[];
  ok: number;
  errors: number;
  probeVisitor: number[];
  probeLearner: number[];
  probeErrors: number;
  peakRss: number;
}

async function run(n: number, runSeconds = seconds) {
  const group = viewers.slice(0, n);
  const stats: RunStats = { latencies: [], ok: 0, errors: 0, probeVisitor: [], probeLearner: [], probeErrors: 0, peakRss: rssMb(pid) };
  const connectStart = performance.now();
  let connectErrors = 0;
  for (let i = 0; i < group.length; i += 50) {
    const results = await Promise.allSettled(group.slice(i, i + 50).map(connect));
    connectErrors += results.filter((r) => r.status === 'rejected').length;
  }
  const connectSeconds = (performance.now() - connectStart) / 1000;

  const inflight = new Set<Promise<unknown>>();
  const emit = (v: Viewer, event: string, avance: number) => {
    if (!v.socket) return;
    const lesson = lessons[v.lesson]!;
    const t = performance.now();
    const p = (v.socket.timeout(10_000).emitWithAck(event, { Identificador: lesson.id, IdEntidad: 3, IdContacto: v.contactId, Avance: avance, Activo: true }) as Promise<TrackingAck>).then(
      (ack) => {
        stats.latencies.push(performance.now() - t);
        if (ack.ok) {
          stats.ok++;
          acknowledged.set(`${v.contactId}:${ack.Identificador}`, ack.Avance);
        } else stats.errors++;
      },
      () => stats.errors++,
    );
    inflight.add(p);
    void p.finally(() => inflight.delete(p));
  };

  const rssTimer = setInterval(() => (stats.peakRss = Math.max(stats.peakRss, rssMb(pid))), 200);
  const start = performance.now();
  for (const [i, v] of group.entries()) {
    v.avance = -1;
    v.lesson = i % lessons.length;
    const next = () => step(v, (event, avance) => emit(v, event, avance));
    // Staggered: viewers start evenly over the first interval.
    v.timers.push(
      setTimeout(() => {
        next();
        v.timers.push(setInterval(next, intervalMs));
      }, (i / group.length) * intervalMs),
    );
  }

  // The light HTTP probe: the catalogue as a visitor and as a signed-in learner, a few requests a second.
  let probing = true;
  const probe = async (cookie: string | null, into: number[]) => {
    while (probing) {
      const t = performance.now();
      try {
        const res = await fetch(`${server.base}/courses`, { headers: cookie ? { cookie } : {} });
        await res.arrayBuffer();
        if (res.ok) into.push(performance.now() - t);
        else stats.probeErrors++;
      } catch {
        stats.probeErrors++;
      }
      await sleep(200);
    }
  };
  const probes = [probe(null, stats.probeVisitor), probe(`session=${viewers[viewers.length - 1]!.token}`, stats.probeLearner)];

  await sleep(runSeconds * 1000);
  for (const v of group) for (const t of v.timers.splice(0)) clearTimeout(t);
  const elapsed = (performance.now() - start) / 1000;
  await Promise.allSettled([...inflight]);
  probing = false;
  await Promise.all(probes);
  clearInterval(rssTimer);
  for (const v of group) {
    v.socket?.close();
    v.socket = null;
  }
  await sleep(1000);

  const lat = stats.latencies.sort((a, b) => a - b);
  const visitor = stats.probeVisitor.sort((a, b) => a - b);
  const learner = stats.probeLearner.sort((a, b) => a - b);
  return [
    String(n),
    `${connectSeconds.toFixed(1)} s`,
    (stats.ok / elapsed).toFixed(0),
    String(stats.ok),
    ms(percentile(lat, 50)),
    ms(percentile(lat, 99)),
    ms(lat.at(-1) ?? 0),
    String(stats.errors + connectErrors),
    `${stats.peakRss.toFixed(0)} MB`,
    `${ms(percentile(visitor, 50))} / ${ms(percentile(visitor, 99))}`,
    `${ms(percentile(learner, 50))} / ${ms(percentile(learner, 99))}`,
    String(stats.probeErrors),
  ];
}

/** Prints rows under a header, each column as wide as its widest cell. */
function printTable(head: string[], rows: string[][]): void {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  console.log(line(head));
  for (const r of rows) console.log(line(r));
}

async function singleProcess(): Promise<void> {
  server = await startBenchServer(port, { prepare, afterStop: verify });
  pid = server.serverPid();
  console.log(`socket benchmark: course ${COURSE_ID} (${lessons.length} lessons), one event per viewer every ${intervalMs / 1000} s, ${seconds} s per run, server pid ${pid}, idle RSS ${rssMb(pid).toFixed(0)} MB`);

  // Warm-up (not measured): the first seconds after start-up compile PGlite's WebAssembly hot paths,
  // which costs CPU and a transient few hundred MB; a short run of 100 viewers gets that out of the way.
  console.log('warming up…');
  await run(Math.min(100, maxViewers), 8);
  await sleep(3000);
  console.log(`server RSS after warm-up, idle: ${rssMb(pid).toFixed(0)} MB`);

  const rows: string[][] = [];
  for (const n of counts) {
    console.log(`running ${n} viewers…`);
    rows.push(await run(n));
  }

  console.log(`\nSocket benchmark: PGlite, one process, ${seconds} s per run, ${new Date().toISOString()}`);
  printTable(['viewers', 'connect', 'acked ev/s', 'acked', 'ack p50', 'ack p99', 'ack max', 'errors', 'server RSS peak', '/courses visitor p50/p99', '/courses learner p50/p99', 'probe errors'], rows);
  await server.stop();
}

/* ───────────── scaled out: the client side (in this process or in forked ones) ───────────── */

/** A viewer as a client process gets it. */
interface PlannedViewer {
  /** Its place among all viewers: a run of n viewers uses the first n; it also sets its start within the interval. */
  index: number;
  token: string;
  contactId: number;
  /** The server its socket (and so its events) goes to: an index into `bases`. */
  server: number;
  /** The other server its second, listening socket is on, or null for none. */
  cross: number | null;
}

/** Everything a client process needs: the servers, the course, and its share of the viewers. */
interface ClientSetup {
  bases: string[];
  lessons: Lesson[];
  viewers: PlannedViewer[];
}

/** What one client process measured in one run (the parent merges them). */
interface ClientResult {
  /** From emit to the acknowledgement callback, ms, one per answered event. */
  latencies: number[];
  ok: number;
  errors: number;
  /** From the first scheduled start to the last event sent, s. */
  elapsed: number;
  /** `contact:lesson` and acknowledged position of each acknowledged event, in order. */
  acknowledged: [string, number][];
  /** Acknowledged events of viewers with a second socket, and how many of their broadcasts it heard. */
  crossExpected: number;
  crossDelivered: number;
  /** From emit (on one process) to the broadcast's arrival on the second socket (on the other), ms. */
  crossLatencies: number[];
  /** This process's event-loop delay during the run, ms: when it grows, the client side is the bottleneck. */
  loopP99: number;
  loopMax: number;
  /** This process's CPU during the run, % of one core. */
  cpu: number;
}

/** The client side of the runs, whether it runs in this process or in a forked one. */
interface Clients {
  /** Opens the sockets of its viewers among the first n; resolves with the number that failed. */
  connect(n: number): Promise<number>;
  /** Runs those viewers from `startAt` (wall clock, the same for every client process) for `seconds`, then closes their sockets. */
  run(n: number, startAt: number, seconds: number): Promise<ClientResult>;
  close(): void;
}

interface LiveViewer {
  plan: PlannedViewer;
  socket: Socket | null;
  /** The second socket, on another process: it only listens. */
  cross: Socket | null;
  lesson: number;
  avance: number;
  timers: ReturnType<typeof setTimeout>[];
  /** Broadcasts the second socket heard (`lesson:position` → arrival) and the ones it should hear (→ emit time). */
  heard: Map<string, number>;
  expected: { key: string; sentAt: number }[];
}

/** How often (ms) a client process samples its event loop's delay. */
const LOOP_RESOLUTION_MS = 10;

/** Viewers driven from this process. */
class ClientPool implements Clients {
  readonly #setup: ClientSetup;
  readonly #live: LiveViewer[];

  constructor(setup: ClientSetup) {
    this.#setup = setup;
    // `step` reads the course's lessons from the module (a forked client process learns them here).
    lessons = setup.lessons;
    this.#live = setup.viewers.map((plan) => ({ plan, socket: null, cross: null, lesson: 0, avance: 0, timers: [], heard: new Map(), expected: [] }));
  }

  async connect(n: number): Promise<number> {
    const { bases } = this.#setup;
    const open = async (v: LiveViewer) => {
      v.socket = await openSocket(bases[v.plan.server]!, v.plan.token);
      if (v.plan.cross === null) return;
      v.cross = await openSocket(bases[v.plan.cross]!, v.plan.token);
      v.cross.on('tracking', (m: TrackingBroadcast) => {
        const key = `${m.Identificador}:${m.Avance}`;
        if (!v.heard.has(key)) v.heard.set(key, performance.now());
      });
    };
    const group = this.#live.filter((v) => v.plan.index < n);
    let errors = 0;
    for (let i = 0; i < group.length; i += 50) {
      const results = await Promise.allSettled(group.slice(i, i + 50).map(open));
      errors += results.filter((r) => r.status === 'rejected').length;
    }
    return errors;
  }

  async run(n: number, startAt: number, runSeconds: number): Promise<ClientResult> {
    const group = this.#live.filter((v) => v.plan.index < n && v.socket);
    const result: ClientResult = { latencies: [], ok: 0, errors: 0, elapsed: 0, acknowledged: [], crossExpected: 0, crossDelivered: 0, crossLatencies: [], loopP99: 0, loopMax: 0, cpu: 0 };
    const inflight = new Set<Promise<unknown>>();
    const emit = (v: LiveViewer, event: string, avance: number) => {
      if (!v.socket) return;
      const lesson = lessons[v.lesson]!;
      const t = performance.now();
      const p = (v.socket.timeout(10_000).emitWithAck(event, { Identificador: lesson.id, IdEntidad: 3, IdContacto: v.plan.contactId, Avance: avance, Activo: true }) as Promise<TrackingAck>).then(
        (ack) => {
          result.latencies.push(performance.now() - t);
          if (ack.ok) {
            result.ok++;
            result.acknowledged.push([`${v.plan.contactId}:${ack.Identificador}`, ack.Avance]);
            // The person's socket on the other process must hear this position.
            if (v.cross) v.expected.push({ key: `${ack.Identificador}:${ack.Avance}`, sentAt: t });
          } else result.errors++;
        },
        () => result.errors++,
      );
      inflight.add(p);
      void p.finally(() => inflight.delete(p));
    };

    const loop = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
    loop.enable();
    const cpuStart = process.cpuUsage();
    const measuredFrom = performance.now();
    const wait = Math.max(0, startAt - Date.now());
    const began = performance.now() + wait;
    for (const v of group) {
      v.avance = -1;
      v.lesson = v.plan.index % lessons.length;
      v.heard.clear();
      v.expected = [];
      const next = () => step(v, (event, avance) => emit(v, event, avance));
      // Staggered over the first interval by the viewer's place among all n, whichever process drives it.
      v.timers.push(
        setTimeout(() => {
          next();
          v.timers.push(setInterval(next, intervalMs));
        }, wait + (v.plan.index / n) * intervalMs),
      );
    }
    await sleep(wait + runSeconds * 1000);
    for (const v of group) for (const t of v.timers.splice(0)) clearTimeout(t);
    result.elapsed = (performance.now() - began) / 1000;
    await Promise.allSettled([...inflight]);
    // A broadcast relayed through Redis may arrive a moment after the last acknowledgement.
    await sleep(1000);
    loop.disable();
    const cpu = process.cpuUsage(cpuStart);
    result.cpu = ((cpu.user + cpu.system) / 1000 / (performance.now() - measuredFrom)) * 100;
    // The histogram holds the time between its timer's turns: the delay is what exceeds the resolution.
    result.loopP99 = Math.max(0, loop.percentile(99) / 1e6 - LOOP_RESOLUTION_MS);
    result.loopMax = Math.max(0, loop.max / 1e6 - LOOP_RESOLUTION_MS);

    for (const v of group) {
      for (const e of v.expected) {
        result.crossExpected++;
        const at = v.heard.get(e.key);
        if (at === undefined) continue;
        result.crossDelivered++;
        result.crossLatencies.push(at - e.sentAt);
      }
      v.socket?.close();
      v.cross?.close();
      v.socket = v.cross = null;
    }
    return result;
  }

  close(): void {}
}

/** Messages from the parent to a forked client process, and its answers. */
type ToClients = { type: 'setup'; setup: ClientSetup } | { type: 'connect'; n: number } | { type: 'run'; n: number; startAt: number; seconds: number };
type FromClients = { type: 'connected'; errors: number } | { type: 'result'; result: ClientResult };

/** Viewers driven from a fork of this script (`--role=clients`), over its IPC channel. */
class ForkedClients implements Clients {
  readonly #child: ChildProcess;

  constructor(setup: ClientSetup) {
    // Same script, arguments (so the same interval), Node and loader flags (tsx); its own event loop.
    this.#child = fork(fileURLToPath(import.meta.url), [...process.argv.slice(2), '--role=clients'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.#send({ type: 'setup', setup });
  }

  get pid(): number {
    return this.#child.pid!;
  }

  #send(message: ToClients): void {
    this.#child.send(message);
  }

  /** Sends a request and resolves with the child's answer of the given type. */
  #ask<T extends FromClients['type']>(message: ToClients, answer: T): Promise<Extract<FromClients, { type: T }>> {
    return new Promise((resolve, reject) => {
      const onMessage = (m: FromClients) => {
        if (m.type !== answer) return;
        done();
        resolve(m as Extract<FromClients, { type: T }>);
      };
      const onExit = (code: number | null) => {
        done();
        reject(new Error(`a client process exited with ${code}`));
      };
      const done = () => {
        this.#child.off('message', onMessage);
        this.#child.off('exit', onExit);
      };
      this.#child.on('message', onMessage);
      this.#child.once('exit', onExit);
      this.#send(message);
    });
  }

  async connect(n: number): Promise<number> {
    return (await this.#ask({ type: 'connect', n }, 'connected')).errors;
  }

  async run(n: number, startAt: number, runSeconds: number): Promise<ClientResult> {
    return (await this.#ask({ type: 'run', n, startAt, seconds: runSeconds }, 'result')).result;
  }

  close(): void {
    // The child exits once its channel closes (see `clientRole`).
    if (this.#child.connected) this.#child.disconnect();
  }
}

/** The forked client process: drives its share of the viewers as the parent asks. */
function clientRole(): void {
  let pool: ClientPool | null = null;
  const answer = (m: FromClients) => process.send!(m);
  process.on('message', (m: ToClients) => {
    if (m.type === 'setup') pool = new ClientPool(m.setup);
    else if (m.type === 'connect') void pool!.connect(m.n).then((errors) => answer({ type: 'connected', errors }));
    else void pool!.run(m.n, m.startAt, m.seconds).then((result) => answer({ type: 'result', result }));
  });
  process.on('disconnect', () => process.exit(0));
}

/* ───────────── scaled out: the servers, the runs, the checks ───────────── */

/** Linux counts CPU time in clock ticks of 1/100 s (`getconf CLK_TCK`). */
const TICKS_PER_SECOND = 100;

/** CPU time (ticks) used so far: by the processes named in `names` (by pid), PostgreSQL's and Redis's processes, and the whole machine (busy). */
function cpuTicks(names: Map<number, string>): Map<string, number> {
  const used = new Map<string, number>();
  const add = (name: string, ticks: number) => used.set(name, (used.get(name) ?? 0) + ticks);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // pid (comm) state ppid … utime stime cutime cstime: fields 14 to 17, counted after the command name's `)`.
    // cutime and cstime are the children it has reaped: PostgreSQL's postmaster holds there the time of
    // the connections (backends) that ended during the run, which would otherwise vanish with them.
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    const name = names.get(Number(entry)) ?? (comm === 'postgres' ? 'PostgreSQL' : comm.startsWith('redis-server') ? 'Redis' : null);
    if (name) add(name, ticks);
  }
  // The first line of /proc/stat: the machine's user nice system idle iowait irq softirq steal ticks.
  const all = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.split(/\s+/).slice(1, 9).map(Number);
  add('machine', all.reduce((a, b) => a + b, 0) - all[3]! - all[4]!);
  return used;
}

/**
 * A server's own view from its `/metrics`: each metric summed over its labels (a histogram's buckets
 * as `name{le=…}`). The event-loop lag figures cover the time since the previous scrape (prom-client
 * resets its histogram on each); the others are totals since start.
 */
async function serverMetrics(base: string): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  try {
    const text = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${BENCH_METRICS_TOKEN}` } })).text();
    for (const m of text.matchAll(/^([a-z_]+)(\{[^}]*\})? ([-+\w.]+)$/gm)) {
      const le = /le="([^"]+)"/.exec(m[2] ?? '')?.[1];
      const key = le ? `${m[1]}{le=${le}}` : m[1]!;
      found.set(key, (found.get(key) ?? 0) + Number(m[3]));
    }
  } catch {
    // No figures from a server that does not answer; the table says what went wrong.
  }
  return found;
}

/** prom-client samples the event loop every 10 ms and counts that interval in the delay; this is the excess. */
const lagMs = (m: Map<string, number>, name: string) => Math.max(0, (m.get(name) ?? 0) * 1000 - 10);

/** The soft limit on open files of this process (and so of the client processes it forks). */
function openFileLimit(): number {
  const m = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
  return !m || m[1] === 'unlimited' ? Infinity : Number(m[1]);
}

const hostOf = (url: string) => {
  const u = new URL(url);
  return `${u.hostname}:${u.port || 5432}${u.pathname}`;
};

async function scaledOut(): Promise<void> {
  const redisUrl = process.env.BENCH_REDIS_URL || 'redis://127.0.0.1:6379';
  const existingUrl = process.env.BENCH_DATABASE_URL || null;
  const adminUrl = process.env.BENCH_POSTGRES_URL || process.env.TEST_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

  // Both services are required: say which is missing and how to point at it, and stop.
  const missing: string[] = [];
  if (!(await postgresReachable(existingUrl ?? adminUrl))) {
    missing.push(`PostgreSQL at ${hostOf(existingUrl ?? adminUrl)} (start it, or set BENCH_POSTGRES_URL to a server to create a fresh database on, or BENCH_DATABASE_URL to an existing database)`);
  }
  if (!(await redisReachable(redisUrl))) missing.push(`Redis at ${redisUrl} (start it, or set BENCH_REDIS_URL)`);
  if (missing.length > 0) {
    console.error(`bench:socket with ${processes} processes needs ${missing.join(' and ')}.`);
    process.exit(1);
  }

  // Every socket is a file descriptor at both ends: the client processes share them all (second sockets
  // included), so do the servers, and `ulimit -n` (inherited by both) is per process. Too low a limit
  // shows up as connection errors (EMFILE).
  const sockets = maxViewers + (crossEvery > 0 ? Math.ceil(maxViewers / crossEvery) : 0);
  const needed = Math.ceil(sockets / Math.min(clientProcesses, processes)) + 256;
  if (openFileLimit() < needed) {
    console.error(`bench:socket: ${sockets} sockets need about ${needed} open files in one process, but the limit is ${openFileLimit()}: raise it (ulimit -n ${needed * 2}).`);
    process.exit(1);
  }
  ensureBuilt();

  const database = existingUrl ? { url: existingUrl, drop: () => Promise.resolve() } : await createPostgresDatabase({ server: adminUrl, prefix: 'academy_bench' });
  const servers: BenchProcess[] = [];
  const clients: Clients[] = [];
  let stopped = false;
  const stopServers = async () => {
    if (stopped) return;
    stopped = true;
    // SIGTERM to every process at once, as an orchestrator stops replicas; each writes what it holds and exits.
    await Promise.all(servers.map((p) => p.stop()));
  };
  try {
    // Migrate and seed as the first server would, then add the viewers (a kept database gets new ones, tagged by run).
    const handle = await openDatabase({ databaseUrl: database.url, dataDir: 'unused' });
    try {
      await migrate(handle);
      if (await isEmpty(handle.db)) await seed(handle.db, resolve('media'));
      await addViewers(handle.db, existingUrl ? `.${Date.now().toString(36)}` : '');
    } finally {
      await handle.close();
    }
    // The first process finds the database ready; the second starts once the first listens.
    for (let p = 0; p < processes; p++) servers.push(await startBenchProcess(port + p, { databaseUrl: database.url, redisUrl, name: String.fromCharCode(65 + p) }));
    const bases = servers.map((p) => p.base);

    // Viewer i: events to process i mod P; driven by client process ⌊i / P⌋ mod C, so each client talks to
    // every server; in every (cross-every)-th block of P·C viewers each also listens on the next process.
    const plans: PlannedViewer[][] = Array.from({ length: clientProcesses }, () => []);
    viewers.forEach((v, i) => {
      const cross = processes > 1 && crossEvery > 0 && Math.floor(i / (processes * clientProcesses)) % crossEvery === 0 ? (i + 1) % processes : null;
      plans[Math.floor(i / processes) % clientProcesses]!.push({ index: i, token: v.token, contactId: v.contactId, server: i % processes, cross });
    });
    const setups = plans.map((share) => ({ bases, lessons, viewers: share }));
    // One client process drives the viewers from this very process; more are forks of this script.
    if (clientProcesses === 1) clients.push(new ClientPool(setups[0]!));
    else for (const setup of setups) clients.push(new ForkedClients(setup));

    const names = new Map<number, string>(servers.map((p, i) => [p.serverPid(), `server ${String.fromCharCode(65 + i)}`]));
    names.set(process.pid, clientProcesses === 1 ? 'bench (clients, probe)' : 'bench (probe)');
    for (const c of clients) if (c instanceof ForkedClients) names.set(c.pid, 'clients');
    console.log(
      `socket benchmark, scaled out: ${processes} processes (pids ${servers.map((p) => p.serverPid()).join(', ')}) on PostgreSQL ${hostOf(database.url)} and Redis ${redisUrl}; ` +
        `course ${COURSE_ID} (${lessons.length} lessons), one event per viewer every ${intervalMs / 1000} s, ${seconds} s per run; ` +
        `${clientProcesses} client process(es); ${crossEvery > 0 ? `one viewer in ${crossEvery} also listens on another process` : 'no cross-process listeners'}; ` +
        `idle RSS ${servers.map((p) => `${rssMb(p.serverPid()).toFixed(0)} MB`).join(' / ')}`,
    );

    /** One measured run of n viewers: the table row, and where the CPU went. */
    const runScaled = async (n: number, runSeconds = seconds) => {
      const peakRss = servers.map((p) => rssMb(p.serverPid()));
      const connectStart = performance.now();
      const connectErrors = (await Promise.all(clients.map((c) => c.connect(n)))).reduce((a, b) => a + b, 0);
      const connectSeconds = (performance.now() - connectStart) / 1000;

      const rssTimer = setInterval(() => servers.forEach((p, i) => (peakRss[i] = Math.max(peakRss[i]!, rssMb(p.serverPid())))), 200);
      // Every client process starts its viewers at the same moment, a little after this.
      const startAt = Date.now() + 300;
      const running = Promise.all(clients.map((c) => c.run(n, startAt, runSeconds)));
      await sleep(300);
      // Read now, so the servers' event-loop figures read after the run cover the run alone.
      const metricsBefore = await Promise.all(bases.map(serverMetrics));
      const cpuBefore = cpuTicks(names);
      const cpuStart = performance.now();

      // The light HTTP probe, as in the one-process benchmark, taking turns over the processes.
      const probe = { visitor: [] as number[], learner: [] as number[], errors: 0, on: true };
      const probeLoop = async (cookie: string | null, into: number[]) => {
        for (let k = 0; probe.on; k++) {
          const t = performance.now();
          try {
            const res = await fetch(`${bases[k % bases.length]}/courses`, { headers: cookie ? { cookie } : {} });
            await res.arrayBuffer();
            if (res.ok) into.push(performance.now() - t);
            else probe.errors++;
          } catch {
            probe.errors++;
          }
          await sleep(200);
        }
      };
      const probes = [probeLoop(null, probe.visitor), probeLoop(`session=${viewers[viewers.length - 1]!.token}`, probe.learner)];
      await sleep(runSeconds * 1000);
      const cpuAfter = cpuTicks(names);
      const cpuSeconds = (performance.now() - cpuStart) / 1000;
      const metricsAfter = await Promise.all(bases.map(serverMetrics));
      const results = await running;
      probe.on = false;
      await Promise.all(probes);
      clearInterval(rssTimer);
      for (const r of results) for (const [key, avance] of r.acknowledged) acknowledged.set(key, avance);
      await sleep(1000);

      const sum = (f: (r: ClientResult) => number) => results.reduce((a, r) => a + f(r), 0);
      const lat = results.flatMap((r) => r.latencies).sort((a, b) => a - b);
      const cross = results.flatMap((r) => r.crossLatencies).sort((a, b) => a - b);
      const visitor = probe.visitor.sort((a, b) => a - b);
      const learner = probe.learner.sort((a, b) => a - b);
      const ok = sum((r) => r.ok);
      const elapsed = Math.max(...results.map((r) => r.elapsed));
      const cpu = [...cpuAfter]
        .filter(([name]) => name !== 'machine')
        .map(([name, ticks]) => `${name} ${(((ticks - (cpuBefore.get(name) ?? 0)) / TICKS_PER_SECOND / cpuSeconds) * 100).toFixed(0)}%`);
      const machine = ((cpuAfter.get('machine')! - cpuBefore.get('machine')!) / TICKS_PER_SECOND / cpuSeconds) * 100;
      return {
        n,
        p99: percentile(lat, 99),
        errors: sum((r) => r.errors) + connectErrors,
        crossMissing: sum((r) => r.crossExpected) - sum((r) => r.crossDelivered),
        row: [
          String(n),
          `${connectSeconds.toFixed(1)} s`,
          (ok / elapsed).toFixed(0),
          String(ok),
          ms(percentile(lat, 50)),
          ms(percentile(lat, 99)),
          ms(lat.at(-1) ?? 0),
          String(sum((r) => r.errors) + connectErrors),
          peakRss.map((mb) => `${mb.toFixed(0)} MB`).join(' / '),
          `${sum((r) => r.crossDelivered)} / ${sum((r) => r.crossExpected)}`,
          `${ms(percentile(cross, 50))} / ${ms(percentile(cross, 99))}`,
          results.map((r) => `${ms(r.loopP99)} / ${ms(r.loopMax)}`).join(', '),
          `${ms(percentile(visitor, 50))} / ${ms(percentile(visitor, 99))}`,
          `${ms(percentile(learner, 50))} / ${ms(percentile(learner, 99))}`,
          String(probe.errors),
        ],
        cpu:
          `${n} viewers, CPU during the run (% of one core, the machine has ${cpus().length}): ${cpu.join(', ')}; ` +
          `client processes by their own count ${results.map((r) => `${r.cpu.toFixed(0)}%`).join(', ')}; machine busy ${machine.toFixed(0)}% of ${cpus().length * 100}%`,
        servers:
          `${n} viewers, the servers' own figures during the run: ` +
          metricsAfter
            .map((after, i) => {
              const during = (name: string) => (after.get(name) ?? 0) - (metricsBefore[i]!.get(name) ?? 0);
              const gcMs = during('nodejs_gc_duration_seconds_sum') * 1000;
              // Pauses longer than 10 ms: all of them minus those in prom-client's 0.01 s bucket.
              const longPauses = during('nodejs_gc_duration_seconds_count') - during('nodejs_gc_duration_seconds_bucket{le=0.01}');
              return (
                `${String.fromCharCode(65 + i)}: event-loop delay p99 ${ms(lagMs(after, 'nodejs_eventloop_lag_p99_seconds'))}, max ${ms(lagMs(after, 'nodejs_eventloop_lag_max_seconds'))}, ` +
                `GC ${gcMs.toFixed(0)} ms (${((gcMs / 1000 / cpuSeconds) * 100).toFixed(1)}% of the time, ${longPauses} pauses over 10 ms)`
              );
            })
            .join('; '),
      };
    };

    // Warm-up (not measured): the servers' first events compile their hot paths.
    console.log('warming up…');
    await runScaled(Math.min(100, maxViewers), 8);
    await sleep(3000);
    console.log(`server RSS after warm-up, idle: ${servers.map((p) => `${rssMb(p.serverPid()).toFixed(0)} MB`).join(' / ')}`);

    const runs = [];
    for (const n of counts) {
      console.log(`running ${n} viewers…`);
      runs.push(await runScaled(n));
    }

    console.log(`\nSocket benchmark: PostgreSQL + Redis, ${processes} processes, ${clientProcesses} client process(es), ${seconds} s per run, ${new Date().toISOString()}`);
    printTable(
      [
        'viewers', 'connect', 'acked ev/s', 'acked', 'ack p50', 'ack p99', 'ack max', 'errors',
        `RSS peak ${servers.map((_, i) => String.fromCharCode(65 + i)).join(' / ')}`, 'cross delivered', 'cross p50 / p99',
        'client loop p99 / max', '/courses visitor p50/p99', '/courses learner p50/p99', 'probe errors',
      ],
      runs.map((r) => r.row),
    );
    for (const r of runs) console.log(`${r.cpu}\n${r.servers}`);

    for (const c of clients) c.close();
    await stopServers();
    const crashed = servers.filter((p) => p.exitCode() !== 0);
    for (const p of crashed) console.log(`server on ${p.base} exited with ${p.exitCode()}`);

    const check = await openDatabase({ databaseUrl: database.url, dataDir: 'unused' });
    const { rows, lost } = await checkStored(check.db).finally(() => check.close());
    console.log(`\nstored after shutdown: ${rows} rows; ${acknowledged.size} acknowledged (person, lesson) positions; lost: ${lost}`);
    const last = runs.at(-1)!;
    const met = last.p99 < 100 && lost === 0 && crashed.length === 0;
    console.log(
      `goal (${last.n} viewers on ${processes} processes: ack p99 < 100 ms, 0 acknowledged events lost): ${met ? 'met' : 'NOT met'} ` +
        `(p99 ${ms(last.p99)}, lost ${lost}; besides: errors ${last.errors}, cross-process broadcasts missing ${last.crossMissing})`,
    );
    if (!met) process.exitCode = 1;
  } finally {
    for (const c of clients) c.close();
    await stopServers();
    await database.drop();
  }
}

if (arg('role') === 'clients') clientRole();
else if (processes > 1) await scaledOut();
else await singleProcess();
