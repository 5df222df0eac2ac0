/**
 * Stored files in a folder on this machine (the default). A write goes to a temporary file beside the
 * object and is renamed over it, so a reader (or a process killed mid-write) never leaves half an object
 * under its key (the temporary file a killed write leaves is never listed, and `sweepUnfinished` removes
 * it). Ranges are read straight from disk, never the whole file into memory.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { dirname, join, relative, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { checkedKey, contentTypeOfKey, isStoragePrefix, BadStorageKey, type ByteRange, type Storage, type StoredObject } from './storage';

/** Content types by extension (the folder keeps no metadata beside the bytes). */
export { contentTypeOfKey };

function toReadable(body: Uint8Array | AsyncIterable<Uint8Array> | NodeJS.ReadableStream): NodeJS.ReadableStream {
  if (body instanceof Uint8Array) return Readable.from([body]);
  return body as NodeJS.ReadableStream;
}

/** The storage of the folder `root` (made on first write). */
export function createLocalStorage(root: string): Storage {
  const pathOf = (key: string) => join(root, ...checkedKey(key).split('/'));
  async function describe(key: string): Promise<StoredObject | null> {
    try {
      const s = await stat(pathOf(key));
      return s.isFile() ? { key, sizeBytes: s.size, contentType: contentTypeOfKey(key), modifiedMs: s.mtimeMs } : null;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return null;
      throw err;
    }
  }
  const keyOf = (file: string) => relative(root, file).split(sep).join('/');
  /** The files under `prefix` whose name `wanted` accepts (paths). */
  async function filesUnder(prefix: string, wanted: (name: string) => boolean): Promise<string[]> {
    if (!isStoragePrefix(prefix)) throw new BadStorageKey(prefix);
    const cut = prefix.lastIndexOf('/');
    const folder = cut < 0 ? root : join(root, ...prefix.slice(0, cut).split('/'));
    try {
      return (await readdir(folder, { recursive: true, withFileTypes: true }))
        .filter((e) => e.isFile() && wanted(e.name))
        .map((e) => join(e.parentPath, e.name))
        .filter((file) => keyOf(file).startsWith(prefix));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
  }
  return {
    kind: 'local',
    async put(key, body) {
      const target = pathOf(key);
      await mkdir(dirname(target), { recursive: true });
      const temporary = `${target}.${randomBytes(6).toString('hex')}.part`;
      const out = createWriteStream(temporary, { flags: 'wx' });
      // A body failing at once can beat the file's opening: it is removed only once the stream has closed.
      const closed = new Promise<void>((resolve) => out.once('close', () => resolve()));
      try {
        await pipeline(toReadable(body), out);
        await rename(temporary, target);
      } catch (err) {
        await closed;
        await rm(temporary, { force: true });
        throw err;
      }
      return (await describe(key))!;
    },
    async get(key, range?: ByteRange) {
      const object = await describe(key);
      if (!object) return null;
      const body = range ? createReadStream(pathOf(key), { start: range.start, end: range.end }) : createReadStream(pathOf(key));
      return { body, object };
    },
    stat: describe,
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
    async *list(prefix) {
      for (const file of await filesUnder(prefix, (name) => !name.endsWith('.part'))) yield keyOf(file);
    },
    async sweepUnfinished(prefix, olderThanMs, now = Date.now()) {
      let removed = 0;
      for (const file of await filesUnder(prefix, (name) => name.endsWith('.part'))) {
        const written = await stat(file).then((s) => s.mtimeMs, () => null);
        if (written === null || now - written <= olderThanMs) continue;
        await rm(file, { force: true });
        removed++;
      }
      return removed;
    },
  };
}
