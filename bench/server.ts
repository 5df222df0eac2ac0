/** Starts the production server for a benchmark: builds when needed, fresh PGlite data, loopback only. */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The `METRICS_TOKEN` of the servers the benchmarks start (their `/metrics` is read with it). */
export const BENCH_METRICS_TOKEN = 'bench-metrics-token-0123456789';

/** A process's resident memory in MB (0 when it cannot be read: another system, or the process ended). */
export function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** The resident memory in MB of a process and the processes it started (`WEB_CONCURRENCY` workers). */
export function treeRssMb(pid: number): number {
  let children: number[] = [];
  try {
    children = readdirSync(`/proc/${pid}/task`).flatMap((t) => readFileSync(`/proc/${pid}/task/${t}/children`, 'utf8').split(' ').filter(Boolean).map(Number));
  } catch {
    // Another system, or the process ended.
  }
  return rssMb(pid) + children.reduce((sum, child) => sum + treeRssMb(child), 0);
}

export interface BenchServerOptions {
  /** Fills the fresh data folder before the server starts (the server then only migrates it). */
  prepare?: (dataDir: string) => Promise<void>;
  /** Looks at the data folder after the server stopped, before it is removed. */
  afterStop?: (dataDir: string) => Promise<void>;
  /** Extra environment of the server. */
  env?: Record<string, string>;
}

/** A running benchmark server and how to stop it (which also removes its data). */
export interface BenchServer {
  base: string;
  /** The process that runs the server itself (not the `tsx` launcher), for memory readings. */
  serverPid(): number;
  stop(): Promise<void>;
}

/** Extra Node flags for the server process, e.g. `BENCH_SERVER_NODE_FLAGS="--cpu-prof --cpu-prof-dir=prof"` to profile it. */
function serverNodeFlags(): string[] {
  return process.env.BENCH_SERVER_NODE_FLAGS?.split(' ').filter(Boolean) ?? [];
}

export async function startBenchServer(port: number, opts: BenchServerOptions = {}): Promise<BenchServer> {
  if (!existsSync(join(process.env.DIST_DIR ?? 'dist', 'server/entry.mjs')) || !existsSync('dist/runtime/index.mjs')) {
    console.log('building the site first…');
    if (spawnSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit' }).status !== 0) process.exit(1);
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'academy-bench-'));
  if (opts.prepare) await opts.prepare(dataDir);
  // The compiled server as `npm run serve` runs it (scripts/start.mjs): Node alone, production mode, the same memory settings.
  const server = spawn(process.execPath, [...serverNodeFlags(), 'scripts/start.mjs', '--serve'], {
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn', METRICS_TOKEN: BENCH_METRICS_TOKEN, ...opts.env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    server.stdout!.on('data', (d: Buffer) => d.toString().includes('ready at') && resolve());
    server.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return {
    base: `http://127.0.0.1:${port}`,
    serverPid: () => server.pid!,
    async stop() {
      server.kill('SIGTERM');
      await new Promise((r) => server.on('exit', r));
      try {
        if (opts.afterStop) await opts.afterStop(dataDir);
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}

/** Builds the site and the compiled server when either is missing (the check `startBenchServer` makes). */
export function ensureBuilt(): void {
  if (existsSync(join(process.env.DIST_DIR ?? 'dist', 'server/entry.mjs')) && existsSync('dist/runtime/index.mjs')) return;
  console.log('building the site first…');
  if (spawnSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit' }).status !== 0) process.exit(1);
}

/** One server process of a scaled-out benchmark: PostgreSQL and Redis shared with the others. */
export interface BenchProcessOptions {
  /** The PostgreSQL database it serves (the first process to start migrates and seeds it if needed). */
  databaseUrl: string;
  /** The Redis the processes share socket rooms and the bus through. */
  redisUrl: string;
  /** Its name in the lines it prints, e.g. `A`. */
  name: string;
  /** Extra environment of the server. */
  env?: Record<string, string>;
}

/** A running server process of a scaled-out benchmark. */
export interface BenchProcess extends BenchServer {
  /** The exit code once it stopped (after `stop`, or on its own: a crash), else null. */
  exitCode(): number | null;
}

/** The most lines of its own a benchmark server may print: past that they are only counted (a failing server can log one per event). */
const MAX_SERVER_LINES = 30;

/**
 * Starts one compiled server on `port` with `DATABASE_URL` and `REDIS_URL` (as `server/scale-out.test.ts`
 * does) and resolves once it listens. Its own output (`LOG_LEVEL=warn`: warnings and errors only) is
 * printed with its name in front. `stop` sends SIGTERM and waits for the clean shutdown.
 */
export async function startBenchProcess(port: number, opts: BenchProcessOptions): Promise<BenchProcess> {
  ensureBuilt();
  // The data folder holds what a PostgreSQL server still keeps in files (the mail outbox): a throwaway one.
  const dataDir = mkdtempSync(join(tmpdir(), `academy-bench-${opts.name}-`));
  const server = spawn(process.execPath, ['scripts/start.mjs', '--serve'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: opts.databaseUrl,
      REDIS_URL: opts.redisUrl,
      LOG_LEVEL: 'warn',
      METRICS_TOKEN: BENCH_METRICS_TOKEN,
      // One process each: the benchmark starts the processes itself.
      WEB_CONCURRENCY: '',
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let printed = 0;
  let suppressed = 0;
  const relay = (d: Buffer) => {
    for (const text of d.toString().split('\n')) {
      if (!text.trim() || text.includes('ready at')) continue;
      if (printed++ < MAX_SERVER_LINES) console.log(`[server ${opts.name}] ${text}`);
      else suppressed++;
    }
  };
  let code: number | null = null;
  const exited = new Promise<void>((resolve) =>
    server.once('exit', (c, signal) => {
      code = c ?? (signal ? 128 : 1);
      resolve();
    }),
  );
  await new Promise<void>((resolve, reject) => {
    server.stdout!.on('data', (d: Buffer) => {
      if (d.toString().includes('ready at')) resolve();
      relay(d);
    });
    server.stderr!.on('data', relay);
    void exited.then(() => reject(new Error(`server ${opts.name} on port ${port} exited with ${code} while starting`)));
  });
  return {
    base: `http://127.0.0.1:${port}`,
    serverPid: () => server.pid!,
    exitCode: () => code,
    async stop() {
      if (code === null) {
        server.kill('SIGTERM');
        await exited;
      }
      if (suppressed > 0) console.log(`[server ${opts.name}] (${suppressed} more lines not shown)`);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
