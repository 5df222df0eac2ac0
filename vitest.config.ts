import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { SlowFirstSequencer } from './vitest.sequencer';

// New password hashes in the suites cost 2^10 instead of 2^15 (a hundredth of a second instead of a
// tenth): hundreds of accounts are registered, seeded and logged in here. Test processes and the servers
// they start inherit it; tests of the cost itself name theirs.
process.env.PASSWORD_HASH_COST ??= '10';

export default defineConfig({
  resolve: { alias: { '~': fileURLToPath(new URL('./src', import.meta.url)) } },
  test: {
    include: ['src/**/*.test.ts', 'server/**/*.test.ts', 'scripts/**/*.test.ts', 'tests/e2e/support/**/*.test.ts'],
    environment: 'node',
    // One migrated and one seeded database per run, copied by every test that needs one.
    globalSetup: ['./vitest.setup.ts'],
    // Limits for what is stuck, not speed checks: on a busy machine a test may wait long for a core, and
    // a polled condition likewise.
    testTimeout: 120_000,
    hookTimeout: 240_000,
    expect: { poll: { timeout: 30_000 } },
    // Three workers on this 2-core machine: the fault, backup and command-line tests spend much of their
    // time waiting for the processes they start, and a third worker fills that wait (whole run measured
    // side by side here: 2 workers 289 s, 3 workers 239 s, 4 workers 243 s).
    maxWorkers: 3,
    // A young generation of up to 64 MB per semi-space in each worker: sampled through a whole run, a
    // quarter of the suite's processor time was V8's garbage-collector threads in the workers (each file
    // builds runtimes and database copies, and short-lived objects were promoted and marked again and
    // again). The whole run alone, side by side: 238.4 → 229.6 s (356 → 341 s of user time) and
    // 216.1 → 207.9 s (322 → 310 s) (`docs/benchmarks.md`, the eighth day's session).
    execArgv: ['--max-semi-space-size=64'],
    // The test files of a worker share its loaded modules (PGlite's WebAssembly, Drizzle, the app's
    // modules) instead of loading them again for each file: 97 s → 70–75 s for the whole suite here.
    // Nothing is shared by design: every test builds its own runtime and database copy, and no test
    // mocks a module.
    isolate: false,
    // The slowest files first, so that the run does not end waiting on one of them (`vitest.sequencer.ts`).
    sequence: { sequencer: SlowFirstSequencer },
  },
});
