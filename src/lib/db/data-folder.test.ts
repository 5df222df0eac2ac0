/**
 * The embedded database's folder has one owner: a second opener is refused in one sentence naming the
 * owner, the owner hands out a consistent copy that opens as the same database, and a socket left by a
 * killed process does not keep the folder from opening.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openDatabase, queryRows, SMALL_SHARED_BUFFERS } from './client';
import { folderSocket, snapshotFromOwner } from './data-folder';
import { testDatabases } from './testing';

const folders: string[] = [];
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

/** A new DATA_DIR holding a migrated embedded database (closed). */
async function dataDir(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'academy-folder-'));
  folders.push(dir);
  const memory = await (await testDatabases()).find((d) => d.name === 'pglite')!.create();
  try {
    await (await openDatabase({ databaseUrl: null, dataDir: dir, snapshot: await memory.snapshot!() })).close();
  } finally {
    await memory.close();
  }
  return dir;
}

describe('the embedded database folder', () => {
  it('is refused to a second opener while open, hands out a copy that opens, and is free again once closed', async () => {
    const dir = await dataDir();
    expect(await snapshotFromOwner(dir)).toBeNull();
    const owner = await openDatabase({ databaseUrl: null, dataDir: dir });
    try {
      // A data folder keeps the academy cached; an in-memory copy lives seconds, and gets a small pool.
      expect(await queryRows(owner.db, sql`show shared_buffers`)).toEqual([{ shared_buffers: '32MB' }]);
      await owner.db.execute(sql`insert into users (email, first_name, last_name) values ('copy@test.example', 'In', 'Copy')`);
      await expect(openDatabase({ databaseUrl: null, dataDir: dir })).rejects.toThrow(
        new RegExp(`^The embedded database in ${dir} is open in another process \\(pid ${process.pid}: a server, a backup or a restore\\): stop it first, or use another DATA_DIR\\.$`),
      );
      const copy = await snapshotFromOwner(dir);
      expect(copy?.pid).toBe(process.pid);
      const opened = await openDatabase({ databaseUrl: null, dataDir: 'memory://', snapshot: new Blob([new Uint8Array(copy!.tar)]) });
      try {
        expect(await queryRows(opened.db, sql`select last_name from users where email = 'copy@test.example'`)).toEqual([{ last_name: 'Copy' }]);
        expect(await queryRows(opened.db, sql`show shared_buffers`)).toEqual([{ shared_buffers: SMALL_SHARED_BUFFERS }]);
      } finally {
        await opened.close();
      }
    } finally {
      await owner.close();
    }
    expect(existsSync(folderSocket(dir))).toBe(false);
    expect(await snapshotFromOwner(dir)).toBeNull();
    await expect(openDatabase({ databaseUrl: null, dataDir: dir, sharedBuffers: "32MB'; fsync='on" })).rejects.toThrow(/^shared buffers must be a size like 32MB/);
    const small = await openDatabase({ databaseUrl: null, dataDir: dir, sharedBuffers: SMALL_SHARED_BUFFERS });
    try {
      expect(await queryRows(small.db, sql`show shared_buffers`)).toEqual([{ shared_buffers: SMALL_SHARED_BUFFERS }]);
    } finally {
      await small.close();
    }
  }, 180_000);

  it('opens although a killed process left its socket behind', async () => {
    const dir = await dataDir();
    const path = folderSocket(dir);
    const killed = spawn(process.execPath, ['-e', `require('node:net').createServer().listen(${JSON.stringify(path)}, () => process.kill(process.pid, 'SIGKILL'))`]);
    await new Promise((r) => killed.on('exit', r));
    expect(existsSync(path)).toBe(true);
    expect(await snapshotFromOwner(dir)).toBeNull();
    const handle = await openDatabase({ databaseUrl: null, dataDir: dir });
    await handle.close();
  }, 180_000);

  it('is refused, saying so, while a process accepts on its socket but never answers', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'academy-folder-'));
    folders.push(dir);
    const mute = createServer(() => undefined);
    await new Promise<void>((r) => mute.listen(folderSocket(dir), r));
    try {
      await expect(openDatabase({ databaseUrl: null, dataDir: dir })).rejects.toThrow(/is held by a process that does not answer on .*pglite\.sock: stop it, then start again\.$/);
    } finally {
      mute.close();
    }
  }, 180_000);

  it('says so when DATA_DIR is too long a path for its socket', () => {
    expect(() => folderSocket(join('/', 'x'.repeat(200)))).toThrow(/is too long for the embedded database's socket: set DATA_DIR to a shorter path/);
  });
});
