/**
 * `kill -9` of the server under tracking load loses no acknowledged progress event. The real-time
 * server (`faults.child.ts`: `app.ts` with socket.io and the tracker, no Astro build) runs in a child
 * process; learners with session cookies send progress over socket.io and every acknowledged
 * `{ Identificador, Avance }` is recorded; the server is killed with SIGKILL mid-load, started again on
 * the same database, and every acknowledged position must be stored: the restarted server's answer to
 * each learner carries the stored furthest position, which must be at least the acknowledged one.
 * On PGlite and on PostgreSQL when it is reachable, each a copy of the run's seeded database.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { io as connectClient, type Socket as ClientSocket } from 'socket.io-client';
import { createPostgresDatabase, preparedDataFolder, preparedPostgresFiles, testDatabases } from '../src/lib/db/testing';
import { SESSION_COOKIE } from '../src/lib/http/page-cache';
import type { TrackingAck } from '../src/lib/learning/learning';
import { childArgs } from '../src/lib/testing/children';

const adminUrl = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const postgresUp = (await testDatabases()).some((d) => d.name === 'postgres');
if (!postgresUp) console.warn(`PostgreSQL not reachable at ${new URL(adminUrl).host}: the kill -9 test runs on PGlite only.`);

const VIEWERS = 16;
const COURSE_ID = 1;
/** Acknowledged events before the kill. */
const ACKS_BEFORE_KILL = 150;
/** Each viewer's pace: under the socket flood limit (8 events a second), so every event is answered. */
const EVERY_MS = 140;

interface Viewer {
  token: string;
  contactId: number;
}
interface Fixture {
  viewers: Viewer[];
  lessons: number[];
}

/** A fresh database for the child server: its environment, and how to remove it. */
interface Target {
  env: Record<string, string>;
  drop(): Promise<void>;
}

