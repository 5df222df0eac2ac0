/**
 * The order Vitest starts test files in. Files that start real servers or child processes (backups,
 * the command line, crash and shutdown tests, rate limits under bursts) take many times longer than
 * the rest; started last, the whole run waits for them alone at its end. Vitest starts the longest
 * first when it has timings from an earlier run, but a fresh clone (CI) has none and falls back to file
 * size: these start first, then everything else in Vitest's own order.
 */
import { readFileSync } from 'node:fs';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Path fragments of the slowest files, slowest first (measured alone, 2026-11-27). */
export const SLOW_FILES = [
  'src/lib/backup/backup.server.test.ts',
  'server/people-faults.test.ts',
  'server/ibos-faults.test.ts',
  'server/cli.test.ts',
  'server/videos-faults.test.ts',
  'src/lib/commerce/limits.server.test.ts',
  'src/lib/db/data-folder.test.ts',
  'server/payments-faults.test.ts',
  'server/memberships-faults.test.ts',
  'server/faults.test.ts',
  'server/privacy-faults.test.ts',
  'server/coupons-faults.test.ts',
  'server/shutdown.test.ts',
  'server/refund-faults.test.ts',
  'src/lib/videos/demo.server.test.ts',
  'server/import-faults.test.ts',
  'server/publish-faults.test.ts',
];

/** Whether a test file asks for an environment of its own (`// @vitest-environment happy-dom`). */
export function ownEnvironment(file: string): string | null {
  return /^\s*(?:\/\/|\*|\/\*\*?)\s*@vitest-environment\s+(\S+)/m.exec(readFileSync(file, 'utf8').slice(0, 2000))?.[1] ?? null;
}

/**
 * The order of `files` (in Vitest's own order): the slowest first; and the files that ask for an
 * environment of their own (`environmentOf`) after all the others. A worker runs files of one
 * environment: the next file in another (a browser-like DOM for the islands' hooks) makes Vitest start
 * a new worker, which loads the app's modules again (about 1.4 s of processor time each). Mixed in, the
 * dozen DOM files made 22 workers in a run; all of them last, at most one change per worker.
 */
export function slowFirst<T extends { moduleId: string }>(files: readonly T[], environmentOf: (file: string) => string | null = ownEnvironment): T[] {
  const rank = (file: T) => {
    const i = SLOW_FILES.findIndex((fragment) => file.moduleId.endsWith(fragment));
    return i < 0 ? SLOW_FILES.length : i;
  };
  return files
    .map((file, i) => ({ file, i, rank: rank(file), own: environmentOf(file.moduleId) === null ? 0 : 1 }))
    .sort((a, b) => a.own - b.own || a.rank - b.rank || a.i - b.i)
    .map(({ file }) => file);
}

export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return slowFirst(await super.sort(files));
  }
}
