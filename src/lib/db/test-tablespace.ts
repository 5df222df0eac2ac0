/**
 * The run's PostgreSQL test databases in memory: a tablespace in the run's temporary folder when that
 * folder is a memory file system (`npm test` puts it on /dev/shm, `scripts/scratch.mjs`) and the server
 * is this machine's. The run's templates are made in it, and every test database copied from them (or
 * created empty) lands there too: on this machine's ext4 disk, the server's copy of a template (about
 * 1,000 files) after thousands of dropped databases cost the kernel a search through recently freed
 * inodes, in memory it does not (Vitest's run: 211–226 s → 186–193 s, `docs/benchmarks.md`).
 *
 * Needs what the local test server gives: a superuser (CREATE TABLESPACE) and a test process that may
 * hand the folder to the server's user (root). Without them, or on another server, the server's own
 * folder is used, as before.
 */
import { mkdtempSync, rmSync, statSync, chownSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { alive, onMemory, TABLESPACE_FOLDER_PREFIX } from '../../../scripts/scratch.mjs';

/** This machine's server, as the test URLs name it. */
const LOCAL = new Set(['127.0.0.1', 'localhost', '[::1]']);
const PREFIX = 'academy_ts_';

export interface Tablespace {
  name: string;
  /** Drops the databases left in it, then it, then its folder. */
  drop(): Promise<void>;
}

/** `name` as a quoted SQL identifier (a database or tablespace name). */
export const quotedName = (name: string) => `"${name.replace(/"/g, '""')}"`;

async function withClient<T>(server: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Drops the databases in tablespace `name`, then the tablespace; its folder goes if `dir` is given.
 *
 * If the folder went first (a run removed its temporary files before its databases), the server still
 * holds pages of those databases it cannot write: every checkpoint fails, and so does every DROP DATABASE
 * on the server, which waits for one. A drop discards the database's pages before that wait, so a first
 * round that fails leaves none behind and a second round goes through.
 */
export async function dropTablespace(client: pg.Client, name: string, dir: string | null): Promise<void> {
  const left = async () => (await client.query<{ datname: string }>('select d.datname from pg_database d join pg_tablespace t on t.oid = d.dattablespace where t.spcname = $1', [name])).rows;
  const drop = (datname: string) => client.query(`DROP DATABASE IF EXISTS ${quotedName(datname)} WITH (FORCE)`);
  for (const { datname } of await left()) await drop(datname).catch(() => undefined);
  for (const { datname } of await left()) await drop(datname);
  await client.query(`DROP TABLESPACE IF EXISTS ${quotedName(name)}`);
  if (dir) rmSync(dir, { recursive: true, force: true });
}

/** Tablespaces of runs whose process is gone (killed before dropping theirs): dropped with their databases and folders. */
async function dropStale(client: pg.Client): Promise<string[]> {
  const { rows } = await client.query<{ spcname: string; location: string }>(`select spcname, pg_tablespace_location(oid) as location from pg_tablespace where spcname like '${PREFIX}%'`);
  const dropped: string[] = [];
  for (const { spcname, location } of rows) {
    const pid = Number(new RegExp(`^${PREFIX}(\\d+)_`).exec(spcname)?.[1]);
    if (!pid || alive(pid)) continue;
    try {
      await dropTablespace(client, spcname, location || null);
      dropped.push(spcname);
    } catch {
      // Another run is dropping it, or the server refuses: left for the next run.
    }
  }
  return dropped;
}

/**
 * A new tablespace in `folder` (default: the temporary folder) on the PostgreSQL server `server`, when
 * the folder is in memory and the server is this machine's; null otherwise, or when the server or this
 * process may not (see above). Stale tablespaces of killed runs are dropped first.
 */
export async function memoryTablespace(server: string, folder = tmpdir()): Promise<Tablespace | null> {
  if (!onMemory(folder) || !LOCAL.has(new URL(server).hostname)) return null;
  let dir: string | null = null;
  try {
    return await withClient(server, async (client) => {
      await dropStale(client);
      const { rows } = await client.query<{ data_directory: string }>('show data_directory');
      // The server's files belong to its user: so does the tablespace's folder.
      const { uid, gid } = statSync(rows[0]!.data_directory);
      dir = mkdtempSync(join(folder, TABLESPACE_FOLDER_PREFIX));
      chownSync(dir, uid, gid);
      const name = `${PREFIX}${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
      await client.query(`CREATE TABLESPACE ${quotedName(name)} LOCATION '${dir.replace(/'/g, "''")}'`);
      const made = dir;
      return { name, drop: () => withClient(server, (c) => dropTablespace(c, name, made)) };
    });
  } catch {
    if (dir) rmSync(dir, { recursive: true, force: true });
    return null;
  }
}
