/**
 * The browser journeys' server (Playwright's `webServer`): the built site as `npm run serve` runs it, on
 * a copy of a seeded embedded database. The seeded database is made once per run, in the folder
 * `E2E_TEMPLATE_DIR` names, by the compiled server's own preparing step; the journeys that need a
 * server of their own (`tests/e2e/fixtures.ts`) start from a copy of the same folder instead of
 * creating and seeding another one (about 18 s of processor time each here).
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Makes `dir` a closed, migrated and seeded embedded database (the compiled server's preparing step), unless it already is one. */
export function prepareTemplate(dir) {
  if (existsSync(join(dir, 'pglite', 'PG_VERSION'))) return;
  rmSync(dir, { recursive: true, force: true });
  const r = spawnSync(process.execPath, [join(root, 'dist/runtime/index.mjs')], {
    cwd: root,
    env: { ...process.env, ACADEMY_PREPARING: '1', DATA_DIR: dir, DATABASE_URL: '', NODE_ENV: 'production' },
    stdio: 'inherit',
  });
  if (r.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`preparing the seeded database in ${dir} failed (exit ${r.status ?? r.signal})`);
  }
}

/** Copies the seeded database of `template` into the data folder `dataDir` (which must not hold one yet). */
export function copyTemplate(template, dataDir) {
  cpSync(join(template, 'pglite'), join(dataDir, 'pglite'), { recursive: true });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const template = process.env.E2E_TEMPLATE_DIR;
  const dataDir = process.env.DATA_DIR;
  if (!template || !dataDir) throw new Error('E2E_TEMPLATE_DIR and DATA_DIR must be set');
  prepareTemplate(template);
  if (!existsSync(join(dataDir, 'pglite', 'PG_VERSION'))) copyTemplate(template, dataDir);
  const serve = [join(root, 'scripts/start.mjs'), '--serve'];
  if (typeof process.execve === 'function') process.execve(process.execPath, [process.execPath, ...serve], process.env);
  const child = spawn(process.execPath, serve, { cwd: root, stdio: 'inherit', env: process.env });
  for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
