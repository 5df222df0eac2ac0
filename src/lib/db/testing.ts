/**
 * Databases for integration tests: in-memory PGlite always, and a fresh throwaway database on the
 * local PostgreSQL when one answers (`TEST_POSTGRES_URL`, default postgres://postgres@127.0.0.1:5432/postgres).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
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

/** True when PostgreSQL answers at `url` (default: the local test server) within 1.5 s. */
export async function postgresReachable(url = adminUrl): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1500 });
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

/**
 * In-memory databases start from a copy of a migrated (and seeded) data folder instead of being created
 * and seeded again (about 2 s each): Vitest's global setup (`makeTestTemplates`) writes the copies once
 * per run into the folder named by ACADEMY_TEST_TEMPLATES; without it, each test process makes its own.
 */
const templates = new Map<boolean, Promise<Blob>>();

async function makeTemplate(withSeed: boolean): Promise<Blob> {
  const handle = await prepare(await openDatabase({ databaseUrl: null, dataDir: 'memory://' }), withSeed);
  try {
    return await handle.snapshot!();
  } finally {
    await handle.close();
  }
}

const templateFile = (dir: string, withSeed: boolean) => join(dir, withSeed ? 'seeded.tar' : 'empty.tar');

/** Writes both templates into `dir` (Vitest's global setup). */
export async function makeTestTemplates(dir: string): Promise<void> {
  for (const withSeed of [false, true]) writeFileSync(templateFile(dir, withSeed), Buffer.from(await (await makeTemplate(withSeed)).arrayBuffer()));
}

function template(withSeed: boolean): Promise<Blob> {
  let made = templates.get(withSeed);
  if (!made) {
    const dir = process.env.ACADEMY_TEST_TEMPLATES;
    const file = dir ? templateFile(dir, withSeed) : null;
    made = file && existsSync(file) ? Promise.resolve(new Blob([readFileSync(file)])) : makeTemplate(withSeed);
    made.catch(() => templates.delete(withSeed));
    templates.set(withSeed, made);
  }
  return made;
}

/**
 * Writes a copy of the run's migrated (and, by default, seeded) database into `dataDir` and leaves it
 * closed: for tests that start a server on the embedded database without waiting for it to migrate and
 * seed a new one.
 */
export async function preparedDataFolder(dataDir: string, opts: { seed?: boolean } = {}): Promise<string> {
  const handle = await openDatabase({ databaseUrl: null, dataDir, snapshot: await template(opts.seed ?? true) });
  await handle.close();
  return dataDir;
}

const pglite: TestDatabase = {
  name: 'pglite',
  create: async (opts) => openDatabase({ databaseUrl: null, dataDir: 'memory://', snapshot: await template(opts?.seed ?? false) }),
};

/** A fresh, empty database on the PostgreSQL server of `server` (default: the local test server): its URL, and `drop` to remove it. */
export async function createPostgresDatabase(opts: { server?: string; prefix?: string } = {}): Promise<{ url: string; drop(): Promise<void> }> {
  const server = opts.server ?? adminUrl;
  const dbName = `${opts.prefix ?? 'academy_test'}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: server });
    await client.connect();
    await client.query(statement).finally(() => client.end());
  };
  await admin(`CREATE DATABASE "${dbName}"`);
  const url = new URL(server);
  url.pathname = `/${dbName}`;
  return { url: url.href, drop: () => admin(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`) };
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
