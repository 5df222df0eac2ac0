/**
 * Upload benchmark (not a test: it asserts nothing). Generates a video file of about N MB (default
 * 200), uploads it with tus-js-client (8 MB parts) to the academy's resumable upload endpoint (its upload
 * server on a local port, with its file store in a scratch data folder; with `--s3`, in a bucket of
 * s3rver in this process), cuts the upload at 50 % and resumes it, then at 75 % stops the server and
 * starts a new one (a restart on the same folder; with `--s3`, another machine: a data folder of its
 * own, the same bucket) while the client keeps retrying. Prints where it was cut and restarted, the whole
 * upload's time, and whether the finished file is byte-identical and was accepted by the probe.
 *
 *   npm run bench:upload
 *   npm run bench:upload -- 50
 *   npm run bench:upload -- --s3
 */
import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { Upload } from 'tus-js-client';
import { readConfig } from '../src/lib/config/config';
import { openDatabase } from '../src/lib/db/client';
import { migrate } from '../src/lib/db/migrate';
import { users, videos } from '../src/lib/db/schema';
import { createLogger } from '../src/lib/http/log.server';
import { createStorage } from '../src/lib/storage/create.server';
import { startObjectStore } from '../src/lib/storage/s3rver.testing';
import { toolPaths, uploadFile, UPLOADS_PREFIX } from '../src/lib/videos';
import { createUploadServer, LOCALE_HEADER, UPLOADER_HEADER } from '../src/lib/videos/uploads.server';

const megabytes = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 200);
const objectStore = process.argv.includes('--s3') ? await startObjectStore() : null;
const dataDir = mkdtempSync(join(tmpdir(), 'academy-bench-upload-'));
const port = Number(process.env.BENCH_UPLOAD_PORT ?? 4447);