async function pgliteTarget(): Promise<Target> {
  // A copy of the run's seeded database (a new one is created and seeded by the journeys' server).
  const dataDir = await preparedDataFolder(mkdtempSync(join(tmpdir(), 'academy-faults-')));
  return { env: { DATA_DIR: dataDir, DATABASE_URL: '' }, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
}

async function postgresTarget(): Promise<Target> {
  // The run's prepared database and its stored files: the server converts no demo clip of its own.
  const database = await createPostgresDatabase({ prefix: 'academy_faults', from: 'prepared' });
  const dataDir = await preparedPostgresFiles(mkdtempSync(join(tmpdir(), 'academy-faults-unused-')));
  return {
    env: { DATABASE_URL: database.url, DATA_DIR: dataDir },
    drop: async () => {
      rmSync(dataDir, { recursive: true, force: true });
      await database.drop();
    },
  };
}

interface Child {
  process: ChildProcess;
  port: Promise<number>;
  fixture: Promise<Fixture>;
  exited: Promise<number | null>;
}

const children = new Set<ChildProcess>();

/**
 * Starts the server (`childArgs`: compiled once per run) in its own process group, so that SIGKILL to
 * the group reaches it: no shutdown code runs.
 */
function startServer(env: Record<string, string>): Child {
  const child = spawn(process.execPath, childArgs('faults'), { env: { ...process.env, PORT: '0', ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  children.add(child);
  let output = '';
  const exited = new Promise<number | null>((r) =>
    child.on('exit', (code) => {
      children.delete(child);
      r(code);
    }),
  );
  const line = (pattern: RegExp) =>
    new Promise<string>((resolveLine, reject) => {
      const look = () => {
        const m = pattern.exec(output);
        if (m) resolveLine(m[1]!);
      };
      child.stdout!.on('data', look);
      void exited.then((code) => reject(new Error(`the server exited with ${code}: ${output}`)));
    });
  child.stdout!.on('data', (d: Buffer) => (output += d));
  child.stderr!.on('data', (d: Buffer) => (output += d));
  const fixture = line(/^fixture (.+)$/m).then((json) => JSON.parse(json) as Fixture);
  fixture.catch(() => undefined); // only awaited by the first start
  return { process: child, port: line(/^listening (\d+)$/m).then(Number), fixture, exited };
}

afterEach(() => {
  for (const child of children) {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
});

function connect(port: number, viewer: Viewer): Promise<ClientSocket> {
  return new Promise((resolveSocket, reject) => {
    const socket = connectClient(`http://127.0.0.1:${port}`, {
      auth: { courseId: COURSE_ID },
      extraHeaders: { cookie: `${SESSION_COOKIE}=${viewer.token}` },
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
    });
    socket.once('connect', () => resolveSocket(socket));
    socket.once('connect_error', (err) => {
      socket.disconnect();
      reject(err);
    });
  });
}

const databases = [
  { name: 'PGlite', make: pgliteTarget, up: true },
  { name: 'PostgreSQL', make: postgresTarget, up: postgresUp },
];

describe.each(databases)('kill -9 under tracking load on $name', ({ make, up }) => {
  it.skipIf(!up)('stores every acknowledged position, and the server starts again on the same database', async () => {
    const target = await make();
    try {
      const server = startServer({ ...target.env, FAULTS_VIEWERS: String(VIEWERS) });
      const { viewers, lessons } = await server.fixture;
      const port = await server.port;
      const lessonOf = (i: number) => lessons[i % lessons.length]!;
      const sockets = await Promise.all(viewers.map((v) => connect(port, v)));

      /** The furthest acknowledged position of each (person, lesson). */
      const acknowledged = new Map<string, number>();
      let sent = 0;
      let answered = 0;
      let acks = 0;
      let refused = 0;
      let inFlightAtKill = 0;
      /** Kills the server as soon as enough events were acknowledged, while others still wait for their answer. */
      const maybeKill = () => {
        if (inFlightAtKill > 0 || acks < ACKS_BEFORE_KILL || sent === answered) return;
        inFlightAtKill = sent - answered;
        process.kill(-server.process.pid!, 'SIGKILL');
      };
      // Every viewer reports at the same moments, so each round keeps the writer busy with a group of events.
      const timers = viewers.map((v, i) => {
        let avance = 0;
        return setInterval(() => {
          if (inFlightAtKill > 0) return;
          avance = Math.round((avance + 0.05) * 100) / 100;
          sent++;
          const payload = { Identificador: lessonOf(i), IdEntidad: 3, IdContacto: v.contactId, Avance: avance, Activo: true };
          (sockets[i]!.timeout(5000).emitWithAck('tracking', payload) as Promise<TrackingAck>).then(
            (ack) => {
              answered++;
              if (!ack.ok) {
                refused++;
                return;
              }
              if (inFlightAtKill > 0) return; // answered after the kill was sent: not counted
              acks++;
              const key = `${v.contactId}:${ack.Identificador}`;
              acknowledged.set(key, Math.max(acknowledged.get(key) ?? 0, ack.Avance, ack.furthest));
              maybeKill();
            },
            () => answered++, // no answer: the server died before acknowledging it
          );
        }, EVERY_MS);
      });

      await expect.poll(() => inFlightAtKill, { timeout: 20_000, interval: 50 }).toBeGreaterThan(0);
      expect(await server.exited).toBeNull(); // killed by the signal, not exited
      for (const t of timers) clearInterval(t);
      for (const socket of sockets) socket.disconnect();
      expect(refused).toBe(0);
      expect(acks).toBeGreaterThanOrEqual(ACKS_BEFORE_KILL);
      expect(acknowledged.size).toBe(VIEWERS);

      // Started again on the same database: it recovers, serves, and has every acknowledged position.
      // Each learner reports position 0: the answer carries the stored furthest position, which a
      // position 0 cannot lower.
      const again = startServer(target.env);
      const portAgain = await again.port;
      expect((await fetch(`http://127.0.0.1:${portAgain}/healthz`)).status).toBe(200);
      const lost: string[] = [];
      await Promise.all(
        viewers.map(async (v, i) => {
          const promised = acknowledged.get(`${v.contactId}:${lessonOf(i)}`)!;
          let answer: TrackingAck | string;
          try {
            const socket = await connect(portAgain, v);
            answer = (await socket.timeout(10_000).emitWithAck('tracking', { Identificador: lessonOf(i), Avance: 0 })) as TrackingAck;
            socket.disconnect();
          } catch (err) {
            answer = `refused: ${(err as Error).message}`; // e.g. its session was lost too
          }
          if (typeof answer === 'string' || !answer.ok || !(answer.furthest >= promised)) lost.push(`${v.contactId}:${lessonOf(i)} acknowledged ${promised}, now ${JSON.stringify(answer)}`);
        }),
      );
      expect(lost).toEqual([]);
      again.process.kill('SIGTERM');
      expect(await again.exited).toBe(0);
    } finally {
      await target.drop();
    }
  }, 600_000);
});
