import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, postgresAvailable, preparedDataFolder } from '../src/lib/db/testing';
import { SHORT_LIVED_NODE_FLAGS } from '../src/lib/testing/children';
import { useTempFolders } from '../src/lib/testing/temp-folders';

const tsx = join(process.cwd(), 'node_modules/.bin/tsx');
const built = existsSync('dist/server/entry.mjs') && existsSync('dist/runtime/index.mjs');
/** A new data folder for one server's start, removed after the file's tests. */
const tempFolder = useTempFolders();
const newDataFolder = () => tempFolder('academy-data-');
/** The compiled server (`npm run build`) as `npm run serve` runs it, or the TypeScript source before a build. */
const entry: [string, string[]] = built ? [process.execPath, [...SHORT_LIVED_NODE_FLAGS, 'dist/runtime/index.mjs']] : [tsx, ['server/index.ts']];

/** Runs the production entry with `env` and returns its exit code and output. */
function run(env: Record<string, string>, timeoutMs = 110_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    // A group of its own: a process stuck past the limit is killed with every child it started (the
    // process that creates a new database), so none is left holding the test's folders.
    const child = spawn(entry[0], entry[1], { env: { ...process.env, DATABASE_URL: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), timeoutMs);
    // 'close', not 'exit': the process may have exited before its last output was read.
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Starts the production entry and resolves once it prints its URL. */
function startServer(env: Record<string, string>, how: 'entry' | 'serve' | 'serve-time-first' = 'entry') {
  // `serve`: as `npm run serve` runs it (scripts/start.mjs, which gives the process its heap settings);
  // `serve-time-first`: as the journeys' servers run it (`npm run serve -- --time-first`).
  const [command, args] = how === 'entry' ? entry : [process.execPath, ['scripts/start.mjs', '--serve', ...(how === 'serve-time-first' ? ['--time-first'] : [])]];
  const child = spawn(command, args, { env: { ...process.env, DATABASE_URL: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let errors = '';
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d) => {
      output += d;
      if (output.includes('ready at')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`exited with ${code}: ${output}${errors}`)));
  });
  child.stderr.on('data', (d) => (errors += d));
  // Once its output is read to the end too (the tests then look for its last lines).
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  return { child, ready, exited, output: () => output, errors: () => errors };
}

/** The one error line a person should see: no stack trace, no "at …" frames. */
function expectOneLine(stderr: string, pattern: RegExp) {
  const lines = stderr.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('npm warn'));
  expect(lines, stderr).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
  expect(stderr).not.toMatch(/\n\s+at /);
}

