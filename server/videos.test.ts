/**
 * The video library through the built site, with uploads kept in the data folder and in a bucket
 * (s3rver in this process, where stored files then live too): the resumable upload endpoint (tus)
 * answers editors with a proved second factor only, refuses a cross-site request, a 0-byte and an
 * oversized upload, a forged upload id (404) and another person's (403) in words; an upload whose
 * connection drops resumes from the offset the store kept, also on a restarted server (with a bucket:
 * another machine, with a data folder of its own), and arrives byte-identical; a non-video is refused at
 * its last byte; a video is converted to HLS from the store, the upload removed, shown to editors, and
 * once a lesson plays it, its playlists and segments are served behind the same access checks as the
 * lesson's file. Needs `npm run build`.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type { IncomingMessage, Server } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { messages, format } from '../src/i18n';
import { resources, users, videos } from '../src/lib/db/schema';
import type { Runtime } from '../src/lib/runtime/runtime.server';
import { startObjectStore, type TestObjectStore } from '../src/lib/storage/s3rver.testing';
import { testRuntime } from '../src/lib/testing/runtime';
import { toolPaths } from '../src/lib/videos/tools.server';
import { transcodeDue } from '../src/lib/videos/transcode.server';
import { scratchDir, uploadFile, uploadsDir, UPLOADS_PREFIX } from '../src/lib/videos/upload-files.server';
import { createApp } from './app';
import { Client } from '../tests/e2e/support/http';
import { firstResource, PEOPLE } from '../tests/e2e/support/seed';
import { ADMIN_FACTOR } from '../tests/e2e/support/staff';
import { siteBuilt, startBuiltSite, type BuiltSite } from './built-site.testing';
import { useTempFolders } from '../src/lib/testing/temp-folders';

const tempFolder = useTempFolders();

if (!siteBuilt) console.warn('The video library tests are skipped: they need a build (`npm run build`).');

const es = messages('es').videos;
const en = messages('en').videos;
const TUS = { 'Tus-Resumable': '1.0.0' };
const b64 = (s: string) => Buffer.from(s).toString('base64');
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

let objectStore: TestObjectStore | null = null;
let notStarted = '';
if (siteBuilt) {
  try {
    objectStore = await startObjectStore();
  } catch (err) {
    notStarted = `s3rver could not start here (${(err as Error).message}): the video library through a bucket is skipped`;
    console.warn(notStarted);
  }
}
afterAll(async () => {
  await objectStore?.stop();
});

const places = [
  { name: 'the data folder', env: (): Record<string, string> => ({}), skip: !siteBuilt },
  { name: 'a bucket', env: (): Record<string, string> => objectStore!.env, skip: !siteBuilt || notStarted !== '' },
];

/**
 * Sends a PATCH announcing `bytes` from `offset` to `site` but only the first `sent` of them, waits until
 * the server has taken them in, and drops the connection: an upload whose connection dropped.
 */
async function dropAfter(site: Server, c: Client, location: string, offset: number, bytes: Buffer, sent: number): Promise<void> {
  const url = new URL(location, c.origin);
  let received: IncomingMessage | null = null;
  const watch = (req: IncomingMessage) => {
    if (req.method === 'PATCH' && req.url === url.pathname) received = req;
  };
  site.prependListener('request', watch);
  const socket = connect({ host: url.hostname, port: Number(url.port), ...(c.localAddress ? { localAddress: c.localAddress } : {}) });
  socket.on('error', () => undefined);
  const head = Buffer.from([`PATCH ${url.pathname} HTTP/1.1`, `Host: ${url.host}`, `Origin: ${c.origin}`, `Cookie: ${c.cookieHeader()}`, 'Tus-Resumable: 1.0.0', `Upload-Offset: ${offset}`, 'Content-Type: application/offset+octet-stream', `Content-Length: ${bytes.length}`, '', ''].join('\r\n'));
  socket.write(Buffer.concat([head, bytes.subarray(0, sent)]));
  try {
    // Every byte sent has been read from the connection and handed on by the request (to the upload store).
    await vi.waitFor(() => {
      const req = received as IncomingMessage | null;
      expect(req && req.socket.bytesRead >= head.length + sent && req.readableLength === 0 && req.readableFlowing).toBe(true);
    }, { timeout: 10_000 });
  } finally {
    site.removeListener('request', watch);
    socket.destroy();
  }
}

