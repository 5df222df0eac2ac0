/** Moving files a folder kept before the storage existed into it (photos, archives of an older data folder). */
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { isStorageKey, type Storage } from './storage';

/**
 * Moves the files of `folder` whose names `accept` takes into `storage` under `prefix` + name, each
 * removed from the folder once stored (an object already there is kept); returns how many. A missing
 * folder is nothing to move. Safe to run at every start, and again after a crash.
 */
export async function moveIntoStorage(folder: string, storage: Storage, prefix: string, accept: (name: string) => boolean, contentType?: string): Promise<number> {
  const names = (await readdir(folder).catch(() => [] as string[])).filter((n) => accept(n) && isStorageKey(prefix + n));
  for (const name of names) {
    const key = prefix + name;
    if (!(await storage.stat(key))) await storage.put(key, await readFile(join(folder, name)), contentType ? { contentType } : {});
    await rm(join(folder, name), { force: true });
  }
  return names.length;
}
