/**
 * Databases for integration tests: in-memory PGlite always, and a fresh throwaway database on the
 * local PostgreSQL when one answers (`TEST_POSTGRES_URL`, default postgres://postgres@127.0.0.1:5432/postgres).
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { openDatabase, SMALL_SHARED_BUFFERS, type DbHandle } from './client';
import { migrate } from './migrate';
import { seed } from './seed/seed.server';
import { readPasswordHashCost } from '../config/settings';
import { convertDemoVideos, copyConversion } from '../testing/prepared';
import { memoryTablespace, quotedName } from './test-tablespace';

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
 * A third one, `prepared`, is the seeded database as a started academy leaves it once its video worker is
 * done (`convertDemoVideos`): with its storage folder, it is what servers tests start begin from.
 */
type TemplateKind = 'empty' | 'seeded' | 'prepared';
const templates = new Map<TemplateKind, Promise<Blob>>();

/** The folder of the prepared template's stored files (the demo clips' HLS among them). */
const preparedFilesDir = (dir: string) => join(dir, 'prepared-files');

/** Where this process keeps templates it makes itself (no global setup): made once, removed at exit. */
let ownDir: string | null = null;
function templatesDir(): string {
  const named = process.env.ACADEMY_TEST_TEMPLATES;
  if (named) return named;
  if (!ownDir) {
    const dir = mkdtempSync(join(tmpdir(), 'academy-test-templates-'));
    ownDir = dir;
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  }
  return ownDir;
}

/**
 * Drops PostgreSQL's own template databases (template0, template1) from a PGlite database that is to be
 * a test template: the academy never creates a database inside PGlite, and every database a test opens
 * is unpacked from the template's files, of which the two hold 600 of 1,400 (and 15 MB of 46). Opening a
 * seeded copy: 458 → 256 ms, median of 6 here. (The prepared template starts from the seeded one.)
 */
async function dropTemplateDatabases(handle: DbHandle): Promise<void> {
  await handle.db.execute(sql.raw(`update pg_database set datistemplate = false where datname in ('template0', 'template1')`));
  for (const name of ['template0', 'template1']) await handle.db.execute(sql.raw(`drop database ${name}`));
  await handle.db.execute(sql.raw('checkpoint'));
}

async function makeTemplate(kind: TemplateKind, dir: string, seeded?: Promise<Blob>): Promise<Blob> {
  // The prepared one starts from the seeded one (no seeding twice).
  const handle =
    kind === 'prepared'
      ? await openDatabase({ databaseUrl: null, dataDir: 'memory://', snapshot: await (seeded ?? template('seeded')) })
      : await prepare(await openDatabase({ databaseUrl: null, dataDir: 'memory://' }), kind !== 'empty');
  try {
    if (kind === 'prepared') await convertDemoVideos(handle.db, preparedFilesDir(dir));
    else await dropTemplateDatabases(handle);
    return await handle.snapshot!();
  } finally {
    await handle.close();
  }
}

const templateFile = (dir: string, kind: TemplateKind) => join(dir, `${kind}.tar`);

/** Writes the three templates into `dir` (Vitest's global setup). */
export async function makeTestTemplates(dir: string): Promise<void> {
  let seeded: Promise<Blob> | undefined;
  for (const kind of ['empty', 'seeded', 'prepared'] as const) {
    const made = makeTemplate(kind, dir, seeded);
    if (kind === 'seeded') seeded = made;
    writeFileSync(templateFile(dir, kind), Buffer.from(await (await made).arrayBuffer()));
  }
}

function template(kind: TemplateKind): Promise<Blob> {
  let made = templates.get(kind);
  if (!made) {
    const dir = templatesDir();
    const file = templateFile(dir, kind);
    made = existsSync(file) ? Promise.resolve(new Blob([readFileSync(file)])) : makeTemplate(kind, dir);
    made.catch(() => templates.delete(kind));
    templates.set(kind, made);
  }
  return made;
}

/**
 * Writes a copy of the run's migrated (and, by default, prepared: seeded, lesson media stocked, demo
 * clips converted) database into `dataDir`, with the stored files in `dataDir/files`, and leaves it
 * closed: for tests that start a server on the embedded database without waiting for it to migrate,
 * seed and convert.
 */
