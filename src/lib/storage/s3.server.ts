/**
 * Stored files in an S3-compatible object store (AWS S3, MinIO, Ceph, R2, s3rver), so several machines
 * serve the same files. Nothing is public: the bucket is only read through this module, behind the
 * academy's access checks (no public or presigned URLs are made).
 *
 * A body is streamed in, never held whole: up to one part (5 MiB by default) is kept in memory. A body
 * that fits in one part is sent with one PutObject; a larger one as a multipart upload
 * (CreateMultipartUpload, UploadPart…, CompleteMultipartUpload), which the store makes visible only when
 * completed, and which is aborted when the body or the store fails, so no half object is ever seen.
 */
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
  type CompletedPart,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Readable } from 'node:stream';
import type { S3Settings } from '../config/config';
import { checkedKey, contentTypeOfKey, isStorageKey, isStoragePrefix, BadStorageKey, type ByteRange, type Storage, type StoredObject } from './storage';

/** S3's smallest part (but the last) of a multipart upload. */
export const MIN_PART_BYTES = 5 * 1024 * 1024;

/** The default part size: the smallest, so an upload holds at most 5 MiB of memory at a time. */
export const DEFAULT_PART_BYTES = MIN_PART_BYTES;

export interface S3StorageOptions {
  /** Bytes per part of a multipart upload, and the largest body sent with one PutObject (default and least 5 MiB). */
  partSizeBytes?: number;
}

/**
 * A failure of the store that means "there is no such object". A HEAD answer has no body, so its 404
 * cannot tell a missing key from a missing bucket; a GET's names which (`NoSuchBucket` is thrown).
 */
function isMissing(err: unknown, head = false): boolean {
  const e = err as { name?: unknown; Code?: unknown; $metadata?: { httpStatusCode?: number } } | null;
  if (e?.name === 'NoSuchKey' || e?.Code === 'NoSuchKey') return true;
  return head && (e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404);
}

/** A ranged GET that starts past the object's end (HTTP 416). */
function isPastEnd(err: unknown): boolean {
  const e = err as { name?: unknown; Code?: unknown; $metadata?: { httpStatusCode?: number } } | null;
  return e?.name === 'InvalidRange' || e?.Code === 'InvalidRange' || e?.$metadata?.httpStatusCode === 416;
}

/** The whole object's size from a `Content-Range: bytes a-b/size` answer. */
function totalOf(contentRange: string | undefined): number | null {
  const m = /\/(\d+)\s*$/.exec(contentRange ?? '');
  return m ? Number(m[1]) : null;
}

function chunkOf(chunk: unknown): Uint8Array {
  if (chunk instanceof Uint8Array) return chunk;
  if (typeof chunk === 'string') return Buffer.from(chunk);
  throw new TypeError('a stored body must be bytes');
}

/** The body's bytes, in pieces of at least `size` bytes (the last one smaller, possibly empty). */
async function* parts(body: Uint8Array | AsyncIterable<Uint8Array> | NodeJS.ReadableStream, size: number): AsyncGenerator<Buffer> {
  if (body instanceof Uint8Array) {
    yield Buffer.from(body.buffer, body.byteOffset, body.byteLength);
    return;
  }
  let held: Uint8Array[] = [];
  let heldBytes = 0;
  for await (const raw of body as AsyncIterable<unknown>) {
    const chunk = chunkOf(raw);
    held.push(chunk);
    heldBytes += chunk.byteLength;
    if (heldBytes >= size) {
      yield Buffer.concat(held);
      held = [];
      heldBytes = 0;
    }
  }
  yield Buffer.concat(held);
}

/** The S3 client settings of `settings`, speaking only what every S3-compatible store understands (no trailing checksums). */
export function s3ClientConfig(settings: S3Settings): S3ClientConfig {
  return {
    region: settings.region,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    forcePathStyle: settings.forcePathStyle,
    ...(settings.accessKeyId && settings.secretAccessKey ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } } : {}),
    // Newer SDKs add CRC checksums to every upload (aws-chunked bodies with trailers), which many
    // S3-compatible stores refuse; they are sent only where S3 requires them.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 3,
  };
}

/** The S3 client of `settings` (`s3ClientConfig`). */
export function s3Client(settings: S3Settings): S3Client {
  return new S3Client(s3ClientConfig(settings));
}

