/**
 * Where stored files live: the readers of `STORAGE`, `STORAGE_DIR` and the `S3_*` variables, and the
 * rule that combines them. Pure; `config.ts` applies them. Secrets (the access keys) are never quoted.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, quoted } from './error';

/** How to reach an S3-compatible object store (AWS S3, MinIO, Ceph, R2, s3rver…). */
export interface S3Settings {
  bucket: string;
  /** `S3_ENDPOINT`: the store's address (`http://minio:9000`); `null` is AWS S3 itself. */
  endpoint: string | null;
  region: string;
  /** Both `null`: the AWS SDK's own credentials (an instance role, `~/.aws`). Never logged. */
  accessKeyId: string | null;
  secretAccessKey: string | null;
  /** Addresses like `endpoint/bucket/key` instead of `bucket.endpoint/key` (MinIO and s3rver need it). */
  forcePathStyle: boolean;
}

/** Where stored files live: a folder of this machine (default), or an S3-compatible bucket. */
export type StorageSettings = { kind: 'local'; dir: string } | { kind: 's3'; s3: S3Settings };

/** A value that is unset or blank. */
const blank = (raw: string | undefined): raw is undefined => raw === undefined || raw.trim() === '';

/** Reads `STORAGE`: `local` (default) or `s3`. */
export function readStorageKind(raw: string | undefined): 'local' | 's3' {
  const text = raw?.trim().toLowerCase() ?? '';
  if (text === '' || text === 'local') return 'local';
  if (text === 's3') return 's3';
  throw new ConfigError(`STORAGE ${quoted(raw)} is not a kind of storage: use local (files in the folder STORAGE_DIR, the default) or s3 (an S3-compatible object store), or unset it.`);
}

/** Reads `STORAGE_DIR`: the folder of stored files, or `null` for `<DATA_DIR>/files`. */
export function readStorageDir(raw: string | undefined): string | null {
  if (blank(raw)) return null;
  if (/[\0\r\n]/.test(raw)) throw new ConfigError('STORAGE_DIR is not a folder name: give the folder stored files are kept in, or unset it to use DATA_DIR/files.');
  return raw.trim();
}

/** S3's rule for bucket names (3–63 lowercase letters, digits, dots and hyphens, starting and ending with a letter or digit). */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** Reads `S3_BUCKET`, or `null`. */
export function readS3Bucket(raw: string | undefined): string | null {
  if (blank(raw)) return null;
  const text = raw.trim();
  if (!BUCKET.test(text) || text.includes('..')) {
    throw new ConfigError(`S3_BUCKET ${quoted(text)} is not a bucket name: use 3 to 63 lowercase letters, digits, dots or hyphens (for example academy-media), as the bucket was created.`);
  }
  return text;
}

/** Reads `S3_ENDPOINT`: the store's http(s) address, or `null` for AWS S3. */
export function readS3Endpoint(raw: string | undefined): string | null {
  if (blank(raw)) return null;
  const text = raw.trim();
  const url = URL.canParse(text) ? new URL(text) : null;
  if (!url || !['http:', 'https:'].includes(url.protocol) || url.hostname === '' || url.username || url.password || url.search || url.hash) {
    throw new ConfigError(`S3_ENDPOINT ${quoted(text)} is not a store's address: use its URL, like http://127.0.0.1:9000 for MinIO, or unset it for AWS S3.`);
  }
  return url.href.replace(/\/$/, '');
}

/** Reads `S3_REGION` (default `us-east-1`; MinIO and s3rver accept any). */
export function readS3Region(raw: string | undefined): string {
  if (blank(raw)) return 'us-east-1';
  const text = raw.trim();
  if (!/^[a-z0-9-]{2,32}$/.test(text)) throw new ConfigError(`S3_REGION ${quoted(text)} is not a region name: use the bucket's region, like eu-west-1 (default us-east-1).`);
  return text;
}

