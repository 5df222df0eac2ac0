/**
 * Opens the academy's database: embedded PGlite (default, in `<DATA_DIR>/pglite`, or `memory://`)
 * or PostgreSQL when `DATABASE_URL` is set. Both speak the same dialect and share one schema and one
 * set of migrations. One PGlite instance per process: the runtime opens it and hands it down.
 */
import { mkdirSync, accessSync, constants, existsSync, statfsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PGlite, types } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { SQL } from 'drizzle-orm';
import pg from 'pg';
import { ConfigError, storageError } from '../config/error';
import { holdDataFolder } from './data-folder';
import * as schema from './schema';

/** The Drizzle database, whichever driver is behind it. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction of `Db` (what `db.transaction(tx => …)` hands over). */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** An open database and how to close it. */
export interface DbHandle {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Where it lives, for log lines (never includes a password). */
  where: string;
  /** PostgreSQL only: the connection pool's counts, for metrics. */
  pool?: { readonly totalCount: number; readonly idleCount: number; readonly waitingCount: number };
  close(): Promise<void>;
  /** PGlite: a copy of the data folder, for `DbTarget.snapshot` (tests start many databases from one). */
  snapshot?: () => Promise<Blob>;
  /**
   * PGlite: calls `told` after each committed transaction that notified `channel` (in this process, before
   * the writer's commit returns); resolves to a way to stop. PostgreSQL's notifications go to the bus.
   */
  listen?: (channel: string, told: () => void) => Promise<() => Promise<void>>;
}

/** Where to open the database. */
export interface DbTarget {
  databaseUrl: string | null;
  /** Data folder for PGlite, or `memory://` for a throwaway in-memory database. */
  dataDir: string;
  /** PostgreSQL: how long to wait for a new connection before giving up (ms, default 5000). */
  connectTimeoutMs?: number;
  /** PGlite: start from this copy of a data folder (`dumpDataDir`) instead of an empty one (in memory, or a new folder). */
  snapshot?: Blob;
  /**
   * PGlite: PostgreSQL's shared buffers (`shared_buffers`). A data folder gets 32 MB by default, an
   * in-memory database `SMALL_SHARED_BUFFERS`.
   */
  sharedBuffers?: string;
}

/**
 * Shared buffers for a database that lives seconds: an in-memory copy (its files are in memory already,
 * so a page not in the pool is a copy away) and the data folders of the processes the tests start and
 * kill. PGlite clears the whole pool at every start, and page faults are costly on the test machine: ten
 * opens of a seeded copy in one process took 366–416k faults and 10.3–11.3 s of processor time with 32 MB,
 * 272–276k and 8.9–9.0 s with 1 MB (four runs each, side by side).
 */
export const SMALL_SHARED_BUFFERS = '2MB';

/** Opens a database (the runtime opens the app's; scripts and tests open their own). */
export async function openDatabase(target: DbTarget): Promise<DbHandle> {
  if (target.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: target.databaseUrl,
      max: 10,
      // A server that accepts connections but never answers (a network dropping packets) makes
      // requests fail after this long instead of waiting for ever.
      connectionTimeoutMillis: target.connectTimeoutMs ?? 5000,
      // Lets the operating system notice a peer that vanished without closing the connection.
      keepAlive: true,
    });
    // PostgreSQL restarted or unreachable: the pool drops broken clients and opens new ones on the next
    // query, so the process keeps running and recovers by itself. An idle client's error reaches the pool
    // ('error' below). A client checked out for a transaction has no pool listener: without one of its
    // own, the connection's end would be an unhandled 'error' event and end the whole process. Its
    // queries fail on their own (the transaction rejects), and on release the pool discards it.
    pool.on('connect', (client) => {
      client.on('error', () => undefined);
    });
    pool.on('error', () => {
      /* idle client errors are reported by the next query */
    });
    try {
      const client = await pool.connect();
      client.release();
    } catch (err) {
      await pool.end().catch(() => undefined);
      const u = new URL(target.databaseUrl);
      throw new ConfigError(
        `Cannot connect to PostgreSQL at ${u.hostname}:${u.port || 5432}${u.pathname} (${(err as Error).message}): start the server or fix DATABASE_URL.`,
      );
    }
    const db = drizzlePg({ client: pool, schema, casing: 'snake_case' }) as unknown as Db;
    const u = new URL(target.databaseUrl);
    return { db, kind: 'postgres', where: `postgres://${u.hostname}:${u.port || 5432}${u.pathname}`, pool, close: () => pool.end() };
  }
  const memory = target.dataDir === 'memory://';
  if (target.sharedBuffers !== undefined && !/^[1-9]\d{0,5}(kB|MB)$/.test(target.sharedBuffers)) throw new Error(`shared buffers must be a size like 32MB, not ${JSON.stringify(target.sharedBuffers)}`);
  const dir = memory ? 'memory://' : resolve(join(target.dataDir, 'pglite'));
  if (!memory) ensureWritableFolder(dir);
  if (!memory && !existsSync(join(dir, 'PG_VERSION'))) ensureRoomForNewDatabase(dir);
  // One process at a time has the folder open; it hands out consistent copies (`data-folder.ts`).
  let opened!: (client: PGlite) => void;
  let failed!: (err: unknown) => void;
  const ready = new Promise<PGlite>((resolveReady, rejectReady) => ((opened = resolveReady), (failed = rejectReady)));
  ready.catch(() => undefined);
  const held = memory ? null : await holdDataFolder(target.dataDir, { snapshot: () => ready.then((c) => c.dumpDataDir('none')) });
  if (held && target.snapshot && existsSync(join(dir, 'PG_VERSION'))) {
    await held.release();
    throw new Error(`${dir} already holds a database: a copy is only loaded into a new folder.`);
  }
  let client: PGlite;
  // PostgreSQL's default 128 MB of shared buffers is most of an idle server's memory, for a database of
  // a few megabytes; 32 MB keeps the whole academy cached (bench: 525 → 304 MB idle, same ack latency).
  // An in-memory copy takes less (`SMALL_SHARED_BUFFERS`).
  // `synchronous_commit=on` (PGlite's default, kept explicit): a commit writes its WAL to the data folder
  // before it returns, so progress acknowledged after its commit survives the process being killed
  // (server/faults.test.ts). PGlite runs with fsync off: an operating-system crash may still lose it.
  // A data folder on a full (or read-only) disk fails inside PGlite's file system, whose errors are no
  // Error and carry no message: said here in one sentence instead.
  try {
    client = await PGlite.create(memory ? undefined : dir, {
      extensions: { pg_trgm, unaccent },
      postgresqlconf: [`shared_buffers=${target.sharedBuffers ?? (memory ? SMALL_SHARED_BUFFERS : '32MB')}`, 'synchronous_commit=on'],
      ...(target.snapshot ? { loadDataDir: target.snapshot } : {}),
    });
  } catch (err) {
    failed(err);
    await held?.release();
    throw (memory ? null : storageError(err, dir)) ?? err;
  }
  opened(client);
  // The one session of the embedded database asks to be told of changes to IBOs' business (migration 0040).
  await client.exec(`set academy.tell_ibo_changes = 'on'`);
  const db = drizzlePglite({ client: leanClient(client), schema, casing: 'snake_case' }) as unknown as Db;
  const close = async () => {
    try {
      await client.close();
    } finally {
      await held?.release();
    }
  };
  return { db, kind: 'pglite', where: dir, close, snapshot: () => client.dumpDataDir('none'), listen: (channel, told) => client.listen(channel, () => told()) };
}

