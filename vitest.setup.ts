/**
 * Vitest's global setup: one migrated and one seeded in-memory database, written once per run, that
 * every test process copies instead of creating and seeding its own (`src/lib/db/testing.ts`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeTestTemplates } from './src/lib/db/testing';

export default async function setup(): Promise<() => void> {
  const dir = mkdtempSync(join(tmpdir(), 'academy-test-templates-'));
  await makeTestTemplates(dir);
  process.env.ACADEMY_TEST_TEMPLATES = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