export async function preparedDataFolder(dataDir: string, opts: { seed?: boolean } = {}): Promise<string> {
  const kind = (opts.seed ?? true) ? 'prepared' : 'empty';
  const handle = await openDatabase({ databaseUrl: null, dataDir, snapshot: await template(kind), sharedBuffers: SMALL_SHARED_BUFFERS });
  await handle.close();
  if (kind === 'prepared') cpSync(preparedFilesDir(templatesDir()), join(dataDir, 'files'), { recursive: true });
  return dataDir;
}

/**
 * Copies the stored files of the run's prepared template into `dataDir/files`, where a server started
 * on that data folder keeps them: for a copy of the prepared PostgreSQL template (`createPostgresDatabase({
 * from: 'prepared' })`), which shares the PGlite template's conversion.
 */
export async function preparedPostgresFiles(dataDir: string): Promise<string> {
  await template('prepared');
  cpSync(preparedFilesDir(templatesDir()), join(dataDir, 'files'), { recursive: true });
  return dataDir;
}

/** A prepared PostgreSQL database from the seeded one at `url`: the PGlite prepared template's conversion copied into it. */
async function prepareLikeTemplate(url: string): Promise<void> {
  const [target, source] = await Promise.all([openDatabase({ databaseUrl: url, dataDir: 'unused', connectTimeoutMs: TEST_CONNECT_MS }), template('prepared').then((snapshot) => openDatabase({ databaseUrl: null, dataDir: 'memory://', snapshot }))]);
  try {
    await copyConversion(source.db, target.db);
  } finally {
    await Promise.all([target.close(), source.close()]);
  }
}

/** The embedded database: a copy of the run's migrated (or seeded) template, opened in memory. */
export const pglite: TestDatabase = {
  name: 'pglite',
  create: async (opts) => openDatabase({ databaseUrl: null, dataDir: 'memory://', snapshot: await template(opts?.seed ? 'seeded' : 'empty') }),
};

/**
 * A fresh database on the PostgreSQL server of `server` (default: the local test server): empty, a copy
 * of `template`, or `from` the run's migrated, seeded or prepared template (prepared: its stored files
 * come with `preparedPostgresFiles`). A new database without a template is made in `tablespace`
 * (default: the run's, ACADEMY_PG_TABLESPACE, on the local test server); a copy lands in its template's.
 * Its URL, and `drop` to remove it.
 */
