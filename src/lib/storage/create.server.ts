/** The storage the configuration names: the local folder, or an S3-compatible bucket. */
import { ConfigError, type StorageSettings } from '../config/config';
import { storageFailure } from '../config/error';
import { createLocalStorage } from './local.server';
import { BadStorageKey, type Storage } from './storage';

/** Builds the configured storage. The S3 SDK (several MB of code) is loaded only when a bucket is configured. */
export async function createStorage(settings: StorageSettings): Promise<Storage> {
  if (settings.kind === 'local') return createLocalStorage(settings.dir);
  const { createS3Storage } = await import('./s3.server');
  return createS3Storage(settings.s3);
}

/** Where the storage keeps its files, in words for a log line or a message (never a secret). */
export function storagePlace(settings: StorageSettings): string {
  if (settings.kind === 'local') return `the folder ${settings.dir}`;
  return `the bucket ${settings.s3.bucket}${settings.s3.endpoint ? ` at ${settings.s3.endpoint}` : ''}`;
}

/**
 * The sentence for a configured storage that cannot be used (what failed, where, what to set), or `null`
 * when `err` says nothing of the kind (a bug is thrown as it is).
 */
export function storageUnusable(err: unknown, settings: StorageSettings): ConfigError | null {
  if (err instanceof BadStorageKey) return null;
  if (settings.kind === 'local') {
    const code = storageFailure(err);
    if (!code) return null;
    return new ConfigError(`The folder of stored files ${settings.dir} cannot be used (${code}): set STORAGE_DIR to a writable folder on a disk with room, or fix its permissions.`);
  }
  const e = err as { name?: unknown; message?: unknown; $metadata?: { httpStatusCode?: number } } | null;
  const status = e?.$metadata?.httpStatusCode;
  const what = [typeof e?.name === 'string' && e.name !== 'Error' ? e.name : null, status ? `HTTP ${status}` : null, e?.message && typeof e.message === 'string' ? e.message : null].filter(Boolean).join(', ');
  return new ConfigError(
    `${storagePlace(settings)[0]!.toUpperCase()}${storagePlace(settings).slice(1)} cannot be used (${what.slice(0, 200) || 'no answer'}): check S3_ENDPOINT, S3_BUCKET (the bucket must exist), S3_REGION, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or unset STORAGE to keep stored files in a folder.`,
  );
}
