/**
 * Lesson media over HTTP through the production server: access-checked bytes for videos, captions
 * and documents, Range requests, the demo clips' HLS conversion, and no public path to the media folder.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures';
import { readDemoCatalogue } from '../../src/lib/db/seed/demo-catalogue.server';

const MEDIA = join(process.cwd(), 'media');

/**
 * Resource ids of a freshly seeded database: the seed inserts every lesson's resources in one
 * statement, in catalogue order (the video, then its extras), so ids count up from 1 in that order.
 * The tests compare the bytes served with the file each id should be, so a wrong guess fails loudly.
 */
function seededResources() {
  const list: { id: number; courseId: number; kind: 'video' | 'pdf' | 'link'; file: string | null }[] = [];
  for (const { id, archive, sources } of readDemoCatalogue())
    for (const m of archive.course.modules)
      for (const l of m.lessons)
        for (const r of l.resources) list.push({ id: list.length + 1, courseId: id, kind: r.kind, file: r.kind === 'link' ? null : sources[r.file]! });
  return list;
}
const RESOURCES = seededResources();
const first = (courseId: number, kind: 'video' | 'pdf') => RESOURCES.find((r) => r.courseId === courseId && r.kind === kind)!;
const fileBytes = (file: string | null) => readFileSync(join(MEDIA, file!));

async function logIn(request: APIRequestContext, baseURL: string, email: string, password: string) {
  const r = await request.post('/_actions/auth.login', { form: { email, password, lang: 'es' }, headers: { origin: baseURL } });
  expect(r.status()).toBe(200);
}

