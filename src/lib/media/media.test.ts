import { describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import {
  contentType,
  etagFor,
  ifRangeMatches,
  mediaAsk,
  noneMatchHits,
  parseCaptionParams,
  parseRange,
  parseResourceParams,
  planMedia,
  refusalMessage,
  refusalStatus,
  resolveUnder,
  safeFileName,
  textAnswer,
  type MediaFileFacts,
} from './media';

describe('parseRange', () => {
  const size = 1000;
  const part = (start: number, end: number) => ({ kind: 'partial', start, end });

  it('serves the whole file without a Range header', () => {
    expect(parseRange(null, size)).toEqual({ kind: 'full' });
    expect(parseRange(undefined, size)).toEqual({ kind: 'full' });
    expect(parseRange('', size)).toEqual({ kind: 'full' });
  });

  it('reads first-last ranges, including the first and the last byte', () => {
    expect(parseRange('bytes=0-0', size)).toEqual(part(0, 0));
    expect(parseRange('bytes=999-999', size)).toEqual(part(999, 999));
    expect(parseRange('bytes=0-999', size)).toEqual(part(0, 999));
    expect(parseRange('bytes=100-199', size)).toEqual(part(100, 199));
  });

  it('clamps an end past the file to its last byte', () => {
    expect(parseRange('bytes=500-5000', size)).toEqual(part(500, 999));
    expect(parseRange('bytes=0-99999999999999999999999', size)).toEqual(part(0, 999));
  });

  it('reads open ranges to the end', () => {
    expect(parseRange('bytes=0-', size)).toEqual(part(0, 999));
    expect(parseRange('bytes=999-', size)).toEqual(part(999, 999));
  });

  it('reads suffix ranges; a suffix longer than the file is the whole file as a range', () => {
    expect(parseRange('bytes=-1', size)).toEqual(part(999, 999));
    expect(parseRange('bytes=-100', size)).toEqual(part(900, 999));
    expect(parseRange('bytes=-1000', size)).toEqual(part(0, 999));
    expect(parseRange('bytes=-5000', size)).toEqual(part(0, 999));
  });

  it('cannot satisfy a start at or past the end, or an empty suffix', () => {
    expect(parseRange('bytes=1000-', size)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=1000-2000', size)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=99999999999999999999-', size)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=-0', size)).toEqual({ kind: 'unsatisfiable' });
  });

  it('ignores malformed headers and other units (the whole file, per RFC 9110)', () => {
    for (const h of ['bytes', 'bytes=', 'bytes=-', 'bytes=abc', 'bytes=1-a', 'bytes=+1-2', 'bytes=1.5-2', 'bytes=0x10-20', 'items=0-10', 'bytes 0-10', 'bytes=5-4', 'bytes=--5']) {
      expect(parseRange(h, size), h).toEqual({ kind: 'full' });
    }
  });

  it('ignores multi-range requests (the whole file instead of multipart/byteranges)', () => {
    expect(parseRange('bytes=0-10,20-30', size)).toEqual({ kind: 'full' });
    expect(parseRange('bytes=0-10, -5', size)).toEqual({ kind: 'full' });
    expect(parseRange('bytes=2000-3000,0-1', size)).toEqual({ kind: 'full' });
  });

  it('tolerates case, spaces around the list and empty list elements', () => {
    expect(parseRange('Bytes=0-9', size)).toEqual(part(0, 9));
    expect(parseRange('bytes= 0-9 ', size)).toEqual(part(0, 9));
    expect(parseRange('bytes=0-9,', size)).toEqual(part(0, 9));
  });

  it('serves an empty file whole, whatever the range', () => {
    for (const h of ['bytes=0-', 'bytes=-5', 'bytes=0-0', 'bytes=10-20']) expect(parseRange(h, 0), h).toEqual({ kind: 'full' });
  });
});

describe('conditional requests', () => {
  const etag = etagFor(1000, 1_700_000_000_123.4);
  const mtime = 1_700_000_000_123.4;

  it('builds a strong ETag from size and modification time', () => {
    expect(etag).toBe('"3e8-18bcfe5687b"');
    expect(etagFor(1001, mtime)).not.toBe(etag);
    expect(etagFor(1000, mtime + 5000)).not.toBe(etag);
  });

  it('applies the range only when If-Range names the current file', () => {
    expect(ifRangeMatches(null, etag, mtime)).toBe(true);
    expect(ifRangeMatches(etag, etag, mtime)).toBe(true);
    expect(ifRangeMatches('"other"', etag, mtime)).toBe(false);
    expect(ifRangeMatches(`W/${etag}`, etag, mtime)).toBe(false);
    expect(ifRangeMatches(new Date(1_700_000_000_000).toUTCString(), etag, mtime)).toBe(true);
    expect(ifRangeMatches(new Date(1_600_000_000_000).toUTCString(), etag, mtime)).toBe(false);
    expect(ifRangeMatches('not a date', etag, mtime)).toBe(false);
  });

  it('matches If-None-Match weakly, in lists and with *', () => {
    expect(noneMatchHits(etag, etag)).toBe(true);
    expect(noneMatchHits(`"x", W/${etag}`, etag)).toBe(true);
    expect(noneMatchHits('*', etag)).toBe(true);
    expect(noneMatchHits('"x"', etag)).toBe(false);
    expect(noneMatchHits(null, etag)).toBe(false);
  });
});

describe('planMedia', () => {
  const video: MediaFileFacts = { mimeType: 'video/webm', size: 1000, mtimeMs: 1_700_000_000_000, fileName: 'video/clip-1.webm' };
  const get = (headers: Record<string, string> = {}) => mediaAsk('GET', new Headers(headers));

  it('sends the whole file with 200 and private, cookie-varying caching', () => {
    const plan = planMedia(video, get(), 'es');
    expect(plan.status).toBe(200);
    expect(plan.body).toEqual({ start: 0, end: 999 });
    expect(plan.headers).toMatchObject({
      'Content-Type': 'video/webm',
      'Content-Length': '1000',
      'Accept-Ranges': 'bytes',
      'Cache-Control': 'private, max-age=3600',
      Vary: 'Cookie',
      'X-Content-Type-Options': 'nosniff',
      'Content-Disposition': 'inline; filename="clip-1.webm"',
      ETag: etagFor(1000, 1_700_000_000_000),
      'Last-Modified': 'Tue, 14 Nov 2023 22:13:20 GMT',
    });
    expect(plan.headers['Content-Range']).toBeUndefined();
    expect(plan.headers['Cache-Control']).not.toContain('public');
  });

  it('sends a byte range with 206, Content-Range and its own length', () => {
    const plan = planMedia(video, get({ range: 'bytes=100-199' }), 'es');
    expect(plan).toMatchObject({ status: 206, body: { start: 100, end: 199 } });
    expect(plan.headers).toMatchObject({ 'Content-Range': 'bytes 100-199/1000', 'Content-Length': '100' });
    const last = planMedia(video, get({ range: 'bytes=-1' }), 'es');
    expect(last.headers).toMatchObject({ 'Content-Range': 'bytes 999-999/1000', 'Content-Length': '1' });
  });

  it('answers an unsatisfiable range with 416, bytes */size and a localized text', () => {
    const es = planMedia(video, get({ range: 'bytes=1000-' }), 'es');
    expect(es.status).toBe(416);
    expect(es.headers).toMatchObject({ 'Content-Range': 'bytes */1000', 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
    expect(es.body).toBe('El rango pedido está fuera del archivo, que tiene 1000 bytes.');
    expect(planMedia(video, get({ range: 'bytes=5000-6000' }), 'en').body).toBe('The requested range is outside the file, which has 1000 bytes.');
  });

  it('sends the whole file when If-Range is stale, the range when it is current', () => {
    const etag = etagFor(video.size, video.mtimeMs);
    expect(planMedia(video, get({ range: 'bytes=0-9', 'if-range': '"stale"' }), 'es').status).toBe(200);
    expect(planMedia(video, get({ range: 'bytes=0-9', 'if-range': etag }), 'es').status).toBe(206);
  });

  it('answers 304 without a body when the browser has the current bytes', () => {
    const plan = planMedia(video, get({ 'if-none-match': etagFor(video.size, video.mtimeMs), range: 'bytes=0-9' }), 'es');
    expect(plan).toMatchObject({ status: 304, body: null });
    expect(plan.headers).toMatchObject({ ETag: etagFor(video.size, video.mtimeMs), 'Cache-Control': 'private, max-age=3600' });
  });

  it('gives HEAD the same status and headers without a body', () => {
    const plan = planMedia(video, mediaAsk('HEAD', new Headers({ range: 'bytes=0-9' })), 'es');
    expect(plan).toMatchObject({ status: 206, body: null });
    expect(plan.headers).toMatchObject({ 'Content-Length': '10', 'Content-Range': 'bytes 0-9/1000' });
  });

  it('sends an empty file as an empty 200', () => {
    const plan = planMedia({ ...video, size: 0 }, get({ range: 'bytes=0-' }), 'es');
    expect(plan).toMatchObject({ status: 200, body: null });
    expect(plan.headers['Content-Length']).toBe('0');
  });

  it('labels captions as UTF-8 WebVTT and documents as inline PDFs with a safe name', () => {
    expect(planMedia({ ...video, mimeType: 'text/vtt', fileName: 'captions/clip-1.es.vtt' }, get(), 'es').headers['Content-Type']).toBe('text/vtt; charset=utf-8');
    const pdf = planMedia({ ...video, mimeType: 'application/pdf', fileName: 'docs/guia-academia.pdf' }, get(), 'es');
    expect(pdf.headers).toMatchObject({ 'Content-Type': 'application/pdf', 'Content-Disposition': 'inline; filename="guia-academia.pdf"' });
  });
});

describe('file names and paths', () => {
  it('keeps Content-Disposition file names to safe characters', () => {
    expect(safeFileName('docs/guia-academia.pdf')).toBe('guia-academia.pdf');
    expect(safeFileName('docs/a"b\r\nSet-Cookie: x.pdf')).toBe('a-b-Set-Cookie-x.pdf');
    expect(safeFileName('docs/guía ñandú.pdf')).toBe('gu-a-and-.pdf');
    expect(safeFileName('docs/..')).toBe('file');
    expect(contentType('text/vtt; charset=utf-8')).toBe('text/vtt; charset=utf-8');
  });

  it('resolves storage keys inside the media folder and refuses any way out', () => {
    const root = '/srv/media';
    expect(resolveUnder(root, 'video/clip-1.webm')).toBe(resolve('/srv/media/video/clip-1.webm'));
    expect(resolveUnder('./media', 'docs/a.pdf')).toBe(resolve('media/docs/a.pdf'));
    for (const key of ['../secret', 'video/../../etc/passwd', 'video/..', '/etc/passwd', 'video\\..\\..\\x', 'a\0b', '', 'video//x', 'video/', '..']) {
      expect(resolveUnder(root, key), JSON.stringify(key)).toBeNull();
    }
    expect(resolveUnder(root, 'docs/./a.pdf')).toBe(resolve('/srv/media/docs/a.pdf'));
  });
});

describe('parameters and language', () => {
  it('accepts only positive whole ids in plain digits', () => {
    expect(parseResourceParams({ id: '1' })).toEqual({ kind: 'resource', resourceId: 1 });
    expect(parseResourceParams({ id: '2147483647' })).toEqual({ kind: 'resource', resourceId: 2147483647 });
    for (const id of ['0', '-1', '01', '1.5', '1e3', '0x10', ' 1', 'abc', '', '2147483648', '99999999999', undefined]) {
      expect(parseResourceParams({ id }), String(id)).toEqual({ error: 'badId' });
    }
  });

  it('accepts caption languages es and en, after a valid id', () => {
    expect(parseCaptionParams({ id: '7', lang: 'en' })).toEqual({ kind: 'caption', resourceId: 7, lang: 'en' });
    expect(parseCaptionParams({ id: '7', lang: 'fr' })).toEqual({ error: 'badLang' });
    expect(parseCaptionParams({ id: '7', lang: 'EN' })).toEqual({ error: 'badLang' });
    expect(parseCaptionParams({ id: 'x', lang: 'fr' })).toEqual({ error: 'badId' });
  });
});

describe('refusals', () => {
  it('hides courses the person may not see (404) and refuses the rest (403)', () => {
    expect(refusalStatus('not-found')).toBe(404);
    for (const r of ['login', 'prospect', 'purchase', 'prerequisite'] as const) expect(refusalStatus(r)).toBe(403);
  });

  it('explains a refusal in both languages, with the exact prerequisite text', () => {
    expect(refusalMessage('prerequisite', 'en')).toBe('You must complete the basic course to access this course');
    expect(refusalMessage('prerequisite', 'es')).toBe('Debes completar el curso básico para acceder a este curso');
    expect(refusalMessage('purchase', 'en')).toBe('You do not have access to this lesson. Buy the course to watch it.');
    expect(refusalMessage('login', 'es')).toBe('No tienes acceso a esta lección. Inicia sesión para verla.');
    expect(refusalMessage('not-found', 'en')).toBe('This resource does not exist or is no longer available.');
  });

  it('sends refusals as uncached plain text, without a body for HEAD', async () => {
    const r = textAnswer(403, 'No', 'es');
    expect(r.status).toBe(403);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(r.headers.get('content-language')).toBe('es');
    expect(await r.text()).toBe('No');
    expect(textAnswer(403, 'No', 'es', 'HEAD').body).toBeNull();
  });
});
