/** Starts the production server for a benchmark: builds when needed, fresh PGlite data, loopback only. */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A running benchmark server and how to stop it (which also removes its data). */
export async function startBenchServer(port: number): Promise<{ base: string; stop(): Promise<void> }> {
  if (!existsSync(join(process.env.DIST_DIR ?? 'dist', 'server/entry.mjs'))) {
    console.log('building the site first…');
    if (spawnSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit' }).status !== 0) process.exit(1);
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'academy-bench-'));
  const server = spawn('node_modules/.bin/tsx', ['server/index.ts'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    server.stdout!.on('data', (d: Buffer) => d.toString().includes('ready at') && resolve());
    server.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return {
    base: `http://127.0.0.1:${port}`,
    async stop() {
      server.kill('SIGTERM');
      await new Promise((r) => server.on('exit', r));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
