/**
 * `npm run check`: the type checker of the whole project, in two parts side by side once Astro's
 * generated types (`.astro/`, by `astro sync`) are written:
 *
 * - the `.ts` and `.tsx` files by TypeScript's native compiler (TypeScript 7, the `typescript-native`
 *   package), with the project's `tsconfig.json`;
 * - the `.astro` files by `astro check`'s own checker (its language service, on TypeScript 6: TypeScript 7
 *   has no programmatic interface yet), asked about those files only.
 *
 * `astro check` alone checks every file with TypeScript 6: 75 s here, against 14 s and 26 s for the two
 * parts (`docs/benchmarks.md`). Prints each part's findings; exits 1 if either found an error.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);
// Called by their paths: the packages export no bin files, and `npx tsc` stays TypeScript 6 (the one
// the editor and astro check load).
const astroCli = join(root, 'node_modules/astro/bin/astro.mjs');
const nativeDir = join(root, 'node_modules/typescript-native');
const nativeVersion = JSON.parse(readFileSync(join(nativeDir, 'package.json'), 'utf8')).version;

/** Runs `args` with this Node; resolves with its exit status (its output is passed through). */
function run(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit' });
    child.on('close', (status) => resolve(status ?? 1));
  });
}

/** The `.astro` files of the project, checked by astro check's checker; resolves with whether one has an error. */
async function checkAstroFiles() {
  const { AstroCheck } = await import('@astrojs/language-server');
  const checker = new AstroCheck(root, require.resolve('typescript'), undefined);
  const files = checker.linter.getRootFileNames().filter((file) => file.endsWith('.astro'));
  const result = await checker.lint({ fileNames: files, logErrors: { level: 'hint' } });
  console.log(`astro check: ${result.fileChecked} .astro files, ${result.errors} errors, ${result.warnings} warnings, ${result.hints} hints`);
  return result.errors > 0;
}

const started = Date.now();
if ((await run([astroCli, 'sync'])) !== 0) process.exit(1);
const [tsc, astro] = await Promise.all([
  run([join(nativeDir, 'bin/tsc'), '--noEmit', '-p', 'tsconfig.json']).then((status) => {
    console.log(`TypeScript ${nativeVersion} (.ts, .tsx): ${status === 0 ? 'no errors' : 'errors above'}`);
    return status !== 0;
  }),
  checkAstroFiles(),
]);
console.log(`type check ${tsc || astro ? 'failed' : 'passed'} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
process.exit(tsc || astro ? 1 : 0);
