/**
 * Finds a Chromium for the browser tests: $CHROME_PATH, then Debian's /usr/bin/chromium, and when
 * neither exists and we run as root, installs Debian's `chromium` package. Browser downloads
 * (`npx playwright install`) are never used.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

/** Returns the path of a Chromium binary, installing Debian's package if needed and possible. */
export function findChromium({ install = true } = {}) {
  const fromEnv = process.env.CHROME_PATH;
  if (fromEnv) {
    if (existsSync(fromEnv)) return fromEnv;
    throw new Error(`CHROME_PATH=${fromEnv} does not exist: point it at a Chromium or Chrome binary.`);
  }
  const found = CANDIDATES.find((p) => existsSync(p));
  if (found) return found;
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  if (install && root && existsSync('/usr/bin/apt-get')) {
    console.log('find-chromium: installing Debian chromium (apt-get)…');
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env });
    if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  }
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
    console.log(findChromium());
  } catch (err) {
    console.error(`find-chromium: ${err.message}`);
    process.exit(1);
  }
}
