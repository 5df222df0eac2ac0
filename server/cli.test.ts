import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const tsx = join(process.cwd(), 'node_modules/.bin/tsx');

/** Runs the production entry with `env` and returns its exit code and output. */
function run(env: Record<string, string>, timeoutMs = 60_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(tsx, ['server/index.ts'], { env: { ...process.env, DATABASE_URL: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Starts the production entry and resolves once it prints its URL. */
function startServer(env: Record<string, string>) {
  const child = spawn(tsx, ['server/index.ts'], { env: { ...process.env, DATABASE_URL: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d) => {
      output += d;
      if (output.includes('ready at')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { child, ready, exited, output: () => output };
}

/** The one error line a person should see: no stack trace, no "at …" frames. */
function expectOneLine(stderr: string, pattern: RegExp) {
  const lines = stderr.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('npm warn'));
  expect(lines, stderr).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
  expect(stderr).not.toMatch(/\n\s+at /);
}

describe('bad configuration gives one clear line and a non-zero exit', () => {
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
    const file = join(mkdtempSync(join(tmpdir(), 'academy-')), 'a-file');
    writeFileSync(file, 'not a folder');
    const r = await run({ DATA_DIR: join(file, 'data') });
    expect(r.code).toBe(1);
    expectOneLine(r.stderr, /^academy: Cannot write the data folder .* \(ENOTDIR\): set DATA_DIR to a writable folder or fix its permissions\.$/);
  });

  it('a bad PORT', async () => {
    const r = await run({ PORT: 'eighty' });
    expect(r.code).toBe(1);
    expectOneLine(r.stderr, /^academy: PORT "eighty" is not a port number/);
  });

  it.skipIf(!existsSync('dist/server/entry.mjs'))('a port in use (needs `npm run build` first)', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as { port: number }).port;
    try {
      const r = await run({ PORT: String(port), HOST: '127.0.0.1', DATA_DIR: mkdtempSync(join(tmpdir(), 'academy-data-')) });
      expect(r.code).toBe(1);
      expectOneLine(r.stderr, new RegExp(`^academy: port ${port} is already in use: stop the program using it or set PORT to a free port\\.$`));
    } finally {
      blocker.close();
    }
  });
});

describe.skipIf(!existsSync('dist/server/entry.mjs'))('signals (needs `npm run build` first)', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('%s stops the server cleanly with exit 0', async (signal) => {
    const port = 4800 + (signal === 'SIGTERM' ? 1 : 2);
    const s = startServer({ PORT: String(port), HOST: '127.0.0.1', DATA_DIR: mkdtempSync(join(tmpdir(), 'academy-data-')) });
    await s.ready;
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    s.child.kill(signal);
    expect(await s.exited).toBe(0);
    expect(s.output()).toContain(`academy: ${signal} received`);
    expect(s.output()).toContain('academy: stopped');
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
  });
});
