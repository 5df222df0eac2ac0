/**
 * The stored files of a backup: every object of the storage copied into the archive's `files/` folder
 * under its key, and back into the configured storage (the local folder, or a bucket) on restore.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { isStorageKey, type Storage } from '../storage';

/** Copies every object of `storage` into the folder `to`, each under its key; returns how many. */
export async function storedFilesOut(storage: Storage, to: string): Promise<number> {
  let count = 0;
  for await (const key of storage.list('')) {
    const read = await storage.get(key);
    // Deleted since it was listed: not part of the backup.
    if (!read) continue;
    const path = join(to, ...key.split('/'));
    await mkdir(dirname(path), { recursive: true });
    await pipeline(read.body, createWriteStream(path, { mode: 0o600 }));
    count += 1;
  }
  return count;
}

/** Puts every file under the folder `from` into `storage` under its path as key (replacing what is there); returns how many. */
export async function storedFilesIn(from: string, storage: Storage): Promise<number> {
  const entries = await readdir(from, { recursive: true, withFileTypes: true }).catch(() => []);
  let count = 0;
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    const key = relative(from, path).split(sep).join('/');
    if (!isStorageKey(key)) continue;
    await storage.put(key, createReadStream(path));
    count += 1;
  }
  return count;
}
