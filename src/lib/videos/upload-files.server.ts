/**
 * Where the bytes of a video upload live while tus receives them, and until its video is ready:
 *
 * - stored files in a folder: the data folder (`<DATA_DIR>/uploads`, `@tus/file-store`);
 * - stored files in an S3-compatible bucket: the same bucket under `uploads/` (`@tus/s3-store`, one
 *   multipart upload per tus upload), so any machine behind a balancer resumes an upload another one
 *   started, and any worker converts it.
 *
 * ffprobe and ffmpeg read a local file: from the bucket, the finished upload is streamed into a scratch
 * file of the data folder first (never held in memory), and the scratch file is removed when they are done.
 */
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileStore } from '@tus/file-store';
import { S3Store } from '@tus/s3-store';
import { DataStore, Upload } from '@tus/server';
import type { AppConfig } from '../config/config';
import { s3ClientConfig } from '../storage/s3.server';
import type { Storage } from '../storage/storage';

/** The prefix of uploads in the bucket (`uploads/<id>`, tus's `uploads/<id>.info` and `uploads/<id>.part` beside it). */
export const UPLOADS_PREFIX = 'uploads/';

/** The folder of unfinished and finished uploads kept on this machine (tus offsets and metadata beside each file). */
export const uploadsDir = (dataDir: string) => join(dataDir, 'uploads');
/** The uploaded file of `uploadId` kept on this machine. */
export const uploadFile = (dataDir: string, uploadId: string) => join(uploadsDir(dataDir), uploadId);
/** The folder of scratch copies of uploads fetched from the bucket. */
export const scratchDir = (dataDir: string) => join(dataDir, 'scratch');

/** The size of the parts tus sends to the bucket (S3's least is 5 MiB). */
const PART_BYTES = 8 * 1024 * 1024;

/** A copy of `upload` known by `id`. */
function renamed(upload: Upload, id: string): Upload {
  const { size, metadata, creation_date, storage } = upload;
  return new Upload({ id, offset: upload.offset, ...(size !== undefined ? { size } : {}), ...(metadata ? { metadata } : {}), ...(creation_date ? { creation_date } : {}), ...(storage ? { storage } : {}) });
}

/**
 * A data store whose uploads live under `prefix` in another store: tus and the academy know an upload by
 * its id (`<32 hex>`, in the address and the `videos` row); the bucket holds it at `prefix + id`.
 */
class PrefixedStore extends DataStore {
  constructor(
    private readonly inner: DataStore,
    private readonly prefix: string,
  ) {
    super();
    this.extensions = inner.extensions;
  }
  override async create(upload: Upload): Promise<Upload> {
    const made = await this.inner.create(renamed(upload, this.prefix + upload.id));
    upload.storage = made.storage;
    upload.creation_date = made.creation_date;
    return upload;
  }
  override remove(id: string): Promise<void> {
    return this.inner.remove(this.prefix + id);
  }
  override write(stream: Readable, id: string, offset: number): Promise<number> {
    return this.inner.write(stream, this.prefix + id, offset);
  }
  override async getUpload(id: string): Promise<Upload> {
    return renamed(await this.inner.getUpload(this.prefix + id), id);
  }
  override declareUploadLength(id: string, length: number): Promise<void> {
    return this.inner.declareUploadLength(this.prefix + id, length);
  }
  read(id: string): Promise<Readable> {
    return (this.inner as unknown as { read(id: string): Promise<Readable> }).read(this.prefix + id);
  }
  override deleteExpired(): Promise<number> {
    return this.inner.deleteExpired();
  }
  override getExpiration(): number {
    return this.inner.getExpiration();
  }
}

/** Where tus keeps unfinished uploads: the data folder, or the configured bucket under `uploads/`. */
export function uploadDataStore(config: Pick<AppConfig, 'dataDir' | 'storage'>): DataStore {
  if (config.storage.kind === 'local') return new FileStore({ directory: uploadsDir(config.dataDir) });
  const { bucket } = config.storage.s3;
  return new PrefixedStore(new S3Store({ partSize: PART_BYTES, s3ClientConfig: { ...s3ClientConfig(config.storage.s3), bucket } }), UPLOADS_PREFIX);
}

