/**
 * SIGTERM under load drops no one: the production entry (`server/index.ts`) serves a stand-in site
 * (a `DIST_DIR` whose handler takes CPU time and then waits, as a checkout waits on its gateway),
 * many POSTs are sent, each on its own connection, and once every one of them has been written the
 * server gets SIGTERM. Every request sent before the signal must get its complete answer, none a
 * reset, and the process must exit 0. On the embedded database (one
 * process) and, when PostgreSQL is reachable, with `WEB_CONCURRENCY=2` (a primary and two workers).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPostgresDatabase, postgresAvailable, preparedDataFolder, preparedPostgresFiles } from '../src/lib/db/testing';
import { SHORT_LIVED_NODE_FLAGS } from '../src/lib/testing/children';

const pgUp = await postgresAvailable();
if (!pgUp) console.warn('PostgreSQL is not reachable: the SIGTERM test with WEB_CONCURRENCY=2 is skipped (it runs on the embedded database only).');

/** A stand-in build: no pages, and a handler that burns `work` ms of CPU, then answers after `wait` ms. */
function standInSite(): string {
  const dist = mkdtempSync(join(tmpdir(), 'academy-shutdown-'));
  mkdirSync(join(dist, 'server'));
  mkdirSync(join(dist, 'client'));
  writeFileSync(
    join(dist, 'server/entry.mjs'),
    `export async function handler(req, res) {
  let body = '';
  for await (const chunk of req) body += chunk;
  const until = Date.now() + Number(process.env.STAND_IN_WORK_MS);
  while (Date.now() < until);
  await new Promise((resolve) => setTimeout(resolve, Number(process.env.STAND_IN_WAIT_MS)));
  res.setHeader('Content-Type', 'text/plain');
  res.end('paid ' + body);
}
`,
  );
  return dist;
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

interface Answer {
  status?: number | undefined;
  body?: string;
  error?: string;
}

/** Sends one POST on a connection of its own; `written` resolves once the whole request is on the wire. */
function post(port: number, agent: Agent, i: number): { written: Promise<void>; answer: Promise<Answer> } {
  let written!: () => void;
  const sent = new Promise<void>((resolve) => (written = resolve));
  const answer = new Promise<Answer>((resolve) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/es/checkout', agent, headers: { 'content-type': 'text/plain' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode, body }));
      res.on('error', (err) => resolve({ error: err.message }));
    });
    req.on('error', (err) => resolve({ error: (err as NodeJS.ErrnoException).code ?? err.message }));
    // Written, on a connection the system has established (the server may not have taken it yet).
    req.on('finish', () => (req.socket && !req.socket.connecting ? written() : req.socket?.once('connect', written)));
    req.end(`order ${i}`);
  });
  return { written: sent, answer };
}

/** The compiled server (`npm run build`, as `npm run serve` runs it), or the TypeScript source before a build. */
const entry = [...SHORT_LIVED_NODE_FLAGS, ...(existsSync('dist/runtime/index.mjs') ? ['dist/runtime/index.mjs'] : ['--import', 'tsx', 'server/index.ts'])];

async function sigtermUnderLoad(env: Record<string, string>, count: number) {
  const dist = standInSite();
  // The embedded database starts from a copy of the run's seeded one (no migrating and seeding here).
  // PostgreSQL's prepared copy comes with its stored files: the server converts no demo clip of its own.
  const dataDir = await (env.DATABASE_URL ? preparedPostgresFiles : preparedDataFolder)(mkdtempSync(join(tmpdir(), 'academy-shutdown-data-')));
  const port = await freePort();
  const child = spawn(process.execPath, entry, {
    env: { ...process.env, NODE_ENV: 'production', DIST_DIR: dist, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', REDIS_URL: '', DATABASE_URL: '', WEB_CONCURRENCY: '', STAND_IN_WORK_MS: '8', STAND_IN_WAIT_MS: '1500', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d));
  child.stderr.on('data', (d: Buffer) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', () => /ready at/.test(output) && resolve());
      void exited.then((code) => reject(new Error(`the server exited with ${code}: ${output}`)));
    });
    const agent = new Agent({ keepAlive: true, maxSockets: count });
    const posts = Array.from({ length: count }, (_, i) => post(port, agent, i));
    await Promise.all(posts.map((p) => p.written));
    child.kill('SIGTERM');
    const answers = await Promise.all(posts.map((p) => p.answer));
    agent.destroy();
    const code = await exited;
    return { answers, code, output };
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dist, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function expectEveryoneAnswered(result: Awaited<ReturnType<typeof sigtermUnderLoad>>, count: number) {
  const failed = result.answers.filter((a) => a.status !== 200);
  expect(failed, `${failed.length} of ${count} requests sent before SIGTERM got no answer: ${JSON.stringify(failed.slice(0, 3))}\n${result.output.slice(-3000)}`).toEqual([]);
  expect(result.answers.map((a) => a.body)).toEqual(result.answers.map((_, i) => `paid order ${i}`));
  expect(result.code, result.output).toBe(0);
}

describe('SIGTERM under load', () => {
  it('answers every request already sent, then exits 0 (embedded database, one process)', async () => {
    const count = 150;
    expectEveryoneAnswered(await sigtermUnderLoad({}, count), count);
  }, 120_000);

  it.skipIf(!pgUp)('answers every request already sent, then exits 0 (PostgreSQL, WEB_CONCURRENCY=2)', async () => {
    const database = await createPostgresDatabase({ prefix: 'academy_shutdown', from: 'prepared' });
    try {
      const count = 150;
      expectEveryoneAnswered(await sigtermUnderLoad({ DATABASE_URL: database.url, WEB_CONCURRENCY: '2' }, count), count);
    } finally {
      await database.drop();
    }
  }, 180_000);
});
