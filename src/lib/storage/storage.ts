/**
 * The one storage interface every stored file goes through (uploaded videos and their renditions,
 * captions, documents, thumbnails, covers, photos, data exports): the local folder by default, an
 * S3-compatible object store when configured. Pure: the shape, and the rule for keys.
 *
 * A key is a relative path of lowercase-safe segments (`videos/12/720p/seg-003.ts`): never absolute, no
 * `..`, no empty segment, no backslash, no control character. Keys are made by the code, never taken
 * from a file name a person typed, so a key that breaks the rule is a bug and is refused as such.
 */

/** A byte range, both ends included (as HTTP's `Range: bytes=start-end`). */
export interface ByteRange {
  start: number;
  end: number;
}

/** What is known of a stored object. */
export interface StoredObject {
  key: string;
  sizeBytes: number;
  contentType: string | null;
  /** When the object was last written (ms since 1970), for validators such as HTTP's ETag; absent when the store does not say. */
  modifiedMs?: number;
}

/** Where the bytes of stored files live. */
export interface Storage {
  /** `local` or `s3`: for the log and the health page. */
  readonly kind: 'local' | 's3';
  /** Writes an object whole (replacing one with the same key); a reader never sees half of it. */
  put(key: string, body: Uint8Array | AsyncIterable<Uint8Array> | NodeJS.ReadableStream, options?: { contentType?: string }): Promise<StoredObject>;
  /** The object's bytes (a range of them when asked), or null when there is no such object. */
  get(key: string, range?: ByteRange): Promise<{ body: NodeJS.ReadableStream; object: StoredObject } | null>;
  /** What is known of an object, or null when there is none. */
  stat(key: string): Promise<StoredObject | null>;
  /** Removes an object; removing one that is not there is not an error. */
  delete(key: string): Promise<void>;
  /** The keys under a prefix (`videos/12/`), in no promised order. */
  list(prefix: string): AsyncIterable<string>;
  /** Lets go of connections (an object store's sockets); the storage is not used afterwards. */
  close?(): Promise<void>;
  /**
   * Removes what writes killed mid-way (`kill -9`) left under a prefix, written to last more than
   * `olderThanMs` before `now`: the folder's temporary files. (An object store never shows half an
   * object under a key; its unfinished multipart uploads are ended by the bucket's lifecycle rule.)
   */
  sweepUnfinished?(prefix: string, olderThanMs: number, now?: number): Promise<number>;
}

/** A key that breaks the rule above: a bug in the caller, never a person's input. */
export class BadStorageKey extends Error {
  constructor(key: string) {
    super(`not a storage key: ${JSON.stringify(key.slice(0, 200))}`);
    this.name = 'BadStorageKey';
  }
}

const SEGMENT = /^[A-Za-z0-9._-]+$/;

/** Whether `key` is a well-formed storage key. */
export function isStorageKey(key: string): boolean {
  if (typeof key !== 'string' || key.length === 0 || key.length > 512) return false;
  return key.split('/').every((s) => s !== '.' && s !== '..' && SEGMENT.test(s));
}

/** `key`, or throws `BadStorageKey`. */
export function checkedKey(key: string): string {
  if (!isStorageKey(key)) throw new BadStorageKey(key);
  return key;
}

/** Whether `prefix` is a well-formed prefix (a key, optionally ending in `/`, or empty for everything). */
export function isStoragePrefix(prefix: string): boolean {
  return prefix === '' || isStorageKey(prefix.endsWith('/') ? prefix.slice(0, -1) : prefix);
}

/** Content types by extension (a folder keeps no metadata beside the bytes). */
const TYPES: Record<string, string> = {
  mp4: 'video/mp4',
  webm: 'video/webm',
  m3u8: 'application/vnd.apple.mpegurl',
  ts: 'video/mp2t',
  m4s: 'video/iso.segment',
  vtt: 'text/vtt',
  pdf: 'application/pdf',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  avif: 'image/avif',
  json: 'application/json',
  zip: 'application/zip',
};

/** The content type a key's extension names, or `null`. */
export function contentTypeOfKey(key: string): string | null {
  const dot = key.lastIndexOf('.');
  return dot < 0 ? null : (TYPES[key.slice(dot + 1).toLowerCase()] ?? null);
}
