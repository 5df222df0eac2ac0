/** The storage the configuration names: the local folder, or an S3-compatible bucket. */
import type { StorageSettings } from '../config/config';
import { createLocalStorage } from './local.server';
import type { Storage } from './storage';

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
