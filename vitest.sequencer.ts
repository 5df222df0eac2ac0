/**
 * The order Vitest starts test files in. Files that start real servers or child processes (backups,
 * the command line, crash and shutdown tests, rate limits under bursts) take many times longer than
 * the rest; started last, the whole run waits for them alone at its end. Vitest starts the longest
 * first when it has timings from an earlier run, but a fresh clone (CI) has none and falls back to file
 * size: these start first, then everything else in Vitest's own order.
 */
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

export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const i = SLOW_FILES.findIndex((fragment) => spec.moduleId.endsWith(fragment));
      return i < 0 ? SLOW_FILES.length : i;
    };
    return sorted
      .map((spec, i) => ({ spec, i, rank: rank(spec) }))
      .sort((a, b) => a.rank - b.rank || a.i - b.i)
      .map(({ spec }) => spec);
  }
}
