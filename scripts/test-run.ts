/**
 * `npm test`'s maker of Vitest's starting point (`src/lib/testing/test-run.ts`), run beside the checks
 * while a core is free: makes the run's database templates and compiled test processes, prints where
 * they are as one JSON line (for ACADEMY_TEST_RUN), then keeps them until its standard input closes
 * (the tests are over, failed or were interrupted) and removes them.
 */
import { makeTestRun } from '../src/lib/testing/test-run';

const made = await makeTestRun();
process.stdout.write(`${JSON.stringify(made.run)}\n`);
let removing: Promise<void> | null = null;
const remove = () => (removing ??= made.remove().finally(() => process.exit(0)));
process.stdin.on('end', remove);
process.stdin.on('close', remove);
process.stdin.resume();
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, remove);