/** The storage of the bucket `settings.bucket`. */
export function createS3Storage(settings: S3Settings, options: S3StorageOptions = {}): Storage {
  const client = s3Client(settings);
  const Bucket = settings.bucket;
  const partSize = Math.max(MIN_PART_BYTES, options.partSizeBytes ?? DEFAULT_PART_BYTES);

  async function stat(key: string): Promise<StoredObject | null> {
    checkedKey(key);
    try {
      const head = await client.send(new HeadObjectCommand({ Bucket, Key: key }));
      return { key, sizeBytes: head.ContentLength ?? 0, contentType: head.ContentType ?? contentTypeOfKey(key), ...(head.LastModified ? { modifiedMs: head.LastModified.getTime() } : {}) };
    } catch (err) {
      if (isMissing(err, true)) return null;
      throw err;
    }
  }

  /** Sends the parts after `first` as a multipart upload; aborts it (nothing visible) on any failure. */
  async function multipart(key: string, contentType: string | undefined, first: Buffer, rest: AsyncGenerator<Buffer>): Promise<number> {
    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket, Key: key, ContentType: contentType }));
    if (!UploadId) throw new Error('the object store started no multipart upload');
    try {
      const done: CompletedPart[] = [];
      let sizeBytes = 0;
      let part: Buffer | undefined = first;
      while (part !== undefined) {
        // An empty last piece (the body ended exactly at a part's end) is no part.
        if (part.byteLength > 0 || done.length === 0) {
          const PartNumber = done.length + 1;
          const { ETag } = await client.send(new UploadPartCommand({ Bucket, Key: key, UploadId, PartNumber, Body: part, ContentLength: part.byteLength }));
          done.push({ ETag, PartNumber });
          sizeBytes += part.byteLength;
        }
        const next = await rest.next();
        part = next.done ? undefined : next.value;
      }
      await client.send(new CompleteMultipartUploadCommand({ Bucket, Key: key, UploadId, MultipartUpload: { Parts: done } }));
      return sizeBytes;
    } catch (err) {
      // The body is let go of (a stream still flowing is destroyed), and the parts sent are dropped.
      await rest.return(undefined).catch(() => undefined);
      await client.send(new AbortMultipartUploadCommand({ Bucket, Key: key, UploadId })).catch(() => undefined);
      throw err;
    }
  }

  return {
    kind: 's3',
    async put(key, body, putOptions) {
      checkedKey(key);
      const contentType = putOptions?.contentType ?? contentTypeOfKey(key) ?? undefined;
      const pieces = parts(body, partSize);
      const first = (await pieces.next()).value ?? Buffer.alloc(0);
      const second = await pieces.next();
      if (second.done) {
        // One piece: the whole body is here, sent at once (the store writes it whole or not at all).
        await client.send(new PutObjectCommand({ Bucket, Key: key, Body: first, ContentLength: first.byteLength, ContentType: contentType }));
      } else {
        await multipart(key, contentType, first, (async function* () {
          yield second.value;
          yield* pieces;
        })());
      }
      const written = await stat(key);
      if (!written) throw new Error(`the object store lost ${key} just after writing it`);
      return written;
    },
    async get(key, range?: ByteRange) {
      checkedKey(key);
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket, Key: key, ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }));
        const sizeBytes = (range ? totalOf(answer.ContentRange) : null) ?? answer.ContentLength ?? 0;
        const object: StoredObject = { key, sizeBytes, contentType: answer.ContentType ?? contentTypeOfKey(key), ...(answer.LastModified ? { modifiedMs: answer.LastModified.getTime() } : {}) };
        return { body: answer.Body as NodeJS.ReadableStream, object };
      } catch (err) {
        if (isMissing(err)) return null;
        if (range && isPastEnd(err)) {
          // Nothing of the object lies in the range (as a file read past its end): no bytes.
          const object = await stat(key);
          return object ? { body: Readable.from([]), object } : null;
        }
        throw err;
      }
    },
    stat,
    async delete(key) {
      checkedKey(key);
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
    async *list(prefix) {
      if (!isStoragePrefix(prefix)) throw new BadStorageKey(prefix);
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken }));
        // Objects others put in the bucket under names that are no storage keys are not the academy's.
        for (const o of page.Contents ?? []) if (o.Key !== undefined && isStorageKey(o.Key)) yield o.Key;
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },
    async close() {
      client.destroy();
    },
  };
}
