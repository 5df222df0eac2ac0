/**
 * The second half of `npm run build`: compiles the production server (`server/index.ts` and the
 * runtime it builds) to plain JavaScript in `dist/runtime/index.mjs`, and the backup command to
 * `dist/runtime/backup.mjs`, next to the database
 * migrations it applies, so `npm start` / `npm run serve` run on Node alone. Packages stay in
 * `node_modules`, but for the few bundled in (`scripts/bundle-packages.mjs`).
 */
import { cpSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { externalPackages } from './bundle-packages.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = `${root}dist/runtime`;
const started = Date.now();
rmSync(out, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  // The backup command too, for machines and images that have only the build (`node dist/runtime/backup.mjs`).
  entryPoints: { index: 'server/index.ts', backup: 'scripts/backup.ts' },
  outdir: out,
  outExtension: { '.js': '.mjs' },
  // What is imported on demand (Stripe's gateway, only when configured) stays in a chunk of its own.
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  external: externalPackages(root),
  sourcemap: 'linked',
  logLevel: 'warning',
});
cpSync(`${root}src/lib/db/migrations`, `${out}/migrations`, { recursive: true });
console.log(`server compiled to dist/runtime/index.mjs in ${Date.now() - started} ms`);
