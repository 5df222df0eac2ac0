/**
 * The processes the fault and backup tests start (`server/*.child.ts`), compiled to plain JavaScript
 * once per test run instead of through tsx's loader at every start (about 1 s of processor time less
 * per start here). Vitest's global setup (`buildTestChildren`) bundles them into `dist-test/run-<pid>/`
 * (inside the project, so their packages resolve from `node_modules`; the migrations copied beside
 * them) and names the folder in ACADEMY_TEST_CHILDREN; without it, a child runs through tsx.
 */
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * Node's flags for the processes the tests start and stop within seconds (servers killed at a step, the
 * compiled server started for one scenario): WebAssembly compiled by V8's baseline compiler only. By
 * default V8 soon recompiles PGlite's hottest functions with its optimizing compiler, one of them so
 * large that the compile alone takes about half a second of processor time and 450 MB of memory, work
 * that a process living a few seconds never earns back: opening a data folder here took 0.93 s of
 * processor time and 626 MB at most, and 0.43 s and 165 MB with this flag, while 2 s of queries took as
 * long either way. Servers that live (production, the journeys' server) keep V8's default.
 */
export const SHORT_LIVED_NODE_FLAGS = ['--liftoff-only'];

/** The test processes there are: `server/<name>.child.ts`. */
export const CHILDREN = ['faults', 'privacy-faults', 'backoffice-faults', 'support-faults', 'refund-faults', 'nudge-faults', 'backup-writer'] as const;
export type ChildName = (typeof CHILDREN)[number];

/** Bundles every child into a folder of this run; returns it and how to remove it. */
export async function buildTestChildren(): Promise<{ dir: string; remove(): void }> {
  const { build } = await import('esbuild');
  const { externalPackages } = await import('../../../scripts/bundle-packages.mjs');
  const root = fileURLToPath(new URL('../../..', import.meta.url));
  const dir = join(root, 'dist-test', `run-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  await build({
    absWorkingDir: root,
    entryPoints: Object.fromEntries(CHILDREN.map((name) => [name, `server/${name}.child.ts`])),
    outdir: dir,
    outExtension: { '.js': '.mjs' },
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    external: externalPackages(root),
    logLevel: 'warning',
  });
  cpSync(join(root, 'src/lib/db/migrations'), join(dir, 'migrations'), { recursive: true });
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Node's arguments that run the child `name`: its compiled bundle when the run made one, else its
 * TypeScript source through tsx's loader (Node itself either way: no tsx process in between, which would
 * kill a child that does not confirm a relayed SIGTERM within 30 ms). The bundle is loaded as a module
 * that runs before an empty script, not as the main script: a bundle holding `server/index.ts` must not
 * take itself for the production entry and start a server.
 */
export function childArgs(name: ChildName): string[] {
  const dir = process.env.ACADEMY_TEST_CHILDREN;
  const bundle = dir ? join(dir, `${name}.mjs`) : null;
  if (bundle && existsSync(bundle)) return [...SHORT_LIVED_NODE_FLAGS, '--import', pathToFileURL(bundle).href, '--eval', ''];
  return [...SHORT_LIVED_NODE_FLAGS, '--import', 'tsx', `server/${name}.child.ts`];
}
