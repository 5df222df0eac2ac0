/**
 * Vitest's global setup: the run's database templates and compiled test processes
 * (`src/lib/testing/test-run.ts`), written once per run and copied or started by every test that needs
 * one. `npm test` makes them beside the checks and names them in ACADEMY_TEST_RUN (it removes them after
 * the run); otherwise they are made here and removed when the run ends.
 */
import { madeTestRun, makeTestRun, useTestRun } from './src/lib/testing/test-run';

export default async function setup(): Promise<() => Promise<void>> {
  const made = madeTestRun();
  if (made) {
    useTestRun(made);
    return async () => {};
  }
  const own = await makeTestRun();
  return () => own.remove();
}
