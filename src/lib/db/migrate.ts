/** Applies the committed drizzle-kit migrations to PGlite or PostgreSQL alike. */
import { fileURLToPath } from 'node:url';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import type { DbHandle } from './client';

/** The folder holding the SQL migrations. */
export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

/** Brings the database schema up to date; safe to run on every start. */
export async function migrate(handle: DbHandle): Promise<void> {
  if (handle.kind === 'pglite') {
    await migratePglite(handle.db as unknown as PgliteDatabase, { migrationsFolder });
  } else {
    await migratePg(handle.db as unknown as NodePgDatabase, { migrationsFolder });
  }
}

/**
 * Runs `work` (migrate, seed) while holding a PostgreSQL advisory lock, so app processes starting
 * together on one database prepare it one after another: the first migrates and seeds, the others
 * find it ready. The embedded database has one process, and needs no lock.
 */
export async function whilePreparing<T>(databaseUrl: string | null, work: () => Promise<T>): Promise<T> {
  if (!databaseUrl) return work();
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query("select pg_advisory_lock(hashtext('academy:prepare'))");
    return await work();
  } finally {
    // Ending the session releases the lock, also when `work` failed.
    await client.end().catch(() => undefined);
  }
}