// A 10 s piece at a high bitrate, repeated (stream copy) until the file has about N MB.
const piece = join(dataDir, 'piece.mp4');
const file = join(dataDir, 'upload.mp4');
const bitrateMbit = 24;
execFileSync(toolPaths().ffmpeg, ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=30:duration=10', '-f', 'lavfi', '-i', 'sine=duration=10', '-c:v', 'libx264', '-preset', 'ultrafast', '-b:v', `${bitrateMbit}M`, '-c:a', 'aac', '-shortest', piece]);
const seconds = Math.max(1, Math.round((megabytes * 8) / (statSync(piece).size * 8 / 1024 ** 2 / 10)));
execFileSync(toolPaths().ffmpeg, ['-hide_banner', '-loglevel', 'error', '-y', '-stream_loop', '-1', '-i', piece, '-t', String(seconds), '-c', 'copy', file]);
const bytes = readFileSync(file);
console.log(`file: ${(bytes.length / 1024 ** 2).toFixed(1)} MB`);

const handle = await openDatabase({ databaseUrl: null, dataDir: 'memory://' });
await migrate(handle);
const [editor] = await handle.db.insert(users).values({ email: 'bench@academia.example', firstName: 'Bench', lastName: 'Editor' }).returning({ id: users.id });
const configOf = (dir: string) => readConfig({ DATA_DIR: dir, VIDEO_UPLOAD_MAX_BYTES: String(4 * 1024 ** 3), ...objectStore?.env });
const config = configOf(dataDir);
const storage = await createStorage(config.storage);
const logger = createLogger('silent');
console.log(`uploads kept in ${objectStore ? `the bucket ${objectStore.bucket} of s3rver at ${objectStore.endpoint}` : 'the data folder'}`);
/** The data folder of the machine that takes over at 75 % (with a bucket: another machine's). */
const otherDir = objectStore ? mkdtempSync(join(tmpdir(), 'academy-bench-upload-other-')) : dataDir;

/** The upload endpoint as the server mounts it (without the session check, which needs the whole site). */
function serve(dir = dataDir): Promise<Server> {
  const tus = createUploadServer({ db: handle.db, config: configOf(dir), storage, workerId: `bench-${dir}`, logger });
  const server = createServer((req, res) => {
    req.rawHeaders.push(UPLOADER_HEADER, String(editor!.id), LOCALE_HEADER, 'en');
    void tus.handle(req, res);
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

let server = await serve();
const sentAt: number[] = [];
let phase: 'first' | 'resumed' | 'restarted' = 'first';
const marks: Record<string, number> = {};
const t0 = performance.now();

const finished = new Promise<void>((resolve, reject) => {
  const upload = new Upload(bytes, {
    endpoint: `http://127.0.0.1:${port}/admin/videos/uploads`,
    chunkSize: 8 * 1024 * 1024,
    retryDelays: [250, 500, 1000, 1000, 2000, 2000, 4000],
    metadata: { filename: 'bench.mp4', filetype: 'video/mp4' },
    onProgress: (sent, total) => {
      sentAt.push(sent);
      if (phase === 'first' && sent >= total / 2) {
        phase = 'resumed';
        marks.cut = performance.now();
        // The connection drops at 50 %: the client stops; it starts again from the server's offset.
        void upload.abort().then(() => {
          marks.resumeFrom = sent;
          upload.start();
        });
      } else if (phase === 'resumed' && sent >= (total * 3) / 4) {
        phase = 'restarted';
        marks.restart = performance.now();
        marks.restartAt = sent;
        // The server stops (connections cut) and a new one starts on the same folder.
        server.closeAllConnections();
        server.close(() =>
          void serve(otherDir).then((s) => {
            server = s;
            marks.restarted = performance.now();
          }),
        );
      }
    },
    onError: reject,
    onSuccess: () => resolve(),
  });
  upload.start();
});

try {
  await finished;
} catch (err) {
  console.log(`upload failed: ${(err as Error).message}`);
}
const total = (performance.now() - t0) / 1000;
// The client may hear that the upload is whole from a HEAD while the server that wrote its last byte still
// probes it (the connection cut at the restart): the row is read once the probe has decided.
const settled = Date.now() + 120_000;
while ((await handle.db.select({ state: videos.state }).from(videos))[0]?.state === 'probing' && Date.now() < settled) await new Promise((r) => setTimeout(r, 100));
const [row] = await handle.db.select().from(videos);
const digest = (b: Buffer) => createHash('sha256').update(b).digest('hex');
/** The digest of the finished upload as its store keeps it (streamed from the bucket), or null when it is gone. */
async function storedDigest(uploadId: string): Promise<string | null> {
  if (!objectStore) return existsSync(uploadFile(dataDir, uploadId)) ? digest(readFileSync(uploadFile(dataDir, uploadId))) : null;
  const got = await storage.get(UPLOADS_PREFIX + uploadId);
  if (!got) return null;
  const hash = createHash('sha256');
  for await (const chunk of got.body) hash.update(chunk as Uint8Array);
  return hash.digest('hex');
}
const kept = row ? await storedDigest(row.uploadId) : null;
// A file converted away is gone; the state says it was accepted.
const identical: boolean | 'gone' = kept === null ? 'gone' : kept === digest(bytes);
const mb = bytes.length / 1024 ** 2;
console.log(`cut at ${(marks.resumeFrom! / 1024 ** 2).toFixed(1)} MB (50 %), server restarted at ${(marks.restartAt! / 1024 ** 2).toFixed(1)} MB (75 %), down for ${((marks.restarted! - marks.restart!) / 1000).toFixed(2)} s`);
console.log(`whole upload: ${total.toFixed(1)} s (${(mb / total).toFixed(1)} MB/s on loopback, including the cut and the restart)`);
console.log(`finished file byte-identical: ${identical}; state after probe: ${row?.state}${row?.failure ? ` (${row.failure})` : ''}`);
server.close();
await handle.close();
await storage.close?.();
await objectStore?.stop();
rmSync(dataDir, { recursive: true, force: true });
rmSync(otherDir, { recursive: true, force: true });
