/**
 * An S3-compatible object store in this process for tests (s3rver): a random port on 127.0.0.1, a
 * temporary folder, one bucket; started by the test file and stopped after it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface S3rverServer {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  httpServer?: Server;
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