/** The finished uploads, as probing and converting read them and remove them. */
export interface UploadedFiles {
  /**
   * Runs `use` with a local file holding the finished upload's bytes: the upload itself in the data
   * folder, or a copy streamed from the bucket into the scratch folder (`<id>.<purpose>`: one reader per
   * purpose, a retry overwrites what a crash left), removed when `use` ends, also on a failure.
   * `{ found: false }` when there is no such upload.
   */
  withLocalFile<T>(uploadId: string, purpose: string, use: (file: string) => Promise<T>): Promise<{ found: true; value: T } | { found: false }>;
  /** Removes an upload's bytes and tus's bookkeeping of it (removing one that is gone is not an error). */
  remove(uploadId: string): Promise<void>;
  /** The ids of the uploads kept now, finished or not (for sweeping those whose video is ready). */
  ids(): Promise<string[]>;
  /** Puts the local file `from` where a finished upload `uploadId` lies, whole or not at all (the shipped demo clips). */
  place(uploadId: string, from: string): Promise<void>;
  /** Whether the upload `uploadId` has its bytes here. */
  has(uploadId: string): Promise<boolean>;
}

/** An upload's id from a file or object name beside it (`<id>`, `<id>.json`, `<id>.info`, `<id>.part`), or null. */
const idOf = (name: string) => /^([0-9a-f]{32})(?:\.(?:json|info|part))?$/.exec(name)?.[1] ?? null;
const distinctIds = (names: Iterable<string>) => [...new Set([...names].flatMap((n) => idOf(n) ?? []))];

/** The finished uploads beside `storage`: in the bucket when it is one, else in the data folder. */
export function uploadedFiles(storage: Storage, dataDir: string): UploadedFiles {
  if (storage.kind === 'local') {
    return {
      async withLocalFile(uploadId, _purpose, use) {
        const file = uploadFile(dataDir, uploadId);
        if (!existsSync(file)) return { found: false };
        return { found: true, value: await use(file) };
      },
      async remove(uploadId) {
        await rm(uploadFile(dataDir, uploadId), { force: true });
        await rm(`${uploadFile(dataDir, uploadId)}.json`, { force: true });
      },
      async ids() {
        return distinctIds(await readdir(uploadsDir(dataDir)).catch(() => [] as string[]));
      },
      async place(uploadId, from) {
        await mkdir(uploadsDir(dataDir), { recursive: true });
        const target = uploadFile(dataDir, uploadId);
        await copyFile(from, `${target}.part`);
        await rename(`${target}.part`, target);
      },
      async has(uploadId) {
        return existsSync(uploadFile(dataDir, uploadId));
      },
    };
  }
  const key = (uploadId: string) => UPLOADS_PREFIX + uploadId;
  return {
    async withLocalFile(uploadId, purpose, use) {
      const scratch = join(scratchDir(dataDir), `${uploadId}.${purpose.replace(/[^A-Za-z0-9-]/g, '-')}`);
      await rm(scratch, { force: true });
      try {
        const object = await storage.get(key(uploadId));
        if (!object) return { found: false };
        await mkdir(scratchDir(dataDir), { recursive: true });
        await pipeline(object.body, createWriteStream(scratch, { flags: 'wx' }));
        return { found: true, value: await use(scratch) };
      } finally {
        await rm(scratch, { force: true });
      }
    },
    async remove(uploadId) {
      for (const suffix of ['', '.info', '.part']) await storage.delete(key(uploadId) + suffix);
    },
    async place(uploadId, from) {
      await storage.put(key(uploadId), createReadStream(from));
    },
    async has(uploadId) {
      return (await storage.stat(key(uploadId))) !== null;
    },
    async ids() {
      const names: string[] = [];
      for await (const key of storage.list(UPLOADS_PREFIX)) names.push(key.slice(UPLOADS_PREFIX.length));
      return distinctIds(names);
    },
  };
}