/**
 * The types Drizzle wants as PostgreSQL's text (it parses them itself): dates, times, intervals and
 * their arrays. Drizzle's PGlite driver says so with every query, and PGlite then copies its ~300
 * default parsers to add them, about 0.1 ms a query (a tenth of a simple query's cost).
 */
const DRIZZLE_TEXT_TYPES = [types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE, 1231, 1115, 1185, 1187, 1182];

/** What Drizzle's PGlite driver calls on its client (and on a transaction's). */
interface QueryClient {
  query: PGlite['query'];
  transaction<T>(fn: (tx: QueryClient) => Promise<T>): Promise<T>;
}

/**
 * The PGlite client as Drizzle gets it: those types are text by default on the instance itself, so
 * each query's copy of the same instruction is dropped before it reaches PGlite (results identical).
 */
function leanClient(client: PGlite): PGlite {
  for (const oid of DRIZZLE_TEXT_TYPES) client.parsers[oid] = (value: string) => value;
  const lean = (target: Pick<PGlite, 'query'> & { transaction: PGlite['transaction'] }): QueryClient => ({
    query: (text, params, options) => target.query(text, params, options?.rowMode ? { rowMode: options.rowMode } : undefined),
    transaction: (fn) => target.transaction((tx) => fn(lean(tx as unknown as PGlite))),
  });
  // Drizzle only calls `query` and `transaction`; it takes the client as a PGlite.
  return lean(client) as unknown as PGlite;
}

/**
 * What a new embedded database takes on disk, seeded with the demo catalogue (about 50 MB) with some
 * margin: below it, creating one would fill the disk part-way through.
 */
export const NEW_DATABASE_BYTES = 64 * 1024 * 1024;

/**
 * Refuses to create a database on a disk without room for it, before anything is written: a database
 * created on a full disk fails somewhere inside the embedded database's initialisation, where the
 * failure may take long to surface; said at once instead, in the same sentence as a disk that fills up.
 */
function ensureRoomForNewDatabase(dir: string): void {
  let free: number;
  try {
    const s = statfsSync(dir);
    free = s.bavail * s.bsize;
  } catch {
    return; // No answer about the disk: the database's own writes say whether there is room.
  }
  if (free >= NEW_DATABASE_BYTES) return;
  if (free < 1024 * 1024) throw storageError({ code: 'ENOSPC' }, dir)!;
  const mb = (bytes: number) => Math.floor(bytes / (1024 * 1024));
  throw new ConfigError(
    `The disk holding the data folder ${dir} has ${mb(free)} MB free and a new database needs ${mb(NEW_DATABASE_BYTES)} MB (ENOSPC): free some space on it, or set DATA_DIR to a folder on a disk with room.`,
  );
}

function ensureWritableFolder(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    if (code === 'ENOSPC' || code === 'EDQUOT' || code === 'EROFS') throw storageError(err, dir)!;
    throw new ConfigError(
      `Cannot write the data folder ${dir} (${code}): set DATA_DIR to a writable folder or fix its permissions.`,
    );
  }
}

/** Runs raw SQL and returns its rows (both drivers answer with `{ rows }`). */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
