/**
 * Replicas starting together on one new PostgreSQL database: each prepares it (migrate, seed a new
 * one) on start; they take turns, so it is migrated and seeded once and none fails. Skipped, saying
 * so, without PostgreSQL.
 */
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { readConfig } from '../src/lib/config/config';
import { createPostgresDatabase, postgresAvailable } from '../src/lib/db/testing';
import { prepareDatabase } from './index';
import { users } from '../src/lib/db/seed/people';
import { demoCourses } from '../src/lib/db/seed/catalogue';

const pgUp = await postgresAvailable();
if (!pgUp) console.warn('PostgreSQL not reachable: the concurrent preparation test is skipped.');

describe.skipIf(!pgUp)('preparing one database from several processes at once', () => {
  it('four preparations started together migrate and seed it exactly once', async () => {
    const database = await createPostgresDatabase();
    try {
      const config = readConfig({ DATABASE_URL: database.url, LOG_LEVEL: 'silent' });
      const handles = await Promise.all([1, 2, 3, 4].map(() => prepareDatabase(config)));
      try {
        const [db] = handles;
        const count = async (table: string) => ((await db!.db.execute(sql.raw(`select count(*)::int as n from ${table}`))) as unknown as { rows: { n: number }[] }).rows[0]!.n;
        expect(await count('courses')).toBe(demoCourses.length);
        // Seeded once: exactly the demo people (a second seed would have failed on their unique e-mails or doubled nothing else).
        expect(await count('users')).toBe(users.length);
        expect(await count('drizzle.__drizzle_migrations')).toBeGreaterThan(0);
      } finally {
        await Promise.all(handles.map((h) => h.close()));
      }
    } finally {
      await database.drop();
    }
  }, 120_000);
});
