/**
 * Stored files in a folder on this machine (the default). A write goes to a temporary file beside the
 * object and is renamed over it, so a reader (or a process killed mid-write) never leaves half an object
 * under its key. Ranges are read straight from disk, never the whole file into memory.
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
  return {
    kind: 'local',
    async put(key, body) {
      const target = pathOf(key);
      await mkdir(dirname(target), { recursive: true });
      const temporary = `${target}.${randomBytes(6).toString('hex')}.part`;
      try {
        await pipeline(toReadable(body), createWriteStream(temporary, { flags: 'wx' }));
        await rename(temporary, target);
      } catch (err) {
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
      if (!isStoragePrefix(prefix)) throw new BadStorageKey(prefix);
      const cut = prefix.lastIndexOf('/');
      const folder = cut < 0 ? root : join(root, ...prefix.slice(0, cut).split('/'));
      let entries: string[];
      try {
        entries = (await readdir(folder, { recursive: true, withFileTypes: true })).filter((e) => e.isFile() && !e.name.endsWith('.part')).map((e) => join(e.parentPath, e.name));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
        throw err;
      }
      for (const file of entries) {
        const key = relative(root, file).split(sep).join('/');
        if (key.startsWith(prefix)) yield key;
      }
    },
  };
}
