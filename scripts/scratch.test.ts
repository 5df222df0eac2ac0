/**
 * The run's folder for temporary files (`scratch.mjs`): on a memory file system with room, a new folder
 * others may pass through; none on a disk or without room; folders of killed runs removed (once their
 * PostgreSQL tablespace is dropped), a running run's kept.
 */
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { memoryScratch, onMemory, TABLESPACE_FOLDER_PREFIX } from './scratch.mjs';

const shm = onMemory('/dev/shm');
if (!shm) console.warn('/dev/shm is not a memory file system here: the scratch-folder tests are skipped.');
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!shm)('the run’s folder for temporary files', () => {
  it('is a new folder on /dev/shm, in memory, that other users may pass through but not list', () => {
    const dir = memoryScratch()!;
    made.push(dir);
    expect(dir).toMatch(new RegExp(`^/dev/shm/academy-test-${process.pid}-`));
    expect(onMemory(dir)).toBe(true);
    expect(statSync(dir).mode & 0o777).toBe(0o711);
    const another = memoryScratch()!;
    made.push(another);
    expect(another).not.toBe(dir);
  });

  it('is none on a disk, or when the memory file system has less room than asked', () => {
    expect(onMemory(process.cwd())).toBe(false);
    expect(memoryScratch({ base: process.cwd() })).toBeNull();
    expect(memoryScratch({ room: 2 ** 60 })).toBeNull();
    expect(memoryScratch({ base: '/no/such/folder' })).toBeNull();
  });

  it('removes the folders of runs whose process is gone, and keeps a running one’s', () => {
    // A process that has exited: its pid names no running process.
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    const stale = `/dev/shm/academy-test-${gone}-stale`;
    const running = `/dev/shm/academy-test-${process.ppid}-running`;
    mkdirSync(`${stale}/pglite`, { recursive: true });
    mkdirSync(running, { recursive: true });
    made.push(stale, running);
    made.push(memoryScratch()!);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(running)).toBe(true);
  });

  it('keeps a gone run’s folder while it holds a PostgreSQL tablespace, and removes it once that is dropped', () => {
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    const stale = `/dev/shm/academy-test-${gone}-tablespace`;
    mkdirSync(`${stale}/${TABLESPACE_FOLDER_PREFIX}abc123/PG_15_202209061`, { recursive: true });
    made.push(stale);
    made.push(memoryScratch()!);
    expect(existsSync(`${stale}/${TABLESPACE_FOLDER_PREFIX}abc123`)).toBe(true);
    // The test run dropped the tablespace and removed its folder: the next run removes the rest.
    rmSync(`${stale}/${TABLESPACE_FOLDER_PREFIX}abc123`, { recursive: true });
    made.push(memoryScratch()!);
    expect(existsSync(stale)).toBe(false);
  });
});
