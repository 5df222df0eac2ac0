/** Starts the production server for a benchmark: builds when needed, fresh PGlite data, loopback only. */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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

export async function startBenchServer(port: number, opts: BenchServerOptions = {}): Promise<BenchServer> {
  if (!existsSync(join(process.env.DIST_DIR ?? 'dist', 'server/entry.mjs')) || !existsSync('dist/runtime/index.mjs')) {
    console.log('building the site first…');
    if (spawnSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit' }).status !== 0) process.exit(1);
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'academy-bench-'));
  if (opts.prepare) await opts.prepare(dataDir);
  // The compiled server as `npm run serve` runs it (package.json): Node alone, production mode, the same V8 setting.
  const server = spawn(process.execPath, ['--max-semi-space-size=4', 'dist/runtime/index.mjs'], {
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn', ...opts.env },
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
