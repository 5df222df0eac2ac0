/**
 * Transcode benchmark (not a test: it asserts nothing). Makes a synthetic 720p video with ffmpeg's test
 * sources (testsrc2 picture, sine sound; H.264/AAC at 30 fps) of the length given in seconds (default
 * 60), then converts it through the library's own code path (probe, queue, claim, HLS ladder 360p and
 * 720p, poster, stored through the storage interface) on an in-memory database, and prints the media
 * duration, the conversion's wall time and their ratio (below 1: faster than real time).
 *
 *   npm run bench:transcode
 *   npm run bench:transcode -- 600
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../src/lib/db/client';
import { migrate } from '../src/lib/db/migrate';
import { createLogger } from '../src/lib/http/log.server';
import { createLocalStorage } from '../src/lib/storage/local.server';
import { createVideo, finishUpload, toolPaths, transcodeDue, uploadedFiles, uploadFile, uploadsDir, videoById } from '../src/lib/videos';

const seconds = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 60);
const dataDir = mkdtempSync(join(tmpdir(), 'academy-bench-transcode-'));
mkdirSync(uploadsDir(dataDir), { recursive: true });
const uploadId = 'f'.repeat(32);
const source = uploadFile(dataDir, uploadId);

console.log(`making a ${seconds} s 720p test video…`);
let t = performance.now();
// A piece of at most 30 s is encoded, then repeated (stream copy) to the length asked: making a
// 10-minute source costs seconds, not minutes.
const piece = Math.min(seconds, 30);
const pieceFile = join(dataDir, 'piece.mp4');
execFileSync(toolPaths().ffmpeg, [
  '-hide_banner', '-loglevel', 'error', '-y',
  '-f', 'lavfi', '-i', `testsrc2=size=1280x720:rate=30:duration=${piece}`,
  '-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=48000:duration=${piece}`,
  '-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '23', '-g', '60', '-c:a', 'aac', '-b:a', '128k', '-shortest', '-f', 'mp4', pieceFile,
]);
execFileSync(toolPaths().ffmpeg, ['-hide_banner', '-loglevel', 'error', '-y', '-stream_loop', '-1', '-i', pieceFile, '-t', String(seconds), '-c', 'copy', '-f', 'mp4', source]);
console.log(`  made in ${((performance.now() - t) / 1000).toFixed(1)} s (${(statSync(source).size / 1024 ** 2).toFixed(1)} MB)`);

const handle = await openDatabase({ databaseUrl: null, dataDir: 'memory://' });
await migrate(handle);
const storage = createLocalStorage(join(dataDir, 'files'));
const videoId = await createVideo(handle.db, { uploadId, ownerId: null as unknown as number, title: 'bench', sizeBytes: statSync(source).size });

t = performance.now();
const probed = await finishUpload(handle.db, uploadedFiles(storage, dataDir), uploadId);
const probeMs = performance.now() - t;
if (!probed.ok) throw new Error(`the test video was refused: ${probed.failure}`);
console.log('converting…');
t = performance.now();
await transcodeDue({ db: handle.db, storage, dataDir, workerId: 'bench', logger: createLogger('warn') });
const wall = (performance.now() - t) / 1000;
const video = await videoById(handle.db, videoId);
await handle.close();
rmSync(dataDir, { recursive: true, force: true });

const duration = video?.durationSeconds ?? seconds;
console.log(`load average (1, 5, 15 min) at the end: ${loadavg().map((l) => l.toFixed(1)).join(', ')}`);
console.log(`state: ${video?.state}${video?.failure ? ` (${video.failure})` : ''}; ladder: ${video?.ladder}; ${cpus().length} CPUs`);
console.log(`probe: ${probeMs.toFixed(0)} ms`);
console.log(`media duration: ${duration.toFixed(1)} s; transcode wall time: ${wall.toFixed(1)} s; ratio wall/duration: ${(wall / duration).toFixed(3)} (${(duration / wall).toFixed(2)}× real time)`);