/** Reads an access key or its secret (visible characters, no spaces), or `null`. Never quoted. */
export function readS3Secret(name: 'S3_ACCESS_KEY_ID' | 'S3_SECRET_ACCESS_KEY') {
  return (raw: string | undefined): string | null => {
    if (blank(raw)) return null;
    if (!/^[\x21-\x7e]{1,256}$/.test(raw.trim())) throw new ConfigError(`${name} is not a key: copy it from the store's console (letters, digits and symbols, no spaces), or unset it.`);
    return raw.trim();
  };
}

/** Reads `S3_FORCE_PATH_STYLE` (yes or no), or `null`: yes when `S3_ENDPOINT` is set, no for AWS S3. */
export function readS3ForcePathStyle(raw: string | undefined): boolean | null {
  const text = raw?.trim().toLowerCase() ?? '';
  if (text === '') return null;
  if (['1', 'true', 'yes', 'on'].includes(text)) return true;
  if (['0', 'false', 'no', 'off'].includes(text)) return false;
  throw new ConfigError(`S3_FORCE_PATH_STYLE ${quoted(raw)} is not a yes or no: set it to 1 for stores addressed as endpoint/bucket (MinIO, s3rver), 0 for bucket.endpoint, or unset it.`);
}

/** The storage variables, as their readers returned them. */
export interface StorageVariables {
  kind: 'local' | 's3';
  dir: string | null;
  bucket: string | null;
  endpoint: string | null;
  region: string;
  accessKeyId: string | null;
  secretAccessKey: string | null;
  forcePathStyle: boolean | null;
}

/** The folder stored files live in when nothing says otherwise: `<DATA_DIR>/files` (a throwaway folder for an in-memory database). */
export function defaultStorageDir(dataDir: string): string {
  return dataDir === 'memory://' ? join(tmpdir(), 'academy-memory-files') : join(dataDir, 'files');
}

/** Combines the storage variables into the settings, or the sentences saying what to fix. */
export function storageSettings(v: StorageVariables, dataDir: string): { settings: StorageSettings } | { problems: string[] } {
  const dir = v.dir ?? defaultStorageDir(dataDir);
  const problems: string[] = [];
  if (v.accessKeyId !== null && v.secretAccessKey === null) {
    problems.push('S3_ACCESS_KEY_ID is set without S3_SECRET_ACCESS_KEY: set both (the store’s access key and its secret), or neither to use the AWS SDK’s own credentials (an instance role, ~/.aws).');
  }
  if (v.secretAccessKey !== null && v.accessKeyId === null) {
    problems.push('S3_SECRET_ACCESS_KEY is set without S3_ACCESS_KEY_ID: set both (the store’s access key and its secret), or neither to use the AWS SDK’s own credentials (an instance role, ~/.aws).');
  }
  if (v.kind === 'local') {
    const s3Set = ([['S3_BUCKET', v.bucket], ['S3_ENDPOINT', v.endpoint]] as const).filter(([, value]) => value !== null).map(([name]) => name);
    if (s3Set.length > 0) {
      problems.push(`${s3Set.join(' and ')} ${s3Set.length > 1 ? 'are' : 'is'} set but STORAGE is not s3: set STORAGE=s3 to keep stored files in the bucket, or unset ${s3Set.join(' and ')} to keep them in the folder ${dir}.`);
    }
    return problems.length > 0 ? { problems } : { settings: { kind: 'local', dir } };
  }
  if (v.bucket === null) {
    problems.unshift(
      `STORAGE=s3 needs S3_BUCKET: set S3_BUCKET to the bucket's name (and S3_ENDPOINT, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY for a store other than AWS S3, such as MinIO), or unset STORAGE to keep stored files in the folder ${dir}.`,
    );
  }
  if (problems.length > 0 || v.bucket === null) return { problems };
  return {
    settings: {
      kind: 's3',
      s3: {
        bucket: v.bucket,
        endpoint: v.endpoint,
        region: v.region,
        accessKeyId: v.accessKeyId,
        secretAccessKey: v.secretAccessKey,
        forcePathStyle: v.forcePathStyle ?? v.endpoint !== null,
      },
    },
  };
}
