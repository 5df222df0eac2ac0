/**
 * An S3-compatible object store in this process for tests (s3rver): a random port on 127.0.0.1, a
 * temporary folder, one bucket; started by the test file and stopped after it. s3rver lacks two calls of
 * multipart uploads every S3-compatible store has and resumable uploads use (ListParts: which parts a
 * store holds; AbortMultipartUpload): they are answered here from s3rver's own folder of parts. And it
 * reads a range ending at byte 0 (`bytes=0-0`) as one without an end: that answer is cut to the range, as S3's.
 */
import { createReadStream } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The part of a Koa context the added calls read and answer. */
interface Exchange {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  length: number;
  set(field: string, value: string): void;
  response: { get(field: string): string };
  query: Record<string, string | string[] | undefined>;
  status: number;
  type: string;
  body: unknown;
}
interface S3rverServer {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  httpServer?: Server;
  middleware: ((ctx: Exchange, next: () => Promise<void>) => Promise<void>)[];
  store: { getResourcePath(bucket: string, key: string | undefined, resource: string): string };
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverServer;

/** A running s3rver: the environment variables that point the academy at it, and how to stop it. */
export interface TestObjectStore {
  /** `STORAGE=s3` and the `S3_*` variables of the store (s3rver's fixed keys). */
  env: Record<string, string>;
  endpoint: string;
  bucket: string;
  stop(): Promise<void>;
}

/** Starts s3rver with the bucket `bucket`; throws with the reason when it cannot start. */
export async function startObjectStore(bucket = 'academy'): Promise<TestObjectStore> {
  const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass;
  const directory = await mkdtemp(join(tmpdir(), 'academy-s3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, vhostBuckets: false, configureBuckets: [{ name: bucket }] });
  server.middleware.unshift(multipartCalls(server), firstByteRange(server));
  let address: AddressInfo;
  try {
    address = await server.run();
  } catch (err) {
    await rm(directory, { recursive: true, force: true });
    throw err;
  }
  const endpoint = `http://127.0.0.1:${address.port}`;
  return {
    endpoint,
    bucket,
    env: { STORAGE: 's3', S3_BUCKET: bucket, S3_ENDPOINT: endpoint, S3_REGION: 'us-east-1', S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER', S3_FORCE_PATH_STYLE: '1' },
    async stop() {
      // Clients keep their connections open: closed here so the server can stop at once.
      server.httpServer?.closeAllConnections();
      await server.close().catch(() => undefined);
      await rm(directory, { recursive: true, force: true });
    },
  };
}

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** ListParts (`GET /bucket/key?uploadId=…`) and AbortMultipartUpload (`DELETE /bucket/key?uploadId=…`) over s3rver's folder of parts. */
function multipartCalls(server: S3rverServer) {
  return async (ctx: Exchange, next: () => Promise<void>) => {
    const at = /^\/([^/]+)\/(.+)$/.exec(ctx.path);
    const uploadId = ctx.query.uploadId;
    if (!at || typeof uploadId !== 'string' || 'partNumber' in ctx.query || (ctx.method !== 'GET' && ctx.method !== 'DELETE')) return next();
    const folder = /^[0-9a-f]+$/.test(uploadId) ? join(server.store.getResourcePath(at[1]!, undefined, 'uploads'), uploadId) : null;
    const names = folder ? await readdir(folder).catch(() => null) : null;
    ctx.type = 'application/xml';
    if (!folder || !names) {
      ctx.status = 404;
      ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>NoSuchUpload</Code><Message>The specified upload does not exist.</Message><UploadId>${xml(uploadId)}</UploadId></Error>`;
      return;
    }
    if (ctx.method === 'DELETE') {
      await rm(folder, { recursive: true, force: true });
      ctx.status = 204;
      ctx.body = null;
      return;
    }
    const parts: string[] = [];
    for (const n of names.filter((name) => /^\d+$/.test(name)).map(Number).sort((a, b) => a - b)) {
      const file = join(folder, String(n));
      const [facts, md5] = await Promise.all([stat(file), readFile(`${file}.md5`, 'utf8').catch(() => '')]);
      parts.push(`<Part><PartNumber>${n}</PartNumber><LastModified>${facts.mtime.toISOString()}</LastModified><ETag>&quot;${xml(md5)}&quot;</ETag><Size>${facts.size}</Size></Part>`);
    }
    ctx.status = 200;
    ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n<ListPartsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Bucket>${xml(at[1]!)}</Bucket><Key>${xml(decodeURIComponent(at[2]!))}</Key><UploadId>${uploadId}</UploadId><IsTruncated>false</IsTruncated>${parts.join('')}</ListPartsResult>`;
  };
}

/** A GET of `bytes=0-0`: s3rver answers the whole object under a range header saying so; cut to the first byte. */
function firstByteRange(server: S3rverServer) {
  return async (ctx: Exchange, next: () => Promise<void>) => {
    const at = /^\/([^/]+)\/(.+)$/.exec(ctx.path);
    if (!at || ctx.method !== 'GET' || !/^bytes=0+-0+$/.test(String(ctx.headers.range ?? ''))) return next();
    await next();
    const size = /\/(\d+)$/.exec(ctx.response.get('Content-Range'))?.[1];
    if (ctx.status !== 206 || size === undefined) return;
    (ctx.body as { destroy?: () => void } | null)?.destroy?.();
    ctx.body = createReadStream(server.store.getResourcePath(at[1]!, decodeURIComponent(at[2]!), 'object'), { start: 0, end: 0 });
    ctx.set('Content-Range', `bytes 0-0/${size}`);
    ctx.length = 1;
  };
}
