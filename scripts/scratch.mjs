/**
 * The folder for a test run's temporary files (`npm test` names it in TMPDIR): a new folder on
 * `/dev/shm` when that is a memory file system (tmpfs) with room, else the system's own.
 *
 * The suites create and remove tens of thousands of files: every embedded database copied into a data
 * folder is about 1,400 of them, and PostgreSQL copies a template's files for every test database
 * (`src/lib/db/test-tablespace.ts` puts those in this folder too). On this machine's ext4 disk, each new
 * file after thousands of removals cost the kernel a search through recently freed inodes (a tenth of
 * all processor time in a run of the checkout and identity suites); in memory there is no such search
 * (`docs/benchmarks.md`, the seventh day's session).
 */
import { chmodSync, mkdtempSync, readdirSync, rmSync, statfsSync } from 'node:fs';
import { join } from 'node:path';

/** `statfs`'s type of a tmpfs (Linux). */
export const TMPFS_MAGIC = 0x01021994;

/** True when `path` is on a memory file system. */
export function onMemory(path) {
  try {
    return statfsSync(path).type === TMPFS_MAGIC;
  } catch {
    return false;
  }
}

/** True when process `pid` is running (or exists under another user). */
export function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

const PREFIX = 'academy-test-';

/** The folder a run's PostgreSQL tablespace is made in, inside its temporary folder (`src/lib/db/test-tablespace.ts`). */
export const TABLESPACE_FOLDER_PREFIX = 'academy-pg-';

/**
 * A new folder for this run's temporary files under `base` when `base` is a memory file system with
 * `room` bytes free, or null. Folders left there by runs whose process is gone (killed) are removed
 * first, but for one that still holds a PostgreSQL tablespace: the server may hold pages of its
 * databases not yet written, and with their files gone it could write no checkpoint again (nor drop
 * any database). The test run drops such a tablespace with its databases, then its folder; the rest
 * goes at the next run. The folder can be passed through by other users (0711): the PostgreSQL server
 * keeps its tablespace inside.
 */
export function memoryScratch({ base = '/dev/shm', room = 4 * 2 ** 30 } = {}) {
  try {
    if (!onMemory(base)) return null;
    for (const name of readdirSync(base)) {
      const pid = Number(new RegExp(`^${PREFIX}(\\d+)-`).exec(name)?.[1]);
      if (!pid || alive(pid)) continue;
      const dir = join(base, name);
      if (readdirSync(dir).some((entry) => entry.startsWith(TABLESPACE_FOLDER_PREFIX))) continue;
      rmSync(dir, { recursive: true, force: true });
    }
    const { bavail, bsize } = statfsSync(base);
    if (bavail * bsize < room) return null;
    const dir = mkdtempSync(join(base, `${PREFIX}${process.pid}-`));
    chmodSync(dir, 0o711);
    return dir;
  } catch {
    return null;
  }
}
