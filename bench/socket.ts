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
 */
import { performance } from 'node:perf_hooks';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { io, type Socket } from 'socket.io-client';
import { inArray } from 'drizzle-orm';
import { openDatabase } from '../src/lib/db/client';
import { migrate } from '../src/lib/db/migrate';
import { seed } from '../src/lib/db/seed/seed.server';
import * as s from '../src/lib/db/schema';
import { hashToken, newToken } from '../src/lib/identity/session.server';
import { loadCatalog } from '../src/lib/catalog/catalog.server';
import type { TrackingAck } from '../src/lib/learning/learning';
import { startBenchServer } from './server';

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const counts = (arg('viewers') ?? process.env.BENCH_VIEWERS ?? '200,1000,2000').split(',').map(Number).filter((n) => n > 0);
const seconds = Number(arg('seconds') ?? process.env.BENCH_SOCKET_SECONDS ?? 30);
const intervalMs = Number(arg('interval') ?? 5) * 1000;
const port = Number(process.env.BENCH_SOCKET_PORT ?? 4511);
const COURSE_ID = 1;
const maxViewers = Math.max(...counts);

interface Viewer {
  token: string;
  contactId: number;
  socket: Socket | null;
  lesson: number;
  avance: number;
  timers: ReturnType<typeof setTimeout>[];
}
const viewers: Viewer[] = [];
let lessons: { id: number; duration: number }[] = [];
/** The last acknowledged position of each (contact, lesson), checked against the database at the end. */
const acknowledged = new Map<string, number>();

/** Fills the fresh data folder: catalogue, and one learner with a session per viewer. */
async function prepare(dataDir: string): Promise<void> {
  const handle = await openDatabase({ databaseUrl: null, dataDir });
  await migrate(handle);
  await seed(handle.db, resolve('media'));
  const expiresAt = new Date(Date.now() + 24 * 3600_000);
  for (let from = 0; from < maxViewers; from += 500) {
    const batch = Array.from({ length: Math.min(500, maxViewers - from) }, (_, i) => from + i);
    const users = await handle.db
      .insert(s.users)
      .values(batch.map((i) => ({ email: `viewer${i}@bench.example`, firstName: 'Viewer', lastName: String(i) })))
      .returning({ id: s.users.id, email: s.users.email });
    const contacts = await handle.db
      .insert(s.contacts)
      .values(users.map((u) => ({ userId: u.id, firstName: 'Viewer', lastName: u.email, email: u.email })))
      .returning({ id: s.contacts.id, userId: s.contacts.userId });
    const tokens = users.map(() => newToken());
    await handle.db.insert(s.sessions).values(users.map((u, i) => ({ tokenHash: hashToken(tokens[i]!), kind: 'user' as const, userId: u.id, expiresAt })));
    const contactOf = new Map(contacts.map((c) => [c.userId, c.id]));
    users.forEach((u, i) => viewers.push({ token: tokens[i]!, contactId: contactOf.get(u.id)!, socket: null, lesson: 0, avance: 0, timers: [] }));
  }
  const course = (await loadCatalog(handle.db)).byId.get(COURSE_ID)!;
  lessons = course.modules.flatMap((m) => m.lessons.map((l) => ({ id: l.id, duration: l.durationSeconds })));
  await handle.close();
}

/** After the clean shutdown: every acknowledged position must be the stored one. */
async function verify(dataDir: string): Promise<void> {
  const handle = await openDatabase({ databaseUrl: null, dataDir });
  const rows = await handle.db
    .select({ contactId: s.tracking.contactId, subtopicId: s.tracking.subtopicId, lastPosition: s.tracking.lastPosition })
    .from(s.tracking)
    .where(inArray(s.tracking.contactId, viewers.map((v) => v.contactId)));
  await handle.close();
  const stored = new Map(rows.map((r) => [`${r.contactId}:${r.subtopicId}`, Number(r.lastPosition)]));
  let lost = 0;
  for (const [key, avance] of acknowledged) if (stored.get(key) !== avance) lost++;
  console.log(`\nstored after shutdown: ${rows.length} rows; ${acknowledged.size} acknowledged (person, lesson) positions, ${lost} not as acknowledged`);
}

const percentile = (sorted: number[], p: number) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!);
const ms = (n: number) => `${n.toFixed(1)} ms`;
const sleep = (t: number) => new Promise((r) => setTimeout(r, t));

function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

const server = await startBenchServer(port, { prepare, afterStop: verify });
const pid = server.serverPid();
console.log(`socket benchmark: course ${COURSE_ID} (${lessons.length} lessons), one event per viewer every ${intervalMs / 1000} s, ${seconds} s per run, server pid ${pid}, idle RSS ${rssMb(pid).toFixed(0)} MB`);

function connect(v: Viewer): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = io(server.base, {
      auth: { courseId: COURSE_ID },
      extraHeaders: { cookie: `session=${v.token}` },
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
    });
    socket.once('connect', () => {
      v.socket = socket;
      resolve();
    });
    socket.once('connect_error', (err) => {
      socket.close();
      reject(err);
    });
  });
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
  /** One step of a viewer: play a lesson, report every interval, end it, go on with the next lesson. */
  const step = (v: Viewer) => {
    const lesson = lessons[v.lesson]!;
    if (v.avance < 0) {
      v.avance = 0;
      emit(v, 'tracking play', 0);
    } else if (v.avance + intervalMs / 1000 >= lesson.duration) {
      emit(v, 'tracking end', v.avance + intervalMs / 1000);
      v.lesson = (v.lesson + 1) % lessons.length;
      v.avance = -1;
    } else {
      v.avance += intervalMs / 1000;
      emit(v, 'tracking', v.avance);
    }
  };

  const rssTimer = setInterval(() => (stats.peakRss = Math.max(stats.peakRss, rssMb(pid))), 200);
  const start = performance.now();
  for (const [i, v] of group.entries()) {
    v.avance = -1;
    v.lesson = i % lessons.length;
    // Staggered: viewers start evenly over the first interval.
    v.timers.push(
      setTimeout(() => {
        step(v);
        v.timers.push(setInterval(() => step(v), intervalMs));
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

const head = ['viewers', 'connect', 'acked ev/s', 'acked', 'ack p50', 'ack p99', 'ack max', 'errors', 'server RSS peak', '/courses visitor p50/p99', '/courses learner p50/p99', 'probe errors'];
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
console.log(`\nSocket benchmark: PGlite, one process, ${seconds} s per run, ${new Date().toISOString()}`);
console.log(line(head));
for (const r of rows) console.log(line(r));
await server.stop();
