/**
 * Vitest's global setup: one migrated, one seeded and one prepared (seeded, then the demo clips converted
 * as a started academy's worker does, with its stored files) in-memory database, written once per run,
 * that every test process copies instead of creating, seeding and converting its own, and the same three
 * as PostgreSQL templates when PostgreSQL answers, the prepared one taking the same conversion
 * (`src/lib/db/testing.ts`); and the processes the fault and backup
 * tests start, compiled once (`src/lib/testing/children.ts`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildTestChildren } from './src/lib/testing/children';
import { makePostgresTemplates, makeTestTemplates, postgresAvailable } from './src/lib/db/testing';

export default async function setup(): Promise<() => Promise<void>> {
  const dir = mkdtempSync(join(tmpdir(), 'academy-test-templates-'));
  // The templates are read from ACADEMY_TEST_TEMPLATES: the PostgreSQL ones copy the PGlite conversion.
  process.env.ACADEMY_TEST_TEMPLATES = dir;
  const pglite = makeTestTemplates(dir);
  const pg = (await postgresAvailable()) ? makePostgresTemplates(pglite) : null;
  const children = buildTestChildren();
  await pglite;
  process.env.ACADEMY_TEST_CHILDREN = (await children).dir;
  if (pg) process.env.ACADEMY_PG_TEMPLATES = (await pg).names;
  return async () => {
    rmSync(dir, { recursive: true, force: true });
    (await children).remove();
    await (await pg)?.drop();
  };
}