// Each case is a server process of its own with its own data folder or none: they run side by side.
describe.concurrent('bad configuration gives one clear line and a non-zero exit', () => {
  it('malformed DATABASE_URL', async () => {
    const r = await run({ DATABASE_URL: 'mysql://nope' });
    expect(r.code).toBe(1);
    expectOneLine(r.stderr, /^academy: DATABASE_URL is not a PostgreSQL URL: use postgres:\/\//);
  });

  it('PostgreSQL that does not answer', async () => {
    const r = await run({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' });
    expect(r.code).toBe(1);
    expectOneLine(r.stderr, /^academy: Cannot connect to PostgreSQL at 127\.0\.0\.1:1\/none .*start the server or fix DATABASE_URL\.$/);
  });

  it('a data folder that cannot be written', async () => {
    const file = join(tempFolder('academy-not-a-folder-'), 'a-file');
    writeFileSync(file, 'not a folder');
    const r = await run({ DATA_DIR: join(file, 'data') });
    expect(r.code).toBe(1);
    expectOneLine(r.stderr, /^academy: Cannot write the data folder .* \(ENOTDIR\): set DATA_DIR to a writable folder or fix its permissions\.$/);
  });

  it('STORAGE=s3 without its bucket', async () => {
    const r = await run({ STORAGE: 's3' });
    expect(r.code).toBe(1);
    expectOneLine(r.stderr, /^academy: STORAGE=s3 needs S3_BUCKET: set S3_BUCKET to the bucket's name .*, or unset STORAGE to keep stored files in the folder data\/files\.$/);
  });

  it('a bad PORT', async () => {
    const r = await run({ PORT: 'eighty' });
    expect(r.code).toBe(1);
    expectOneLine(r.stderr, /^academy: PORT "eighty" is not a port number/);
  });

  it('WEB_CONCURRENCY with the embedded database', async () => {
    const r = await run({ WEB_CONCURRENCY: '2', DATA_DIR: newDataFolder() });
    expect(r.code).toBe(1);
    expectOneLine(r.stderr, /^academy: WEB_CONCURRENCY=2 needs PostgreSQL: the embedded database serves one process\. Set DATABASE_URL/);
  });

  it('several bad settings: one line each, naming its variable, no stack trace', async () => {
    const r = await run({ SMTP_URL: 'http://mail.example', CONTACT_TO: 'nobody', RATE_LIMITS: 'loginPerAdress=1/1', MAIL_FROM: 'a\nb', DEBUG: '' });
    expect(r.code).toBe(1);
    const lines = r.stderr.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('npm warn'));
    expect(lines, r.stderr).toHaveLength(4);
    expect(lines.map((l) => /^academy: (\w+) /.exec(l)?.[1])).toEqual(['RATE_LIMITS', 'SMTP_URL', 'MAIL_FROM', 'CONTACT_TO']);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('WEB_CONCURRENCY that is not a number', async () => {
    const r = await run({ WEB_CONCURRENCY: 'many' });
    expect(r.code).toBe(1);
    expectOneLine(r.stderr, /^academy: WEB_CONCURRENCY "many" is not a number of processes/);
  });

  it.skipIf(!built)('a port in use (needs `npm run build` first)', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as { port: number }).port;
    try {
      const dataDir = newDataFolder();
      const r = await run({ PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir });
      expect(r.code).toBe(1);
      expectOneLine(r.stderr, new RegExp(`^academy: port ${port} is already in use: stop the program using it or set PORT to a free port\\.$`));
      // Said before the database was touched: no new database was created for nothing.
      expect(existsSync(join(dataDir, 'pglite', 'PG_VERSION'))).toBe(false);
    } finally {
      blocker.close();
    }
  });
});

/**
 * A memory file system of `size` (root only), filled to the last byte when `fill`: `null`, saying why,
 * where it cannot be made.
 */
function smallDisk(size: string, fill: boolean): { dir: string; remove(): void } | null {
  const dir = mkdtempSync(join(tmpdir(), 'academy-full-'));
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { encoding: 'utf8' });
  if (mounted.status !== 0) {
    console.warn(`A small disk cannot be made here (mount: ${(mounted.stderr || mounted.error?.message || 'refused').trim()}): the full-disk start tests are skipped; the unit test of their sentence still runs.`);
    rmSync(dir, { recursive: true, force: true });
    return null;
  }
  // Fill it: dd stops with "No space left on device".
  if (fill) spawnSync('dd', ['if=/dev/zero', `of=${join(dir, 'filler')}`, 'bs=4k']);
  return {
    dir,
    remove: () => {
      // Lazily: a process still holding a file there cannot keep the disk mounted.
      spawnSync('umount', ['-l', dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

describe.concurrent('a data folder on a disk without room for a new database', () => {
  const full = smallDisk('512k', true);
  const small = smallDisk('16m', false);
  afterAll(() => {
    full?.remove();
    small?.remove();
  });

  it.skipIf(!full)('a full disk: says what is full, where, and what to do, in one line, and exits non-zero', async () => {
    const r = await run({ DATA_DIR: join(full!.dir, 'data'), PORT: '4879', HOST: '127.0.0.1' });
    expect(r.code).toBe(1);
    expectOneLine(r.stderr, /^academy: The disk holding the data folder .*academy-full-.*\/data\/pglite is full \(ENOSPC\): free some space on it, or set DATA_DIR to a folder on a disk with room\.$/);
    expect(r.stderr).not.toContain('[object Object]');
  });

  it.skipIf(!small)('16 MB free: says how much there is and how much is needed, before writing anything', async () => {
    const r = await run({ DATA_DIR: join(small!.dir, 'data'), PORT: '4878', HOST: '127.0.0.1' });
    expect(r.code).toBe(1);
    expectOneLine(r.stderr, /^academy: The disk holding the data folder .*academy-full-.*\/data\/pglite has 1[56] MB free and a new database needs 64 MB \(ENOSPC\): free some space on it, or set DATA_DIR to a folder on a disk with room\.$/);
    // Nothing was written: the folder was made, and is empty.
    expect(readdirSync(join(small!.dir, 'data', 'pglite'))).toEqual([]);
  });
});

describe.skipIf(!built)('signals (needs `npm run build` first)', () => {
  // One data folder, a copy of the run's seeded database (creating and seeding one is tested by the
  // workers test below and the journeys' server): each server starts on it and stops before the next.
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await preparedDataFolder(newDataFolder());
  });
  it.each(['SIGTERM', 'SIGINT'] as const)('%s stops the server cleanly with exit 0', async (signal) => {
    const port = 4800 + (signal === 'SIGTERM' ? 1 : 2);
    // SIGINT's server is started as the journeys' servers are, without the memory-first setting.
    const s = startServer({ PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir }, signal === 'SIGTERM' ? 'serve' : 'serve-time-first');
    await s.ready;
    const healthy = (await fetch(`http://127.0.0.1:${port}/healthz`)).status;
    const flags = nodeFlags(s.child.pid!);
    s.child.kill(signal);
    expect(await s.exited).toBe(0);
    expect(healthy).toBe(200);
    // The embedded database's process keeps the small heap settings (RSS under 250 MB); with
    // `--time-first`, the small young generation only.
    expect(flags).toEqual(expect.arrayContaining(['--max-semi-space-size=4']));
    if (signal === 'SIGTERM') expect(flags).toContain('--optimize-for-size');
    else expect(flags).not.toContain('--optimize-for-size');
    expect(s.output()).toContain(`academy: ${signal} received`);
    expect(s.output()).toContain('academy: stopped');
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
  }, 180_000);
});

const pgUp = await postgresAvailable();
if (!pgUp) console.warn('PostgreSQL not reachable: the WEB_CONCURRENCY workers test is skipped.');

describe.skipIf(!built || !pgUp)('WEB_CONCURRENCY workers on PostgreSQL (needs `npm run build` first)', () => {
  it('prepares the database once, serves from 2 workers, replaces a worker that dies, and stops them all on SIGTERM', async () => {
    const database = await createPostgresDatabase();
    const port = 4803;
    let s: ReturnType<typeof startServer> | undefined;
    try {
      const server = startServer({ PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: database.url, WEB_CONCURRENCY: '2', LOG_LEVEL: 'warn' }, 'serve');
      s = server;
      await server.ready;
      expect(s.output()).toMatch(/academy: 2 workers ready at http:\/\/localhost:4803\/ in \d+ ms \(database: PostgreSQL; bus: (postgres|redis)\)/);
      expect(s.output().match(/seeded the demo catalogue/g)).toHaveLength(1);
      const workers = () => childPids(server.child.pid!);
      expect(workers()).toHaveLength(2);
      // With PostgreSQL the primary and its workers run with the larger young generation, without the size-first setting.
      for (const pid of [server.child.pid!, ...workers()]) {
        expect(nodeFlags(pid)).toContain('--max-semi-space-size=32');
        expect(nodeFlags(pid)).not.toContain('--optimize-for-size');
      }
      const pages = await Promise.all(Array.from({ length: 20 }, () => healthOnNewConnection(port)));
      expect(pages.every((status) => status === 200)).toBe(true);
      // A worker that dies is replaced; the other keeps answering meanwhile (a connection handed to the
      // dying one in the instant it died may be lost, as with any crash: clients retry).
      const [victim] = workers();
      process.kill(victim!, 'SIGKILL');
      await expect.poll(() => healthOnNewConnection(port).catch(() => 0), { timeout: 10_000 }).toBe(200);
      await expect.poll(() => workers().length === 2 && !workers().includes(victim!), { timeout: 20_000 }).toBe(true);
      expect(s.errors()).toContain(`academy: worker ${victim} stopped (exit SIGKILL); starting another`);
      s.child.kill('SIGTERM');
      expect(await s.exited).toBe(0);
      expect(s.output()).toContain('academy: stopped');
      await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
    } finally {
      if (s && s.child.exitCode === null) for (const pid of [...childPids(s.child.pid!), s.child.pid!]) process.kill(pid, 'SIGKILL');
      await database.drop();
    }
  }, 180_000);
});

/** `/healthz` over a connection of its own (a kept-alive one may lead to a worker that is gone). */
function healthOnNewConnection(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path: '/healthz', agent: false, timeout: 2000 }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    })
      .on('timeout', function (this: { destroy(err: Error): void }) {
        this.destroy(new Error('no answer within 2 s'));
      })
      .on('error', reject);
  });
}

/** The Node options a process runs with (its command line up to the script). */
function nodeFlags(pid: number): string[] {
  const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  return args.slice(1, args.findIndex((a) => a.endsWith('.mjs')));
}

/** The processes a process started (its workers). */
function childPids(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((t) => readFileSync(`/proc/${pid}/task/${t}/children`, 'utf8').split(' ').filter(Boolean).map(Number));
  } catch {
    return [];
  }
}
