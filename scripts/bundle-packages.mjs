/**
 * What the server's and the test processes' bundles (`scripts/build-server.mjs`,
 * `src/lib/testing/children.ts`) leave to `node_modules`: every package, except the ones bundled in.
 *
 * Drizzle is bundled: it ships as hundreds of small modules, and Node took 0.75 s of processor time to
 * load them here at every start of a process, against 0.06 s for the same code as part of one bundle.
 * No other package takes more than 0.2 s (Stripe's, loaded only when configured).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Packages compiled into the bundles instead of loaded from `node_modules`. */
export const BUNDLED_PACKAGES = ['drizzle-orm'];

/** esbuild's `external` for a bundle of the project at `root`: each other package and its subpaths. */
export function externalPackages(root) {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const names = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }).filter((name) => !BUNDLED_PACKAGES.includes(name));
  return names.flatMap((name) => [name, `${name}/*`]);
}
