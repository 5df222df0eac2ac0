/**
 * Brings the lesson media shipped in a folder (`MEDIA_DIR`: the repository's demo videos, captions and
 * documents) into the storage, under the storage keys the database gives them, so the media route
 * serves them from the local folder and from an object store alike. Run when the database is prepared
 * (every start, `npm run db:seed`); idempotent: a file already stored with its size is left alone, so a
 * start after the first only asks the storage what it has.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Db } from '../db/client';
import { mediaFiles } from '../db/schema';
import { isStorageKey, type Storage } from '../storage';
import { resolveUnder } from './media';

/** What stocking did: files copied, files the storage already had, and keys the folder has no file for (uploads). */
export interface StockReport {
  copied: number;
  present: number;
  notInFolder: number;
}

/** Questions to the storage at once (an object store answers each over the network). */
const AT_ONCE = 8;

/**
 * Copies every media file the database names that `mediaDir` holds into `storage`, unless the storage
 * already has an object of the same size under that key. A copy is written whole or not at all.
 */
export async function stockMedia(db: Db, storage: Storage, mediaDir: string): Promise<StockReport> {
  const rows = await db.select({ key: mediaFiles.storageKey, mimeType: mediaFiles.mimeType }).from(mediaFiles);
  const report: StockReport = { copied: 0, present: 0, notInFolder: 0 };
  const one = async ({ key, mimeType }: { key: string; mimeType: string }) => {
    const path = isStorageKey(key) ? resolveUnder(mediaDir, key) : null;
    const file = path ? await stat(path).catch(() => null) : null;
    if (!path || !file?.isFile()) {
      report.notInFolder += 1;
      return;
    }
    const stored = await storage.stat(key);
    if (stored?.sizeBytes === file.size) {
      report.present += 1;
      return;
    }
    await storage.put(key, createReadStream(path), { contentType: mimeType });
    report.copied += 1;
  };
  for (let i = 0; i < rows.length; i += AT_ONCE) await Promise.all(rows.slice(i, i + AT_ONCE).map(one));
  return report;
}
