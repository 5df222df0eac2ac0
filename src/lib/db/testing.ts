/**
 * Databases for integration tests: in-memory PGlite always, and a fresh throwaway database on the
 * local PostgreSQL when one answers (`TEST_POSTGRES_URL`, default postgres://postgres@127.0.0.1:5432/postgres).
 */
import { resolve } from 'node:path';
import pg from 'pg';
import { openDatabase, type DbHandle } from './client';
import { migrate } from './migrate';
import { seed } from './seed/seed.server';

const adminUrl = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A database kind integration tests run on. */
export interface TestDatabase {
  name: 'pglite' | 'postgres';
  /** Opens a new, empty, migrated database (seeded when asked). */
  create(opts?: { seed?: boolean }): Promise<DbHandle>;
}

async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 1500 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function prepare(handle: DbHandle, withSeed: boolean): Promise<DbHandle> {
  await migrate(handle);
  if (withSeed) await seed(handle.db, resolve('media'));
  return handle;
}

const pglite: TestDatabase = {
  name: 'pglite',
  create: async (opts) => prepare(await openDatabase({ databaseUrl: null, dataDir: 'memory://' }), opts?.seed ?? false),
};

/** A fresh, empty database on the local PostgreSQL: its URL, and `drop` to remove it. */
export async function createPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const dbName = `academy_test_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${dbName}"`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${dbName}`;
  return {
    url: url.href,
    async drop() {
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

/** True when the local PostgreSQL answers (tests that need it skip, saying so, when it does not). */
export const postgresAvailable = (): Promise<boolean> => (process.env.TEST_DATABASES === 'pglite' ? Promise.resolve(false) : postgresReachable());

const postgres: TestDatabase = {
  name: 'postgres',
  async create(opts) {
    const made = await createPostgresDatabase();
    const handle = await openDatabase({ databaseUrl: made.url, dataDir: 'unused' });
    const close = handle.close;
    handle.close = async () => {
      await close();
      await made.drop();
    };
    return prepare(handle, opts?.seed ?? false);
  },
};

/** The databases to run integration tests on; says so once when PostgreSQL is skipped. */
export async function testDatabases(): Promise<TestDatabase[]> {
  // `npm run test:fast` sets TEST_DATABASES=pglite: the embedded database only, for quick feedback.
  if (process.env.TEST_DATABASES === 'pglite') return [pglite];
  if (await postgresReachable()) return [pglite, postgres];
  console.warn(`PostgreSQL not reachable at ${new URL(adminUrl).host}: integration tests run on PGlite only.`);
  return [pglite];
}
