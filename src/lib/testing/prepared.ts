/**
 * A seeded database as a started academy leaves it once its video worker is done: the lesson media
 * stocked into a storage folder and the demo clips converted there (the start's own preparation, then
 * the worker's conversion). Made once per test run for the templates servers start from
 * (`src/lib/db/testing.ts`), so no server a test starts converts the clips again; the PostgreSQL
 * template takes the PGlite one's conversion (`copyConversion`) rather than converting again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { asc, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { mediaFiles, videos } from '../db/schema';
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

/**
 * Writes the demo clips' conversion that `from` holds (a prepared database) into `to` (a copy of the same
 * seeded catalogue on another engine): the same video rows under the same ids and their master
 * playlists, so the stored files of `from`'s conversion serve `to` too and the clips are converted once
 * per run. Shipped files are matched by their storage keys.
 */
export async function copyConversion(from: Db, to: Db): Promise<void> {
  const made = await from.select().from(videos).where(isNotNull(videos.sourceMediaFileId)).orderBy(asc(videos.id));
  const keysOf = async (db: Db, ids: number[]) => new Map((await db.select().from(mediaFiles).where(inArray(mediaFiles.id, ids))).map((m) => [m.id, m]));
  const files = await keysOf(from, made.flatMap((v) => [v.sourceMediaFileId!, ...(v.mediaFileId === null ? [] : [v.mediaFileId])]));
  const shipped = new Map((await to.select({ id: mediaFiles.id, key: mediaFiles.storageKey }).from(mediaFiles)).map((m) => [m.key, m.id]));
  await to.transaction(async (tx) => {
    for (const v of made) {
      const master = v.mediaFileId === null ? undefined : files.get(v.mediaFileId);
      const [copied] = master
        ? await tx.insert(mediaFiles).values({ storageKey: master.storageKey, mimeType: master.mimeType, sizeBytes: master.sizeBytes, durationSeconds: master.durationSeconds }).returning({ id: mediaFiles.id })
        : [undefined];
      const { id, sourceMediaFileId, mediaFileId: _mediaFileId, ...rest } = v;
      const source = shipped.get(files.get(sourceMediaFileId!)!.storageKey);
      if (source === undefined) throw new Error(`the copy has no shipped file ${files.get(sourceMediaFileId!)!.storageKey}`);
      await tx.insert(videos).values({ ...rest, id, sourceMediaFileId: source, mediaFileId: copied?.id ?? null });
    }
    await tx.execute(sql`select setval(pg_get_serial_sequence('videos', 'id'), (select coalesce(max(id), 1) from videos))`);
  });
}
