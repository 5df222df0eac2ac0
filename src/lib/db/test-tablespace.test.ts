/**
 * The run's PostgreSQL tablespace in memory (`test-tablespace.ts`): made in a memory folder and owned by
 * the server's user, every database created or copied for the run lands in it, and dropping it drops
 * what was left in it and its folder; none on a disk folder or another server; a killed run's is
 * dropped by the next. Skipped, saying so, without PostgreSQL, /dev/shm or the rights to hand a folder over.
 */
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { onMemory } from '../../../scripts/scratch.mjs';
import { createPostgresDatabase, postgresAvailable } from './testing';
import { memoryTablespace } from './test-tablespace';

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

  it('drops a killed run’s tablespace whose folder went first, with pages the server had not written, and the server checkpoints again', async () => {
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    const dir = mkdtempSync(join(folder, 'removed-'));
    const { uid, gid } = statSync((await query<{ data_directory: string }>('show data_directory'))[0]!.data_directory);
    spawnSync('chown', [`${uid}:${gid}`, dir]);
    const stale = `academy_ts_${gone}_removed`;
    // Two databases, as a run leaves its templates: dropping one waits for a checkpoint, which fails on the other's pages.
    const dbs = [`academy_ts_test_removed_${gone}_a`, `academy_ts_test_removed_${gone}_b`];
    let ts: Awaited<ReturnType<typeof memoryTablespace>> = null;
    try {
      await query(`CREATE TABLESPACE "${stale}" LOCATION '${dir}'`);
      for (const db of dbs) {
        await query(`CREATE DATABASE "${db}" TABLESPACE "${stale}"`);
        const inside = new pg.Client({ connectionString: `${server.replace(/\/[^/]*$/, '')}/${db}` });
        await inside.connect();
        // Pages the server holds and writes at its next checkpoint.
        await inside.query('create table kept (n int); insert into kept select generate_series(1, 1000)').finally(() => inside.end());
      }
      // The folder goes, as a run that stopped on a failure removed its temporary files before its databases.
      rmSync(dir, { recursive: true, force: true });
      ts = await memoryTablespace(server, folder);
      expect(ts).not.toBeNull();
      expect(await tablespaces()).not.toContain(stale);
      for (const db of dbs) expect(await tablespaceOf(db)).toBeUndefined();
      expect(await query('checkpoint')).toEqual([]);
    } finally {
      // Should the drop have failed, the server is mended for the tests after this one.
      for (let i = 0; i < 2; i++) for (const db of dbs) await query(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`).catch(() => undefined);
      await query(`DROP TABLESPACE IF EXISTS "${stale}"`).catch(() => undefined);
      await ts?.drop();
    }
  });
});
