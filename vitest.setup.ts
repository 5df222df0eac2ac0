/**
 * Vitest's global setup: one migrated and one seeded in-memory database, written once per run, that
 * every test process copies instead of creating and seeding its own, and the same two as PostgreSQL
 * templates when PostgreSQL answers (`src/lib/db/testing.ts`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makePostgresTemplates, makeTestTemplates, postgresAvailable } from './src/lib/db/testing';

export default async function setup(): Promise<() => Promise<void>> {
  const dir = mkdtempSync(join(tmpdir(), 'academy-test-templates-'));
  const pg = (await postgresAvailable()) ? makePostgresTemplates() : null;
  await makeTestTemplates(dir);
  process.env.ACADEMY_TEST_TEMPLATES = dir;
  if (pg) process.env.ACADEMY_PG_TEMPLATES = (await pg).names;
  return async () => {
    rmSync(dir, { recursive: true, force: true });
    await (await pg)?.drop();
  };
}
