/**
 * A process that only converts uploaded videos (no web server): it claims queued videos from the
 * database every few seconds and runs ffmpeg on them, as each web process does unless `VIDEO_WORKER=0`.
 * For PostgreSQL (`DATABASE_URL`): the embedded database is one process's. It needs the data folder the
 * web processes write uploads to (`DATA_DIR`) and the same storage. Stops on SIGTERM/SIGINT; a video it
 * was converting is taken again by a worker when its lease runs out.
 *
 *   DATABASE_URL=postgres://… VIDEO_WORKER=0 npm start   # web processes that do not convert
 *   DATABASE_URL=postgres://… npm run videos:worker      # the converting process
 *   npm run videos:worker -- --until-done                 # converts what is queued now, then exits
 */
import { readConfig } from '../src/lib/config/config';
import { createRuntime } from '../src/lib/runtime/runtime.server';
import { startVideoWorker, transcodeDue } from '../src/lib/videos/transcode.server';
import { fail } from '../server/index';

try {
  const config = readConfig();
  const runtime = await createRuntime(config, { schedule: false });
  const deps = { db: runtime.db, storage: runtime.storage, dataDir: config.dataDir, workerId: runtime.workerId, logger: runtime.logger.child({ part: 'videos' }), lessonsChanged: () => runtime.catalogChanged() };
  if (process.argv.includes('--until-done')) {
    // Converts what is queued now (after `npm run db:seed`, say, with no server running) and exits.
    const handled = await transcodeDue(deps);
    console.log(`academy: ${handled} queued videos handled`);
    await runtime.close();
    process.exit(0);
  }
  const worker = startVideoWorker(deps);
  console.log(`academy: converting uploaded videos (worker ${runtime.workerId})`);
  const stop = async () => {
    await worker.stop();
    await runtime.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
} catch (err) {
  fail(err);
}
