/**
 * The run's PostgreSQL tablespace in memory (`test-tablespace.ts`): made in a memory folder and owned by
 * the server's user, every database created or copied for the run lands in it, and dropping it drops
 * what was left in it and its folder; none on a disk folder or another server; a killed run's is
 * dropped by the next. Skipped, saying so, without PostgreSQL, /dev/shm or the rights to hand a folder over.
 * A tablespace whose folder went first is dropped with all its databases (against a stand-in server).
 */
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { onMemory } from '../../../scripts/scratch.mjs';
import { createPostgresDatabase, postgresAvailable } from './testing';
import { dropTablespace, memoryTablespace } from './test-tablespace';

const server = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const root = typeof process.getuid === 'function' && process.getuid() === 0;
const ready = (await postgresAvailable()) && onMemory('/dev/shm') && root;
if (!ready) console.warn('PostgreSQL, /dev/shm or root is missing here: the memory tablespace tests are skipped.');
// As `npm test`'s folder for temporary files: the server's user may pass through it.
const folder = ready ? mkdtempSync('/dev/shm/academy-tablespace-test-') : '';
if (folder) chmodSync(folder, 0o711);
afterAll(() => {
  if (folder) rmSync(folder, { recursive: true, force: true });
});

async function query<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}
const tablespaceOf = async (db: string) => (await query<{ spcname: string }>('select t.spcname from pg_database d join pg_tablespace t on t.oid = d.dattablespace where d.datname = $1', [db]))[0]?.spcname;
const tablespaces = async () => (await query<{ spcname: string }>('select spcname from pg_tablespace')).map((r) => r.spcname);

describe.skipIf(!ready)('the run’s PostgreSQL tablespace in memory', () => {
  it('holds the run’s new databases and their copies in a memory folder of the server’s user; dropping it drops them and the folder', async () => {
    const saved = process.env.ACADEMY_PG_TABLESPACE;
    const ts = (await memoryTablespace(server, folder))!;
    expect(ts.name).toMatch(new RegExp(`^academy_ts_${process.pid}_`));
    const location = (await query<{ location: string }>('select pg_tablespace_location(oid) as location from pg_tablespace where spcname = $1', [ts.name]))[0]!.location;
    expect(location.startsWith(`${folder}/academy-pg-`)).toBe(true);
    // The server's user owns it, not this (root) process.
    expect(statSync(location).uid).not.toBe(0);
    try {
      process.env.ACADEMY_PG_TABLESPACE = ts.name;
      const made = await createPostgresDatabase({ prefix: 'academy_ts_test' });
      const copy = await createPostgresDatabase({ prefix: 'academy_ts_test', template: new URL(made.url).pathname.slice(1) });
      for (const url of [made.url, copy.url]) expect(await tablespaceOf(new URL(url).pathname.slice(1))).toBe(ts.name);
      expect(readdirSync(location).length).toBeGreaterThan(0);
      await copy.drop();
      // `made` is left in it, as a test that failed before dropping its database would leave it.
      await ts.drop();
      expect(await tablespaceOf(new URL(made.url).pathname.slice(1))).toBeUndefined();
      expect(await tablespaces()).not.toContain(ts.name);
      expect(existsSync(location)).toBe(false);
    } finally {
      if (saved === undefined) delete process.env.ACADEMY_PG_TABLESPACE;
      else process.env.ACADEMY_PG_TABLESPACE = saved;
    }
  });

  it('is none on a disk folder or on another server, which is not even asked', async () => {
    const connect = vi.spyOn(pg.Client.prototype, 'connect');
    try {
      expect(await memoryTablespace(server, process.cwd())).toBeNull();
      expect(await memoryTablespace('postgres://postgres@192.0.2.1:5432/postgres', folder)).toBeNull();
      expect(connect).not.toHaveBeenCalled();
    } finally {
      connect.mockRestore();
    }
  });

  it('drops a killed run’s tablespace, with the databases and folder it left, when the next run makes its own', async () => {
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    const dir = mkdtempSync(join(folder, 'killed-'));
    const { uid, gid } = statSync((await query<{ data_directory: string }>('show data_directory'))[0]!.data_directory);
    spawnSync('chown', [`${uid}:${gid}`, dir]);
    const stale = `academy_ts_${gone}_killed`;
    await query(`CREATE TABLESPACE "${stale}" LOCATION '${dir}'`);
    await query(`CREATE DATABASE "academy_ts_test_killed_${gone}" TABLESPACE "${stale}"`);
    const ts = (await memoryTablespace(server, folder))!;
    try {
      expect(await tablespaces()).not.toContain(stale);
      expect(await tablespaceOf(`academy_ts_test_killed_${gone}`)).toBeUndefined();
      expect(existsSync(dir)).toBe(false);
    } finally {
      await ts.drop();
    }
  });

});

/**
 * A server as PostgreSQL behaves once a tablespace's folder went before its databases: it holds pages
 * of those databases it cannot write, so every checkpoint fails, and DROP DATABASE (which waits for one)
 * fails while any such page is left; a drop discards its own database's pages first, even when it then
 * fails and its database stays. (Seen on this machine's PostgreSQL 15 after a run removed its folder
 * first. A real server is not put in that state here: every other test's drop would fail meanwhile.)
 */
function serverWithUnwritablePages(databases: string[]) {
  const left = new Set(databases);
  const unwritable = new Set(databases);
  const dropped: string[] = [];
  let tablespace = true;
  const client = {
    async query(text: string) {
      if (text.startsWith('select d.datname')) return { rows: [...left].map((datname) => ({ datname })) };
      const drop = /^DROP DATABASE IF EXISTS "([^"]+)"/.exec(text);
      if (drop) {
        unwritable.delete(drop[1]!);
        if (unwritable.size > 0) throw new Error('checkpoint request failed');
        if (left.delete(drop[1]!)) dropped.push(drop[1]!);
        return { rows: [] };
      }
      if (text.startsWith('DROP TABLESPACE')) {
        if (left.size > 0) throw new Error('tablespace is not empty');
        tablespace = false;
        return { rows: [] };
      }
      throw new Error(`unexpected statement ${text}`);
    },
  };
  return { client: client as unknown as pg.Client, dropped, hasTablespace: () => tablespace };
}

describe('dropping a tablespace whose folder went first', () => {
  it('drops every database in it and then it, though the first drops fail while the others’ pages are left', async () => {
    const server = serverWithUnwritablePages(['academy_tpl_1_empty', 'academy_tpl_1_seeded', 'academy_tpl_1_prepared']);
    await dropTablespace(server.client, 'academy_ts_1_gone', null);
    expect(server.dropped.sort()).toEqual(['academy_tpl_1_empty', 'academy_tpl_1_prepared', 'academy_tpl_1_seeded']);
    expect(server.hasTablespace()).toBe(false);
  });
});
