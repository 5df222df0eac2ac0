/**
 * Finds a Chromium for the browser tests: $CHROME_PATH, else Chromium's headless shell (the
 * `@sparticuz/chromium` devDependency, unpacked once into `node_modules/.cache`), else Debian's
 * /usr/bin/chromium. The shell borrows its shared libraries from the system's Chromium: when that is
 * missing and we run as root, Debian's `chromium` package is installed first. Browser downloads
 * (`npx playwright install`) are never used.
 *
 * The headless shell is the browser Playwright itself runs headless: the full browser's headless mode
 * (Debian's binary) draws and composites like a windowed browser, and took twice the processor time for
 * the same journeys here (`catalog.spec.ts`: 138 busy CPU-seconds and 78 s, against 70 and 45).
 * `{ shell: false }` asks for the full browser (Lighthouse audits what people run).
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync } from 'node:zlib';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];
const root = fileURLToPath(new URL('..', import.meta.url));

/** The system's Chromium, installing Debian's package if needed and possible; `null` when there is none. */
function systemChromium(install) {
  const found = CANDIDATES.find((p) => existsSync(p));
  if (found) return found;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (install && isRoot && existsSync('/usr/bin/apt-get')) {
    console.log('find-chromium: installing Debian chromium (apt-get)…');
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env });
    if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  }
  return null;
}

/**
 * The headless shell of the installed `@sparticuz/chromium`, unpacked (once per version) into
 * `node_modules/.cache/headless-shell/<version>/`; `null` when the package is absent or the shell does
 * not start here (a library missing), in which case the system's Chromium is used.
 */
export function headlessShell() {
  // The package exports no package.json: its main module sits in build/, one folder down.
  let pkgDir;
  try {
    pkgDir = dirname(dirname(createRequire(join(root, 'package.json')).resolve('@sparticuz/chromium')));
  } catch {
    return null;
  }
  if (!existsSync(join(pkgDir, 'bin', 'chromium.br'))) return null;
  const { version } = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
  const dir = join(root, 'node_modules', '.cache', 'headless-shell', version);
  const binary = join(dir, 'chromium');
  if (!existsSync(binary)) {
    mkdirSync(dir, { recursive: true });
    // Written under a name of its own, then renamed: a process reading the folder meanwhile (another
    // Playwright worker) never sees half a binary.
    const partial = `${binary}.${process.pid}.part`;
    writeFileSync(partial, brotliDecompressSync(readFileSync(join(pkgDir, 'bin', 'chromium.br'))));
    chmodSync(partial, 0o755);
    renameSync(partial, binary);
  }
  try {
    execFileSync(binary, ['--version'], { stdio: 'ignore', timeout: 30_000 });
    return binary;
  } catch {
    return null;
  }
}

/** Returns the path of a Chromium binary for the tests (see the top of this file). */
export function findChromium({ install = true, shell = true } = {}) {
  const fromEnv = process.env.CHROME_PATH;
  if (fromEnv) {
    if (existsSync(fromEnv)) return fromEnv;
    throw new Error(`CHROME_PATH=${fromEnv} does not exist: point it at a Chromium or Chrome binary.`);
  }
  const system = systemChromium(install);
  const headless = shell ? headlessShell() : null;
  if (headless) return headless;
  if (system) return system;
  throw new Error(
    'No Chromium found for the browser tests: install it (Debian: `apt-get install chromium`) or set CHROME_PATH to a Chromium binary.',
  );
}

/** Flags for headless Chromium on a machine with no outside network. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    console.log(findChromium({ shell: !process.argv.includes('--full') }));
  } catch (err) {
    console.error(`find-chromium: ${err.message}`);
    process.exit(1);
  }
}
