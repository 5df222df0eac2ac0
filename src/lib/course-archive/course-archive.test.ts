/**
 * The archive format's rules: `course.json` read strictly (format, version, both languages, whole
 * cents), the media it names, the code an imported course gets, and who may import or export one.
 */
import { describe, expect, it } from 'vitest';
import { ACTION_RULES } from '../../actions/access';
import { accessVerdict } from '../access/policy';
import { staffGate } from '../staff';
import { archiveToDoc, freeCode, importFolder, importStartedAt, parseArchiveJson, referencedMedia, sniffMedia, type CourseArchive } from './course-archive';

const both = (es: string, en: string) => ({ es, en });
function sample(): CourseArchive {
  return {
    format: 'academy-course',
    version: 1,
    exportedAt: '2026-11-27T00:00:00.000Z',
    course: {
      code: 'VENTAS-101',
      name: both('Ventas', 'Sales'),
      description: both('', ''),
      thumbnail: { sitePath: '/images/courses/1.webp', file: 'media/thumbnail.webp' },
      category: { code: 2, name: both('Introductorio', 'Introductory') },
      business: { code: 1, name: both('Viajes', 'Travel') },
      priceCents: 1250,
      allowAll: false,
      isTest: false,
      visibleOnlyToBuyers: false,
      hidden: false,
      prerequisiteCode: null,
      modules: [
        {
          name: both('Inicio', 'Start'),
          lessons: [
            {
              name: both('Hola', 'Hello'),
              summary: both('Uno', 'One'),
              resources: [
                { kind: 'video', title: both('Vídeo', 'Video'), file: 'media/1.mp4', captions: { es: 'media/2.vtt' } },
                { kind: 'link', title: both('Guía', 'Guide'), url: 'https://example.com/guia' },
              ],
            },
          ],
        },
      ],
      exam: { attempts: 3, questions: 1, minutes: 10, minimumScore: 70, bank: [{ kind: 'true-false', prompt: both('¿Sí?', 'Yes?'), explanation: both('', ''), options: [{ text: both('Verdadero', 'True'), correct: true }, { text: both('Falso', 'False'), correct: false }] }] },
    },
    media: [
      { path: 'media/1.mp4', contentType: 'video/mp4', sizeBytes: 10, durationSeconds: '1.50' },
      { path: 'media/2.vtt', contentType: 'text/vtt', sizeBytes: 10, durationSeconds: null },
      { path: 'media/thumbnail.webp', contentType: 'image/webp', sizeBytes: 10, durationSeconds: null },
    ],
  };
}
const read = (change: (a: CourseArchive & Record<string, unknown>) => void) => {
  const a = sample() as CourseArchive & Record<string, unknown>;
  change(a);
  return parseArchiveJson(JSON.stringify(a));
};