export async function createPostgresDatabase(
  opts: { server?: string; prefix?: string; name?: string; template?: string; tablespace?: string | undefined; from?: 'migrated' | 'seeded' | 'prepared' } = {},
): Promise<{ url: string; drop(): Promise<void> }> {
  const server = opts.server ?? adminUrl;
  if (opts.from) {
    // Migrated (and seeded, and prepared): a copy of the run's template when there is one, else made here.
    const [empty, seeded, prepared] = process.env.ACADEMY_PG_TEMPLATES?.split(',') ?? [];
    const template = { migrated: empty, seeded, prepared }[opts.from];
    const { from: _from, ...rest } = opts;
    const made = await createPostgresDatabase(template ? { ...rest, template } : rest);
    if (!template) {
      await (await prepare(await openDatabase({ databaseUrl: made.url, dataDir: 'unused', connectTimeoutMs: TEST_CONNECT_MS }), opts.from !== 'migrated')).close();
      if (opts.from === 'prepared') await prepareLikeTemplate(made.url);
    }
    return made;
  }
  const dbName = opts.name ?? `${opts.prefix ?? 'academy_test'}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: server });
    await client.connect();
    await client.query(statement).finally(() => client.end());
  };
  const tablespace = opts.tablespace ?? (server === adminUrl ? process.env.ACADEMY_PG_TABLESPACE : undefined);
  if (!opts.template) await admin(`CREATE DATABASE ${quotedName(dbName)}${tablespace ? ` TABLESPACE ${quotedName(tablespace)}` : ''}`);
  else {
    // Copies of one template made at the same moment: the server refuses a copy while another session
    // is connected to the template (a copy in progress is one), so a refused copy waits and tries again.
    for (let attempt = 0; ; attempt++) {
      try {
        await admin(`CREATE DATABASE ${quotedName(dbName)} TEMPLATE ${quotedName(opts.template)}`);
        break;
      } catch (err) {
        if (attempt >= 50 || !/being accessed by other users/.test(String(err))) throw err;
        await new Promise((r) => setTimeout(r, 50 + Math.random() * 100));
      }
    }
  }
  const url = new URL(server);
  url.pathname = `/${dbName}`;
  return { url: url.href, drop: () => admin(`DROP DATABASE IF EXISTS ${quotedName(dbName)} WITH (FORCE)`) };
}

/** True when the local PostgreSQL answers (tests that need it skip, saying so, when it does not). */
export const postgresAvailable = (): Promise<boolean> => (process.env.TEST_DATABASES === 'pglite' ? Promise.resolve(false) : postgresReachable());

/**
 * PostgreSQL databases likewise start from templates (`CREATE DATABASE … TEMPLATE`, a file copy on the
 * server) instead of running the migrations and the seed again (about 1.5 s of this process's time and as
 * much of the server's, each): Vitest's global setup makes them once per run and names them in
 * ACADEMY_PG_TEMPLATES (`<empty>,<seeded>`); without it, each database is migrated (and seeded) itself.
 */
/**
 * How long the tests' own connections to PostgreSQL may take to open: the server forks a backend per
 * connection, which on this 2-core machine can take longer than the site's 5 s while Vitest, Playwright's
 * server and ffmpeg share the cores (the global setup once failed so, at the run's busiest moment).
 */
const TEST_CONNECT_MS = 30_000;

const pgTemplateNames = (prefix: string) => ({ empty: `${prefix}_empty`, seeded: `${prefix}_seeded`, prepared: `${prefix}_prepared` });

/**
 * Makes the three PostgreSQL templates (Vitest's global setup) and returns the value for
 * ACADEMY_PG_TEMPLATES, the run's tablespace (or null) and how to drop them. The prepared one is the
 * seeded one with the conversion of the PGlite prepared template written into `dir` (`makeTestTemplates`,
 * awaited as `pgliteMade`). They are made in a tablespace in memory when the run can have one
 * (`test-tablespace.ts`), and so is every test database copied from them.
 */
export async function makePostgresTemplates(pgliteMade: Promise<unknown>): Promise<{ names: string; tablespace: string | null; drop(): Promise<void> }> {
  const names = pgTemplateNames(`academy_tpl_${process.pid}`);
  const tablespace = await memoryTablespace(adminUrl);
  const made: { drop(): Promise<void> }[] = [];
  const drop = async () => {
    for (const m of made) await m.drop();
    await tablespace?.drop();
  };
  try {
    for (const [name, withSeed] of [
      [names.empty, false],
      [names.seeded, true],
    ] as const) {
      const db = await createPostgresDatabase({ name, tablespace: tablespace?.name });
      made.push(db);
      const handle = await prepare(await openDatabase({ databaseUrl: db.url, dataDir: 'unused', connectTimeoutMs: TEST_CONNECT_MS }), withSeed);
      await handle.close();
    }
    const prepared = await createPostgresDatabase({ name: names.prepared, template: names.seeded });
    made.push(prepared);
    await pgliteMade;
    await prepareLikeTemplate(prepared.url);
  } catch (err) {
    await drop();
    throw err;
  }
  return { names: `${names.empty},${names.seeded},${names.prepared}`, tablespace: tablespace?.name ?? null, drop };
}

const postgres: TestDatabase = {
  name: 'postgres',
  async create(opts) {
    const withSeed = opts?.seed ?? false;
    const [empty, seeded] = process.env.ACADEMY_PG_TEMPLATES?.split(',') ?? [];
    const template = withSeed ? seeded : empty;
    const made = await createPostgresDatabase(template ? { template } : {});
    const handle = await openDatabase({ databaseUrl: made.url, dataDir: 'unused', connectTimeoutMs: TEST_CONNECT_MS });
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
