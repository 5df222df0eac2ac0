/**
 * The browser journeys' server (Playwright's `webServer`): the built site as `npm run serve` runs it, on
 * a copy of a seeded embedded database. The seeded database and its stored files are made once per run,
 * in the folder `E2E_TEMPLATE_DIR` names, by the compiled server's own preparing step and the video
 * worker (the demo clips converted to HLS); the journeys that need a server of their own
 * (`tests/e2e/fixtures.ts`) start from a copy of the same folder instead of creating, seeding and
 * converting another one (about 18 s of processor time each here, and the clips' conversion).
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Names the run's journeys' data folder and seeded template in the environment, unless they are named
 * already (so `npm test`, Playwright's runner and its workers agree on them), and returns them.
 */
export function nameE2eFolders() {
  process.env.E2E_DATA_DIR ??= join(tmpdir(), `academy-e2e-${process.pid}`);
  process.env.E2E_TEMPLATE_DIR ??= `${process.env.E2E_DATA_DIR}-seeded`;
  return { dataDir: process.env.E2E_DATA_DIR, templateDir: process.env.E2E_TEMPLATE_DIR };
}

/**
 * The journeys' password hashes cost 2^10 instead of 2^15 (a hundredth of a second instead of a tenth):
 * they register and log in hundreds of times. The demo accounts' passwords are hashed when the template
 * is seeded, so the template is made at the same cost as the journeys' servers use.
 */
export const JOURNEY_HASH_COST = '10';

/**
 * What the journeys' servers give `scripts/start.mjs`: serve the existing build, without the memory-first
 * V8 setting (`--time-first`: it cost the journeys' server 70 % more processor time).
 */
export const JOURNEY_SERVE_ARGS = ['--serve', '--time-first'];

/**
 * Makes `dir` a closed, migrated and seeded embedded database with its stored files, as a first start
 * leaves it once its video worker is done (the compiled server's preparing step, then the demo clips
 * converted by `scripts/video-worker.ts --until-done`), unless it already is one. Made beside it and
 * renamed, so a folder cut short is never taken for a template.
 */
export function prepareTemplate(dir) {
  if (existsSync(join(dir, 'pglite', 'PG_VERSION'))) return;
  const making = `${dir}.making`;
  rmSync(making, { recursive: true, force: true });
  const env = { ...process.env, DATA_DIR: making, DATABASE_URL: '', NODE_ENV: 'production', STORAGE: '', STORAGE_DIR: '', PASSWORD_HASH_COST: JOURNEY_HASH_COST };
  const steps = [
    ['preparing the seeded database', [join(root, 'dist/runtime/index.mjs')], { ...env, ACADEMY_PREPARING: '1' }],
    ['converting the demo clips', ['--import', 'tsx', join(root, 'scripts/video-worker.ts'), '--until-done'], { ...env, LOG_LEVEL: 'warn' }],
  ];
  for (const [what, args, stepEnv] of steps) {
    const r = spawnSync(process.execPath, args, { cwd: root, env: stepEnv, stdio: ['ignore', 'ignore', 'inherit'] });
    if (r.status !== 0) {
      rmSync(making, { recursive: true, force: true });
      throw new Error(`${what} in ${making} failed (exit ${r.status ?? r.signal})`);
    }
  }
  // The worker's emptied folders go: a copy holds the database and the stored files.
  for (const part of ['uploads', 'transcode']) rmSync(join(making, part), { recursive: true, force: true });
  renameSync(making, dir);
}

/**
 * Copies the seeded database, stored files and signing key of `template` into the data folder `dataDir`
 * (which must not hold them yet). The key goes with the database: the worker's start sealed the demo
 * staff's second-factor secrets with it.
 */
export function copyTemplate(template, dataDir) {
  for (const part of ['pglite', 'files', 'certificate-signing-key.json']) cpSync(join(template, part), join(dataDir, part), { recursive: true });
}

const main = process.argv[1] === fileURLToPath(import.meta.url);
if (main && process.argv.includes('--template')) {
  // `npm test` makes the template beside the checks, once the build is done: the server then starts at once.
  if (!process.env.E2E_TEMPLATE_DIR) throw new Error('E2E_TEMPLATE_DIR must be set');
  prepareTemplate(process.env.E2E_TEMPLATE_DIR);
} else if (main) {
  const template = process.env.E2E_TEMPLATE_DIR;
  const dataDir = process.env.DATA_DIR;
  if (!template || !dataDir) throw new Error('E2E_TEMPLATE_DIR and DATA_DIR must be set');
  prepareTemplate(template);
  if (!existsSync(join(dataDir, 'pglite', 'PG_VERSION'))) copyTemplate(template, dataDir);
  const serve = [join(root, 'scripts/start.mjs'), ...JOURNEY_SERVE_ARGS];
  if (typeof process.execve === 'function') process.execve(process.execPath, [process.execPath, ...serve], process.env);
  const child = spawn(process.execPath, serve, { cwd: root, stdio: 'inherit', env: process.env });
  for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
