/**
 * The storage's part of preparing the academy at start (and in `npm run db:*`): the configured storage
 * is checked usable, the lesson media of `MEDIA_DIR` reach it, files an older data folder kept outside
 * it (profile photos, "My data" archives) are moved into it, and the demo clips are queued for the video
 * worker's conversion (once: `queueDemoVideos`).
 */
import type { Db } from '../db/client';
import type { AppConfig } from '../config/config';
import { movePhotosIntoStorage } from '../identity/photo.server';
import { stockMedia } from '../media/stock.server';
import { moveExportsIntoStorage } from '../privacy/export.server';
import { queueDemoVideos } from '../videos/demo.server';
import { createStorage, storagePlace, storageUnusable } from '../storage/create.server';

/**
 * Stocks the configured storage from `mediaDir` (see `stockMedia`), and moves into it the profile
 * photos and "My data" archives the data folder kept before the storage existed. A storage that cannot
 * be used (a bucket that does not exist, wrong keys, a read-only folder) stops the start with one
 * sentence. Then queues the demo clips for conversion (`queueDemoVideos`). Returns what it did in words, or `null` when the storage had everything already.
 */
export async function prepareStorage(db: Db, config: Pick<AppConfig, 'storage' | 'dataDir'>, mediaDir: string): Promise<string | null> {
  const settings = config.storage;
  const storage = await createStorage(settings);
  let moved: string | null;
  let demo: Awaited<ReturnType<typeof queueDemoVideos>>;
  try {
    const report = await stockMedia(db, storage, mediaDir);
    const onDisk = config.dataDir !== 'memory://';
    const photos = onDisk ? await movePhotosIntoStorage(config.dataDir, storage) : 0;
    const archives = onDisk ? await moveExportsIntoStorage(config.dataDir, storage) : 0;
    const done = [
      report.copied > 0 ? `copied ${report.copied} lesson media files from ${mediaDir}` : null,
      photos > 0 ? `moved ${photos} profile photos from ${config.dataDir}` : null,
      archives > 0 ? `moved ${archives} "My data" archives from ${config.dataDir}` : null,
    ].filter(Boolean);
    moved = done.length > 0 ? `${done.join(' and ')} into ${storagePlace(settings)}` : null;
    // The demo clips wait for the video worker where uploads lie; lessons play the shipped files meanwhile.
    demo = await queueDemoVideos(db, storage, config.dataDir, mediaDir);
  } catch (err) {
    throw storageUnusable(err, settings) ?? err;
  } finally {
    await storage.close?.();
  }
  const queued = demo.queued > 0 ? `queued ${demo.queued} demo videos for conversion to HLS` : null;
  return [moved, queued].filter(Boolean).join('; ') || null;
}
