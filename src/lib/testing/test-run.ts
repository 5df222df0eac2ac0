/**
 * What a Vitest run starts from: one migrated, one seeded and one prepared (seeded, then the demo clips
 * converted as a started academy's worker does, with its stored files) embedded database, the same three
 * as PostgreSQL templates when PostgreSQL answers (`src/lib/db/testing.ts`), and the processes the fault
 * and backup tests start, compiled once (`children.ts`). Vitest's global setup makes them
 * (`vitest.setup.ts`), unless `npm test` made them already, beside the checks (`scripts/test-run.ts`):
 * then ACADEMY_TEST_RUN names them and the setup only uses them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makePostgresTemplates, makeTestTemplates, postgresAvailable } from '../db/testing';
import { buildTestChildren } from './children';

/** Where a run's templates and children are: the folders, and the PostgreSQL templates' names (or null). */
export interface TestRun {
  templates: string;
  children: string;
  postgres: string | null;
  /** The PostgreSQL tablespace in memory the run's databases are made in (`db/test-tablespace.ts`), or null. */
  tablespace?: string | null;
}

/** Points this process (and the test processes it starts) at `run`. */
export function useTestRun(run: TestRun): void {
  process.env.ACADEMY_TEST_TEMPLATES = run.templates;
  process.env.ACADEMY_TEST_CHILDREN = run.children;
  if (run.postgres) process.env.ACADEMY_PG_TEMPLATES = run.postgres;
  else delete process.env.ACADEMY_PG_TEMPLATES;
  if (run.postgres && run.tablespace) process.env.ACADEMY_PG_TABLESPACE = run.tablespace;
  else delete process.env.ACADEMY_PG_TABLESPACE;
}

/** The run `npm test` made beside the checks, when it did (ACADEMY_TEST_RUN). */
export function madeTestRun(): TestRun | null {
  const named = process.env.ACADEMY_TEST_RUN;
  if (!named) return null;
  const run = JSON.parse(named) as TestRun;
  if (typeof run.templates !== 'string' || typeof run.children !== 'string') throw new Error(`ACADEMY_TEST_RUN is not a test run: ${named}`);
  return run;
}

/** Makes a run's templates and children (used by this process at once); returns them and how to remove them. */
export async function makeTestRun(): Promise<{ run: TestRun; remove(): Promise<void> }> {
  const templates = mkdtempSync(join(tmpdir(), 'academy-test-templates-'));
  // The templates are read from ACADEMY_TEST_TEMPLATES: the PostgreSQL ones copy the PGlite conversion.
  process.env.ACADEMY_TEST_TEMPLATES = templates;
  const pglite = makeTestTemplates(templates);
  const pg = (await postgresAvailable()) ? makePostgresTemplates(pglite) : null;
  const children = buildTestChildren();
  await pglite;
  const run: TestRun = { templates, children: (await children).dir, postgres: pg ? (await pg).names : null, tablespace: pg ? (await pg).tablespace : null };
  useTestRun(run);
  return {
    run,
    async remove() {
      rmSync(templates, { recursive: true, force: true });
      (await children).remove();
      await (await pg)?.drop();
    },
  };
}
