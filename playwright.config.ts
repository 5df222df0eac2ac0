import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from './scripts/find-chromium.mjs';
import { JOURNEY_HASH_COST, nameE2eFolders } from './scripts/e2e-server.mjs';

const port = Number(process.env.E2E_PORT ?? 4400);
// Named once (by npm test, or else by the runner) and inherited by the workers (each worker loads this file
// again with a pid of its own): the journeys read the server's outbox in the data folder and copy its
// seeded database from the template, which the server and the journeys' servers of their own start from.
const { dataDir, templateDir } = nameE2eFolders();
// Found once by the runner (unpacking the headless shell the first time) and inherited by its workers.
const launchOptions = { executablePath: (process.env.CHROME_PATH ??= findChromium()), args: CHROMIUM_ARGS };

export default defineConfig({
  testDir: 'tests/e2e',
  // Journeys are `*.spec.ts`; a `*.test.ts` beside their helpers is a Vitest test of the helper.
  testMatch: '**/*.spec.ts',
  fullyParallel: true,
  globalTeardown: './tests/e2e/support/teardown.ts',
  // Two browsers: a third filled some of the journeys' waits (331 s → 296 s in one hour here), but the
  // same runs in a slower hour took 341 s with three and 332 s with four, and the extra contention let a
  // click land before an island hydrated. Measured, not worth it on this 2-core machine.
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  // A journey may take a while on a busy 2-core machine (axe on several pages, a video played at 1.5×): a limit
  // for what is stuck, not a speed check (speed is measured in bench/).
  timeout: 60_000,
  reporter: [['list'], ['json', { outputFile: 'reports/e2e.json' }]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    // A trace records every action's page snapshots and a screencast: the whole run spent about 15 %
    // of its time recording traces it then threw away. A journey that fails is run again with one (CI
    // retries once); `npx playwright test --trace on` records them all.
    trace: 'on-first-retry',
    launchOptions,
  },
  projects: [
    // A journey tagged @mobile is about the small screen (fits 360 px, the menu button, axe on the phone
    // layout): it runs in the mobile project only. The desktop layout of the same pages is audited by
    // a11y.spec.ts and the pages' own journeys.
    { name: 'desktop', use: { ...devices['Desktop Chrome'], viewport: { width: 1200, height: 900 }, launchOptions }, grepInvert: /@mobile/ },
    { name: 'mobile', use: { ...devices['Pixel 7'], viewport: { width: 360, height: 780 }, launchOptions }, grep: /@mobile/ },
  ],
  webServer: {
    // The compiled production server, as `npm run serve` runs it (with `--time-first`: not its memory-saving
    // V8 setting, which cost the journeys' server 70 % more processor time), on a copy of the run's seeded database.
    command: 'node scripts/e2e-server.mjs',
    url: `http://127.0.0.1:${port}/healthz`,
    timeout: Number(process.env.E2E_SERVER_TIMEOUT_MS ?? 120_000),
    reuseExistingServer: false,
    env: {
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      E2E_TEMPLATE_DIR: templateDir,
      DATABASE_URL: '',
      // Access lines of every request would drown the report; warnings and errors still show.
      LOG_LEVEL: 'warn',
      // Cheap password hashes (2^10), as the seeded template's demo accounts have them.
      PASSWORD_HASH_COST: JOURNEY_HASH_COST,
      // Every journey comes from one address: per-address limits are raised so they do not trip each
      // other. Per-account, per-session and per-(account, address) limits keep their defaults, and
      // journeys prove them; the raised per-address defaults are proven on servers of their own.
      RATE_LIMITS:
        'loginPerAddress=5000/900,registerPerAddress=1000/3600,resetPerAddress=1000/3600,codePerAddress=1000/600,confirmPerAddress=1000/600,contactPerAddress=1000/600,couponGuessesPerAddress=1000/3600',
    },
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
