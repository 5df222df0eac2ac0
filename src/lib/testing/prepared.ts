/**
 * A seeded database as a started academy leaves it once its video worker is done: the lesson media
 * stocked into a storage folder and the demo clips converted there (the start's own preparation, then
 * the worker's conversion). Made once per test run for the templates servers start from
 * (`src/lib/db/testing.ts`), so no server a test starts converts the clips again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { isNotNull } from 'drizzle-orm';
import type { Db } from '../db/client';
import { videos } from '../db/schema';
import { createLogger } from '../http/log.server';
import { prepareStorage } from '../runtime/prepare-storage.server';
import { createLocalStorage } from '../storage/local.server';
import { transcodeDue } from '../videos/transcode.server';

/** Prepares `db` (seeded) as a start does with its storage in `filesDir`, and converts the queued demo clips there. */
export async function convertDemoVideos(db: Db, filesDir: string): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'academy-demo-videos-'));
  const mediaDir = resolve('media');
  const storage = createLocalStorage(filesDir);
  try {
    await prepareStorage(db, { storage: { kind: 'local', dir: filesDir }, dataDir }, mediaDir);
    await transcodeDue({ db, storage, dataDir, workerId: 'test-template', logger: createLogger('silent') });
    const states = await db.select({ state: videos.state }).from(videos).where(isNotNull(videos.sourceMediaFileId));
    if (states.length === 0 || states.some((v) => v.state !== 'ready')) throw new Error(`the demo clips were not all converted: ${states.map((v) => v.state).join(', ')}`);
  } finally {
    await storage.close?.();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