describe.each(places)('the video library through the site, with uploads in $name', ({ env, skip }) => {
  let built: BuiltSite;
  let admin: Client;
  let clip: Buffer;

  const create = (c: Client, length: number, extra: Record<string, string> = {}) =>
    c.request('POST', '/admin/videos/uploads', { headers: { ...TUS, 'Upload-Length': String(length), 'Upload-Metadata': `filename ${b64('../../secreto/Clase 1.mp4')}`, ...extra } });
  const patch = (c: Client, location: string, offset: number, bytes: Buffer) =>
    c.request('PATCH', location, { headers: { ...TUS, 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream' }, raw: bytes });
  /** Uploads `bytes` whole; the answer of its last part. */
  const upload = async (bytes: Buffer) => {
    const made = await create(admin, bytes.length);
    expect(made.status, made.body).toBe(201);
    return { location: made.headers.location!, done: await patch(admin, made.headers.location!, 0, bytes) };
  };

  beforeAll(async () => {
    if (skip) return;
    built = await startBuiltSite({ env: { VIDEO_UPLOAD_MAX_BYTES: String(2 * 1024 * 1024), ...env() } });
    admin = await built.loggedInClient(PEOPLE.admin.email, PEOPLE.admin.password);
    const proved = await admin.post('/_actions/staff.proveCode', { form: { code: ADMIN_FACTOR.recoveryCodes.at(-2)!, lang: 'es' } });
    expect(proved.status, proved.body).toBe(200);
    const dir = tempFolder('academy-clip-');
    execFileSync(toolPaths().ffmpeg, ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=160x90:rate=15', '-f', 'lavfi', '-i', 'sine', '-t', '3', '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-shortest', join(dir, 'clip.mp4')]);
    clip = readFileSync(join(dir, 'clip.mp4'));
  }, 120_000);
  afterAll(async () => {
    await built?.close();
  });

  it.skipIf(skip)('lets only editors with a proved second factor upload, from the academy itself, in words', async () => {
    const visitor = built.client();
    const v = await create(visitor, 100);
    expect([v.status, v.body]).toEqual([401, es.refusals.login]);
    const learner = await built.loggedInClient(PEOPLE.learner.email, PEOPLE.learner.password);
    const l = await learner.request('POST', '/admin/videos/uploads', { headers: { ...TUS, 'Upload-Length': '100', 'Accept-Language': 'en' } });
    expect([l.status, l.body]).toEqual([403, en.refusals.forbidden]);
    const cross = await create(admin, 100, { origin: 'https://evil.example' });
    expect(cross.status).toBe(403);
    expect(await built.db.db.select().from(videos)).toEqual([]);
  });

  it.skipIf(skip)('refuses a 0-byte upload and one over the size limit, writing nothing', async () => {
    const empty = await create(admin, 0);
    expect([empty.status, empty.body]).toEqual([400, es.refusals.empty]);
    const big = await create(admin, 3 * 1024 * 1024, { 'Accept-Language': 'en' });
    expect([big.status, big.body]).toEqual([413, format(en.refusals.tooLarge, { size: '2 MB' })]);
    expect(await built.db.db.select().from(videos)).toEqual([]);
  });

  it.skipIf(skip)('answers a forged upload id 404 and another person’s 403', async () => {
    const forged = await patch(admin, '/admin/videos/uploads/../../etc/passwd', 0, Buffer.from('x'));
    expect(forged.status).toBe(404);
    const unknown = await patch(admin, `/admin/videos/uploads/${'a'.repeat(32)}`, 0, Buffer.from('x'));
    expect([unknown.status, unknown.body]).toEqual([404, es.refusals.unknownUpload]);
    const [learner] = await built.db.db.select({ id: users.id }).from(users).where(eq(users.email, PEOPLE.learner.email));
    await built.db.db.insert(videos).values({ uploadId: 'b'.repeat(32), ownerId: learner!.id, title: 'ajeno', sizeBytes: 10 });
    const theirs = await admin.request('HEAD', `/admin/videos/uploads/${'b'.repeat(32)}`, { headers: TUS });
    expect(theirs.status).toBe(403);
    const got = await patch(admin, `/admin/videos/uploads/${'b'.repeat(32)}`, 0, Buffer.from('x'));
    expect([got.status, got.body]).toEqual([403, es.refusals.notYours]);
    await built.db.db.delete(videos);
  });

  it.skipIf(skip)('answers hostile upload ids and headers with a 4xx in words, never a 5xx', async () => {
    const ids = ['', 'x', '0'.repeat(31), 'g'.repeat(32), 'A'.repeat(32), '%00', '..%2F..%2Fetc', 'a'.repeat(5000), '1e3', '-1'];
    const headers: Record<string, string>[] = [{}, { 'Upload-Offset': '-1' }, { 'Upload-Offset': 'abc' }, { 'Upload-Length': '99999999999999999999' }, { 'Upload-Metadata': 'filename %%%' }, { 'Tus-Resumable': '0.0.1' }];
    for (const id of ids) {
      for (const h of headers) {
        for (const method of ['HEAD', 'PATCH', 'DELETE', 'GET', 'POST']) {
          const a = await admin.request(method, `/admin/videos/uploads/${id}`, { headers: { ...TUS, 'Content-Type': 'application/offset+octet-stream', ...h }, raw: Buffer.from('x') });
          expect(a.status, `${method} ${id.slice(0, 40)} ${JSON.stringify(h)} → ${a.status} ${a.body.slice(0, 100)}`).toBeGreaterThanOrEqual(400);
          expect(a.status).toBeLessThan(500);
        }
      }
    }
    for (const h of headers) {
      const a = await admin.request('POST', '/admin/videos/uploads', { headers: { ...TUS, 'Upload-Length': '10', ...h } });
      expect(a.status, `POST ${JSON.stringify(h)} → ${a.status} ${a.body.slice(0, 100)}`).toBeLessThan(500);
    }
    await built.db.db.delete(videos);
  });

  /** The finished upload's bytes as the store keeps them, or null when it keeps none. */
  async function keptUpload(uploadId: string): Promise<Buffer | null> {
    if (built.runtime.storage.kind === 'local') return existsSync(uploadFile(built.runtime.config.dataDir, uploadId)) ? readFileSync(uploadFile(built.runtime.config.dataDir, uploadId)) : null;
    const got = await built.runtime.storage.get(UPLOADS_PREFIX + uploadId);
    if (!got) return null;
    const chunks: Buffer[] = [];
    for await (const c of got.body) chunks.push(Buffer.from(c as Uint8Array));
    return Buffer.concat(chunks);
  }
  const offsetAt = async (c: Client, location: string) => (await c.request('HEAD', location, { headers: TUS })).headers['upload-offset'];

  it.skipIf(skip)('drops an upload its editor abandons, with everything its store kept of it', async () => {
    const made = await create(admin, clip.length);
    const location = made.headers.location!;
    const id = location.split('/').pop()!;
    expect((await patch(admin, location, 0, clip.subarray(0, 1000))).status).toBe(204);
    const left = async () => {
      if (built.runtime.storage.kind === 'local') return readdirSync(uploadsDir(built.runtime.config.dataDir)).filter((f) => f.startsWith(id));
      const keys: string[] = [];
      for await (const k of built.runtime.storage.list(UPLOADS_PREFIX + id)) keys.push(k);
      return keys;
    };
    expect((await left()).length).toBeGreaterThan(0);
    const gone = await admin.request('DELETE', location, { headers: TUS });
    expect(gone.status, gone.body).toBe(204);
    await vi.waitFor(async () => {
      expect(await built.db.db.select().from(videos).where(eq(videos.uploadId, id))).toEqual([]);
      expect(await left()).toEqual([]);
    });
  });

  it.skipIf(skip)('resumes an upload whose connection dropped from the offset the store kept, also on a restarted server, byte-identical, and refuses a non-video at its last byte', async () => {
    const made = await create(admin, clip.length);
    expect(made.status, made.body).toBe(201);
    const location = made.headers.location!;
    const third = Math.floor(clip.length / 3);
    // The connection drops after a third of the bytes: the store keeps what arrived.
    await dropAfter(built.site.server, admin, location, 0, clip, third);
    await vi.waitFor(async () => expect(await offsetAt(admin, location)).toBe(String(third)), { timeout: 10_000 });

    // A restarted server (a new upload endpoint with nothing in memory): on the same data folder; with a
    // bucket, another machine with a data folder of its own. It knows where the upload stopped, and takes the next third.
    const bucket = built.runtime.storage.kind === 's3';
    const machine: Runtime = bucket ? await testRuntime(built.db, { env: { NODE_ENV: 'production', VIDEO_UPLOAD_MAX_BYTES: String(2 * 1024 * 1024), ...env() } }) : built.runtime;
    const restarted = createApp({ runtime: machine, astroHandler: (_q, _s, next) => next?.(), clientDir: tmpdir() });
    await new Promise<void>((r) => restarted.server.listen(0, '127.0.0.1', r));
    try {
      const other = new Client(`http://127.0.0.1:${(restarted.server.address() as AddressInfo).port}`);
      for (const [k, v] of admin.cookies) other.cookies.set(k, v);
      expect(await offsetAt(other, location)).toBe(String(third));
      const next = await patch(other, location, third, clip.subarray(third, 2 * third));
      expect(next.status, next.body).toBe(204);
      other.close();
    } finally {
      await restarted.close(1000);
      if (bucket) await machine.close();
    }
    expect(await offsetAt(admin, location)).toBe(String(2 * third));
    const rest = await patch(admin, location, 2 * third, clip.subarray(2 * third));
    expect(rest.status, rest.body).toBe(204);
    const [row] = await built.db.db.select().from(videos);
    expect(row).toMatchObject({ title: 'Clase 1', state: 'queued', width: 160, height: 90 });
    expect(sha((await keptUpload(row!.uploadId))!)).toBe(sha(clip));
    if (bucket) {
      // Nothing of the upload on either machine's disk: the probe's scratch copy is gone too.
      expect([existsSync(uploadsDir(built.runtime.config.dataDir)), existsSync(uploadsDir(machine.config.dataDir))]).toEqual([false, false]);
      expect(readdirSync(scratchDir(built.runtime.config.dataDir))).toEqual([]);
    }

    const fake = await upload(Buffer.from('<html>no soy un video</html>'.repeat(20)));
    expect(fake.done.status).toBe(422);
    expect(fake.done.body).toBe(format(es.states.failed, { reason: es.failures.notVideo }));
    const [refused] = await built.db.db.select().from(videos).where(eq(videos.state, 'failed'));
    expect(await keptUpload(refused!.uploadId)).toBeNull();
  });

  it.skipIf(skip)('converts the video, shows it to editors only, and serves its HLS files behind the lesson’s access checks', async () => {
    const { runtime } = built;
    await transcodeDue({ db: runtime.db, storage: runtime.storage, dataDir: runtime.config.dataDir, workerId: 'test', logger: runtime.logger });
    // The upload is removed from its store once the video is ready.
    const [converted] = await runtime.db.select().from(videos).where(eq(videos.state, 'ready'));
    expect(await keptUpload(converted!.uploadId)).toBeNull();
    const status = await admin.get('/api/videos/status?lang=en');
    const ready = (JSON.parse(status.body) as { videos: { id: number; title: string; state: string; mediaFileId: number | null; label: string }[] }).videos.find((v) => v.state === 'ready')!;
    expect(ready.label).toBe(en.states.ready);
    // The library names a video uploaded since its page was drawn from this answer.
    expect(ready.title).toBe('Clase 1');
    const page = await admin.get('/admin/videos');
    expect(page.status).toBe(200);
    expect(page.body).toContain('Clase 1');
    expect(page.body).toContain(es.upload.noScript);
    const preview = await admin.get(`/media/video/${ready.id}/master.m3u8`);
    expect([preview.status, preview.headers['content-type']]).toEqual([200, 'application/vnd.apple.mpegurl']);
    const learner = await built.loggedInClient(PEOPLE.learner.email, PEOPLE.learner.password);
    expect((await learner.get(`/media/video/${ready.id}/master.m3u8`)).status).toBe(403);
    expect((await learner.get('/admin/videos')).status).toBe(403);
    expect((await built.client().get('/api/videos/status')).status).toBe(401);

    // A lesson of course 2 plays it: the same people get the same answers as for its file before.
    const resourceId = firstResource(2, 'video');
    const visitor = built.client();
    const before = [(await visitor.get(`/media/resource/${resourceId}`)).status, (await learner.get(`/media/resource/${resourceId}`, { headers: { range: 'bytes=0-0' } })).status];
    await runtime.db.update(resources).set({ mediaFileId: ready.mediaFileId }).where(eq(resources.id, resourceId));
    await runtime.catalogChanged();
    const hls = `/media/resource/${resourceId}/hls`;
    expect([(await visitor.get(`${hls}/master.m3u8`)).status, (await learner.get(`${hls}/master.m3u8`)).status]).toEqual(before.map((s) => (s === 206 ? 200 : s)));
    const master = await learner.get(`${hls}/master.m3u8`);
    expect(master.body).toContain('90p/index.m3u8');
    const rendition = await learner.get(`${hls}/90p/index.m3u8`);
    expect(rendition.body).toContain('seg-000.ts');
    const segment = await learner.get(`${hls}/90p/seg-000.ts`, { headers: { range: 'bytes=0-187' } });
    expect([segment.status, segment.headers['content-type'], segment.headers['content-length']]).toEqual([206, 'video/mp2t', '188']);
    expect((await learner.get(`${hls}/../../../etc/passwd`)).status).toBe(404);
    expect((await learner.get(`${hls}/poster.jpg`)).status).toBe(404);
  }, 120_000);
});