test.describe('lesson media', () => {
  test('a visitor gets no lesson bytes, only a localized refusal', async ({ request }) => {
    const video = first(1, 'video');
    const es = await request.get(`/media/resource/${video.id}`);
    expect(es.status()).toBe(403);
    expect(es.headers()['content-type']).toBe('text/plain; charset=utf-8');
    expect(es.headers()['cache-control']).toBe('no-store');
    expect(await es.text()).toBe('No tienes acceso a esta lección. Primero ingresa los datos del prospecto.');
    const en = await request.get(`/media/resource/${video.id}`, { headers: { 'accept-language': 'en-US,en;q=0.9' } });
    expect(await en.text()).toBe('You do not have access to this lesson. Enter the prospect’s details first.');
    expect((await request.get(`/media/resource/${video.id}/captions/es.vtt`)).status()).toBe(403);
  });

  test('a learner streams an allowed video by ranges and is refused blocked courses', async ({ request, baseURL }) => {
    await logIn(request, baseURL!, 'learner@academia.example', 'Aprende2026');
    const video = first(3, 'video');
    const clip = fileBytes(video.file);

    const whole = await request.get(`/media/resource/${video.id}`);
    expect(whole.status()).toBe(200);
    expect(whole.headers()['content-type']).toBe('video/webm');
    expect(whole.headers()['accept-ranges']).toBe('bytes');
    expect(whole.headers()['cache-control']).toBe('private, max-age=3600');
    expect(Buffer.compare(await whole.body(), clip)).toBe(0);

    const part = await request.get(`/media/resource/${video.id}`, { headers: { range: 'bytes=1000-1999' } });
    expect(part.status()).toBe(206);
    expect(part.headers()['content-range']).toBe(`bytes 1000-1999/${clip.length}`);
    expect(part.headers()['content-length']).toBe('1000');
    expect(Buffer.compare(await part.body(), clip.subarray(1000, 2000))).toBe(0);

    const tail = await request.get(`/media/resource/${video.id}`, { headers: { range: 'bytes=-100' } });
    expect(tail.status()).toBe(206);
    expect(tail.headers()['content-range']).toBe(`bytes ${clip.length - 100}-${clip.length - 1}/${clip.length}`);

    const past = await request.get(`/media/resource/${video.id}?lang=en`, { headers: { range: `bytes=${clip.length}-` } });
    expect(past.status()).toBe(416);
    expect(past.headers()['content-range']).toBe(`bytes */${clip.length}`);

    const head = await request.head(`/media/resource/${video.id}`, { headers: { range: 'bytes=0-9' } });
    expect(head.status()).toBe(206);
    expect(head.headers()['content-length']).toBe('10');

    const captions = await request.get(`/media/resource/${video.id}/captions/en.vtt`);
    expect(captions.status()).toBe(200);
    expect(captions.headers()['content-type']).toBe('text/vtt; charset=utf-8');
    expect((await captions.text()).startsWith('WEBVTT')).toBe(true);

    const pdf = first(3, 'pdf');
    const doc = await request.get(`/media/resource/${pdf.id}`);
    expect(doc.status()).toBe(200);
    expect(doc.headers()['content-type']).toBe('application/pdf');
    expect(Buffer.compare(await doc.body(), fileBytes(pdf.file))).toBe(0);

    // Paid and not bought: refused. Buyer-only: as if it did not exist. Locked by a prerequisite: the prerequisite sentence.
    const paid = await request.get(`/media/resource/${first(6, 'video').id}?lang=en`);
    expect(paid.status()).toBe(403);
    expect(await paid.text()).toBe('You do not have access to this lesson. Buy the course to watch it.');
    for (const courseId of [10, 16]) expect((await request.get(`/media/resource/${first(courseId, 'video').id}`)).status()).toBe(404);
    const locked = await request.get(`/media/resource/${first(32, 'video').id}?lang=en`, { headers: { range: 'bytes=0-' } });
    expect(locked.status()).toBe(403);
    expect(await locked.text()).toBe('You must complete the basic course to access this course');
  });

  test('a buyer gets the courses they bought', async ({ request, baseURL }) => {
    await logIn(request, baseURL!, 'buyer@academia.example', 'Compra2026');
    for (const courseId of [6, 10, 16]) {
      const video = first(courseId, 'video');
      const r = await request.get(`/media/resource/${video.id}`, { headers: { range: 'bytes=0-99' } });
      expect(r.status(), `course ${courseId}`).toBe(206);
      expect(Buffer.compare(await r.body(), fileBytes(video.file).subarray(0, 100))).toBe(0);
    }
  });

  test('a demo clip plays as the HLS the video worker made of it, behind the same access rules', async ({ request, baseURL }) => {
    // The run's seeded folder is a first start's once its worker is done: the demo clips are converted.
    const free = first(3, 'video');
    const paid = first(6, 'video');
    const hls = (id: number, path = 'master.m3u8') => request.get(`/media/resource/${id}/hls/${path}?lang=en`);
    const visitor = await hls(free.id);
    expect([visitor.status(), await visitor.text()]).toEqual([403, 'You do not have access to this lesson. Log in to watch it.']);
    await logIn(request, baseURL!, 'learner@academia.example', 'Aprende2026');
    const master = await hls(free.id);
    expect(master.status()).toBe(200);
    expect(master.headers()['content-type']).toBe('application/vnd.apple.mpegurl');
    expect(master.headers()['cache-control']).toBe('private, max-age=3600');
    const playlist = await master.text();
    expect(playlist).toMatch(/^#EXTM3U\n/);
    const rung = /^(\d+p)\/index\.m3u8$/m.exec(playlist)![1]!;
    const index = await (await hls(free.id, `${rung}/index.m3u8`)).text();
    const segment = await hls(free.id, `${rung}/${/^seg-\d+\.ts$/m.exec(index)![0]}`);
    expect([segment.status(), segment.headers()['content-type']]).toEqual([200, 'video/mp2t']);
    // A paid course this learner has not bought: neither its playlist nor its segments.
    const refused = await hls(paid.id);
    expect([refused.status(), await refused.text()]).toEqual([403, 'You do not have access to this lesson. Buy the course to watch it.']);
    expect((await hls(paid.id, `${rung}/seg-000.ts`)).status()).toBe(403);
  });

  test('an IBO session opens a free course’s video only after giving a prospect', async ({ request, baseURL }) => {
    const origin = { origin: baseURL! };
    const video = first(1, 'video');
    expect((await request.post('/_actions/ibo.enter', { form: { code: 'HORIZONTE01', lang: 'es' }, headers: origin })).status()).toBe(200);
    expect((await request.get(`/media/resource/${video.id}`)).status()).toBe(403);
    const email = `media.${Date.now()}@example.com`;
    const confirmed = await request.post('/_actions/ibo.confirmProspect', { form: { firstName: 'Media', lastName: 'Prospecto', email, lang: 'es' }, headers: origin });
    expect(confirmed.status()).toBe(200);
    const r = await request.get(`/media/resource/${video.id}`);
    expect(r.status()).toBe(200);
    expect(Buffer.compare(await r.body(), fileBytes(video.file))).toBe(0);
    expect((await request.get(`/media/resource/${first(3, 'video').id}`)).status()).toBe(403);
  });

  test('bad addresses get a localized 400 or 404, other methods 405, and the media folder has no public path', async ({ request, baseURL }) => {
    const bad = await request.get('/media/resource/abc?lang=en');
    expect(bad.status()).toBe(400);
    expect(await bad.text()).toBe('The resource id must be a positive whole number.');
    expect(await (await request.get('/media/resource/0')).text()).toBe('El identificador del recurso debe ser un número entero positivo.');
    const lang = await request.get(`/media/resource/${first(1, 'video').id}/captions/fr.vtt`);
    expect(lang.status()).toBe(400);
    expect(await lang.text()).toBe('El idioma de los subtítulos debe ser «es» o «en».');
    expect((await request.get('/media/resource/999999')).status()).toBe(404);
    const del = await request.fetch(`/media/resource/${first(1, 'video').id}?lang=en`, { method: 'DELETE', headers: { origin: baseURL! } });
    expect(del.status()).toBe(405);
    expect(del.headers()['allow']).toBe('GET, HEAD');
    expect(await del.text()).toBe('This resource only accepts the GET and HEAD methods.');
    for (const path of ['/media/video/clip-1.webm', '/media/captions/clip-1.es.vtt', '/media/docs/guia-academia.pdf', '/video/clip-1.webm', '/docs/guia-academia.pdf', '/files/guia-academia.pdf', '/media/resource/..%2F..%2Fpackage.json']) {
      const r = await request.get(path);
      expect(r.status(), path).toBeGreaterThanOrEqual(400);
      expect(r.status(), path).toBeLessThan(500);
      expect(r.headers()['content-type'] ?? '', path).not.toMatch(/video|pdf|vtt/);
    }
  });
});
