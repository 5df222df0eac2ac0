/**
 * `npm start`: prepares the database (migrate, seed a new one), builds the site when the build is
 * missing or older than the sources, then starts the production server.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fail, main, prepareDatabase } from '../server/index';

const root = fileURLToPath(new URL('..', import.meta.url));

function newest(path: string): number {
  if (!existsSync(path)) return 0;
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  return readdirSync(path).reduce((m, name) => Math.max(m, newest(join(path, name))), s.mtimeMs);
}

/** True when `dist/` is missing or any source it is built from changed after it. */
export function buildNeeded(): boolean {
  const entry = join(root, 'dist/server/entry.mjs');
  if (!existsSync(entry)) return true;
  const sources = ['src', 'public', 'astro.config.mjs', 'package-lock.json'].map((p) => newest(join(root, p)));
  return Math.max(...sources) > statSync(entry).mtimeMs;
}

try {
  const handle = await prepareDatabase();
  await handle.close();
  if (buildNeeded()) {
    console.log('academy: building the site…');
    const astro = join(root, 'node_modules/astro/bin/astro.mjs');
    const r = spawnSync(process.execPath, [astro, 'build'], { cwd: root, stdio: 'inherit', env: process.env });
    if (r.status !== 0) throw new Error('the build failed (see above)');
  }
  await main();
} catch (err) {
  fail(err);
}