describe('the course archive format', () => {
  it('reads a well-formed course.json and names every media file it uses', () => {
    const r = parseArchiveJson(JSON.stringify(sample()));
    expect(r.ok).toBe(true);
    expect(referencedMedia(sample()).sort()).toEqual(['media/1.mp4', 'media/2.vtt', 'media/thumbnail.webp']);
  });

  it('refuses another format or version, a missing translation, a price that is not whole cents ≥ 0, paths that leave media/', () => {
    expect(parseArchiveJson('{nope')).toMatchObject({ ok: false, problem: 'notJson' });
    expect(read((a) => (a.format = 'moodle' as never))).toMatchObject({ ok: false, problem: 'format' });
    expect(read((a) => (a.version = 2 as never))).toMatchObject({ ok: false, problem: 'version' });
    expect(read((a) => (a.course.name.en = '  '))).toMatchObject({ ok: false, problem: 'translation', path: 'course.name.en' });
    expect(read((a) => (a.course.modules[0]!.lessons[0]!.summary.es = ''))).toMatchObject({ ok: false, problem: 'translation' });
    expect(read((a) => (a.course.exam!.bank[0]!.options[0]!.text.en = ''))).toMatchObject({ ok: false, problem: 'translation' });
    expect(read((a) => (a.course.priceCents = -1))).toMatchObject({ ok: false, problem: 'price' });
    expect(read((a) => (a.course.priceCents = 12.5))).toMatchObject({ ok: false, problem: 'price' });
    expect(read((a) => (a.course.priceCents = '1250' as never))).toMatchObject({ ok: false, problem: 'price' });
    for (const path of ['../etc/passwd', '/media/1.mp4', 'media/../1.mp4', 'media/a/b.mp4', 'media\\1.mp4'])
      expect(read((a) => ((a.course.modules[0]!.lessons[0]!.resources[0] as { file: string }).file = path))).toMatchObject({ ok: false, problem: 'invalid' });
    expect(read((a) => (a.media[0]!.contentType = 'text/html'))).toMatchObject({ ok: false, problem: 'invalid' });
    expect(read((a) => ((a.course.modules[0]!.lessons[0]!.resources[1] as { url: string }).url = 'javascript:alert(1)'))).toMatchObject({ ok: false, problem: 'invalid' });
  });

  it('gives an imported course its own code when free, else the first free suffix that fits', () => {
    expect(freeCode('VENTAS-101', new Set(['otro']))).toBe('VENTAS-101');
    expect(freeCode('VENTAS-101', new Set(['ventas-101', 'ventas-101-2']))).toBe('VENTAS-101-3');
    const long = 'A'.repeat(40);
    expect(freeCode(long, new Set([long.toLowerCase()]))).toBe(`${'A'.repeat(38)}-2`);
  });

  it('turns the archive into a draft document with new keys, no ids, and the files here', () => {
    let n = 0;
    const doc = archiveToDoc(sample(), { code: 'VENTAS-101-2', thumbnail: '/images/courses/1.webp', prerequisiteId: null, mediaIds: new Map([['media/1.mp4', 77]]) }, () => `n${++n}`);
    expect(doc).toMatchObject({ code: 'VENTAS-101-2', priceCents: 1250, categoryId: 2, businessId: 1 });
    expect(doc.modules[0]!.lessons[0]!.resources.map((r) => [r.key, r.id, r.kind, r.mediaFileId, r.url])).toEqual([
      ['n3', null, 'video', 77, null],
      ['n4', null, 'link', null, 'https://example.com/guia'],
    ]);
  });

  it('tells a file by its first bytes, not by the type the archive declares', () => {
    const b = (s: string) => Buffer.from(s, 'latin1');
    expect(sniffMedia('video/mp4', b('\u0000\u0000\u0000\u0018ftypisom'))).toBe(true);
    expect(sniffMedia('video/mp4', b('<html><body>'))).toBe(false);
    expect(sniffMedia('video/webm', Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 1]))).toBe(true);
    expect(sniffMedia('application/pdf', b('%PDF-1.7'))).toBe(true);
    expect(sniffMedia('application/pdf', b('PK\u0003\u0004'))).toBe(false);
    expect(sniffMedia('text/vtt', Buffer.from('\uFEFFWEBVTT\n\n00:00.000 --> 00:01.000\n<c.yellow>Hola</c>\n'))).toBe(true);
    expect(sniffMedia('text/vtt', b('WEBVTT\n\n00:00.000 --> 00:01.000\n<script>alert(1)</script>'))).toBe(false);
    expect(sniffMedia('text/vtt', b('<html>WEBVTT'))).toBe(false);
    expect(sniffMedia('image/webp', b('RIFF\u0000\u0000\u0000\u0000WEBPVP8 '))).toBe(true);
    expect(sniffMedia('image/png', b('<svg xmlns="http://www.w3.org/2000/svg">'))).toBe(false);
    expect(sniffMedia('text/html', b('<html>'))).toBe(false);
  });

  it('names an import\'s folder by when it started, and reads that time back from its keys', () => {
    const at = new Date('2026-11-27T13:00:00.000Z');
    const folder = importFolder(at, '0123456789abcdef');
    expect(folder).toMatch(/^imports\/[0-9a-z]+-0123456789abcdef\/$/);
    expect(importStartedAt(`${folder}1.mp4`)).toBe(at.getTime());
    // An older import's folder (random only) or another folder says nothing.
    for (const key of ['imports/0123456789abcdef/1.mp4', 'videos/1/master.m3u8', 'imports/x-y/1.mp4']) expect(importStartedAt(key)).toBeNull();
  });

  it('lets editors and administrators import and export; learners and support staff are refused', () => {
    expect(ACTION_RULES['courseArchive.import'].access).toBe('editor');
    expect(accessVerdict('editor', { session: 'user', roles: ['support'] })).toBe('forbidden');
    expect(accessVerdict('editor', { session: 'user', roles: [] })).toBe('forbidden');
    expect(accessVerdict('editor', { session: 'visitor', roles: [] })).toBe('unauthorized');
    expect(accessVerdict('editor', { session: 'user', roles: ['administrator'] })).toBe('allowed');
    expect(staffGate(null, 'editor')).toBe('login');
  });
});
