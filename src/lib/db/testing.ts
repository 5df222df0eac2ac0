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
import { readPasswordHashCost } from '../config/settings';

/** The cost of new password hashes in the suites (`PASSWORD_HASH_COST`, 10 in vitest.config.ts). */
export const testHashCost = readPasswordHashCost(process.env.PASSWORD_HASH_COST);

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
  // The demo passwords at the suites' cost (`PASSWORD_HASH_COST`, 10 in vitest.config.ts): logins in tests stay cheap.
  if (withSeed) await seed(handle.db, resolve('media'), testHashCost);
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

/**
 * A fresh database on the PostgreSQL server of `server` (default: the local test server): empty, a copy
 * of `template`, or `from` the run's migrated or seeded template. Its URL, and `drop` to remove it.
 */
export async function createPostgresDatabase(
  opts: { server?: string; prefix?: string; name?: string; template?: string; from?: 'migrated' | 'seeded' } = {},
): Promise<{ url: string; drop(): Promise<void> }> {
  const server = opts.server ?? adminUrl;
  if (opts.from) {
    // Migrated (and seeded): a copy of the run's template when there is one, else made here.
    const [empty, seeded] = process.env.ACADEMY_PG_TEMPLATES?.split(',') ?? [];
    const template = opts.from === 'seeded' ? seeded : empty;
    const { from: _from, ...rest } = opts;
    const made = await createPostgresDatabase(template ? { ...rest, template } : rest);
    if (!template) await (await prepare(await openDatabase({ databaseUrl: made.url, dataDir: 'unused' }), opts.from === 'seeded')).close();
    return made;
  }
  const dbName = opts.name ?? `${opts.prefix ?? 'academy_test'}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: server });
    await client.connect();
    await client.query(statement).finally(() => client.end());
  };
  if (!opts.template) await admin(`CREATE DATABASE "${dbName}"`);
  else {
    // Copies of one template made at the same moment: the server refuses a copy while another session
    // is connected to the template (a copy in progress is one), so a refused copy waits and tries again.
    for (let attempt = 0; ; attempt++) {
      try {
        await admin(`CREATE DATABASE "${dbName}" TEMPLATE "${opts.template}"`);
        break;
      } catch (err) {
        if (attempt >= 50 || !/being accessed by other users/.test(String(err))) throw err;
        await new Promise((r) => setTimeout(r, 50 + Math.random() * 100));
      }
    }
  }
  const url = new URL(server);
  url.pathname = `/${dbName}`;
  return { url: url.href, drop: () => admin(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`) };
}

/** True when the local PostgreSQL answers (tests that need it skip, saying so, when it does not). */
export const postgresAvailable = (): Promise<boolean> => (process.env.TEST_DATABASES === 'pglite' ? Promise.resolve(false) : postgresReachable());

/**
 * PostgreSQL databases likewise start from templates (`CREATE DATABASE … TEMPLATE`, a file copy on the
 * server) instead of running the migrations and the seed again (about 1.5 s of this process's time and as
 * much of the server's, each): Vitest's global setup makes them once per run and names them in
 * ACADEMY_PG_TEMPLATES (`<empty>,<seeded>`); without it, each database is migrated (and seeded) itself.
 */
const pgTemplateNames = (prefix: string) => ({ empty: `${prefix}_empty`, seeded: `${prefix}_seeded` });

/** Makes both PostgreSQL templates (Vitest's global setup) and returns the value for ACADEMY_PG_TEMPLATES and how to drop them. */
export async function makePostgresTemplates(): Promise<{ names: string; drop(): Promise<void> }> {
  const names = pgTemplateNames(`academy_tpl_${process.pid}`);
  const made: { drop(): Promise<void> }[] = [];
  const drop = async () => {
    for (const m of made) await m.drop();
  };
  try {
    for (const [name, withSeed] of [
      [names.empty, false],
      [names.seeded, true],
    ] as const) {
      const db = await createPostgresDatabase({ name });
      made.push(db);
      const handle = await prepare(await openDatabase({ databaseUrl: db.url, dataDir: 'unused' }), withSeed);
      await handle.close();
    }
  } catch (err) {
    await drop();
    throw err;
  }
  return { names: `${names.empty},${names.seeded}`, drop };
}

const postgres: TestDatabase = {
  name: 'postgres',
  async create(opts) {
    const withSeed = opts?.seed ?? false;
    const [empty, seeded] = process.env.ACADEMY_PG_TEMPLATES?.split(',') ?? [];
    const template = withSeed ? seeded : empty;
    const made = await createPostgresDatabase(template ? { template } : {});
    const handle = await openDatabase({ databaseUrl: made.url, dataDir: 'unused' });
    const close = handle.close;
    handle.close = async () => {
      await close();
      await made.drop();
    };
    return template ? handle : prepare(handle, withSeed);
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
