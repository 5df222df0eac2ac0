/**
 * `npm start`: builds the site and the server when the build is missing or older than the sources,
 * then runs the compiled server (`dist/runtime/index.mjs`) with NODE_ENV=production. Plain Node:
 * no TypeScript loader in the serving process. Workers of `WEB_CONCURRENCY` run this file too and
 * go straight to serving.
 */
import { spawnSync } from 'node:child_process';
import cluster from 'node:cluster';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const entry = join(root, 'dist/runtime/index.mjs');
process.env.NODE_ENV ||= 'production';

function newest(path) {
  if (!existsSync(path)) return 0;
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  return readdirSync(path).reduce((m, name) => Math.max(m, newest(join(path, name))), s.mtimeMs);
}

/** True when the build is missing or any source it is made from changed after it. */
function buildNeeded() {
  const built = [join(root, 'dist/server/entry.mjs'), entry];
  if (!built.every(existsSync)) return true;
  const sources = ['src', 'server', 'public', 'astro.config.mjs', 'package-lock.json'].map((p) => newest(join(root, p)));
  return Math.max(...sources) > Math.min(...built.map((p) => statSync(p).mtimeMs));
}

if (cluster.isPrimary && buildNeeded()) {
  console.log('academy: building the site…');
  const r = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit', env: process.env });
  if (r.status !== 0) {
    console.error('academy: the build failed (see above)');
    process.exit(1);
  }
}
const server = await import(pathToFileURL(entry).href);
await server.main().catch(server.fail);
