/**
 * Rules for serving lesson media (videos, caption tracks, documents) that need no I/O: the address's
 * parameters, the answer's language, HTTP Range and conditional requests (RFC 9110), the headers of
 * every answer, and which status an access refusal gets.
 *
 * Status decisions:
 * - malformed resource id or caption language → 400;
 * - unknown resource, caption track or file on disk, and a course the person may not even see
 *   (refusal `not-found`: buyer-only or test courses) → 404, the same answer, so nothing tells a
 *   hidden course's resources from ids that do not exist;
 * - any other refusal (`login`, `prospect`, `purchase`, `prerequisite`) → 403, also for a visitor
 *   without a session: 401 would require a `WWW-Authenticate` challenge, and the academy logs people
 *   in with a form and a cookie, not with HTTP authentication.
 */
import { isAbsolute, resolve, sep } from 'node:path';
import { z } from '../zod';
import { format, messages, type Locale } from '~/i18n';
import type { Refusal } from '../access';

/* ───────────── request parameters ───────────── */

/** Largest id a PostgreSQL `serial` holds. */
const MAX_ID = 2_147_483_647;

/** A resource id in the address: digits only (no sign, exponent, hex or spaces), 1 … 2³¹−1. */
export const resourceIdSchema = z
  .string()
  .regex(/^[1-9]\d{0,9}$/)
  .transform(Number)
  .pipe(z.number().int().min(1).max(MAX_ID));

/** A caption track's language in the address. */
export const captionLangSchema = z.enum(['es', 'en']);
export type CaptionLang = z.infer<typeof captionLangSchema>;

/** What a media address names. */
export type MediaTarget = { kind: 'resource'; resourceId: number } | { kind: 'caption'; resourceId: number; lang: CaptionLang } | { kind: 'hls'; resourceId: number; path: string };

/** A file of an HLS folder in an address: `master.m3u8`, `720p/index.m3u8`, `720p/seg-004.ts` (nothing else). */
export const HLS_PATH = /^(?:master\.m3u8|\d{2,4}p\/(?:index\.m3u8|seg-\d{3,5}\.ts))$/;

/** Reads `/media/resource/{id}/hls/{path}`'s parameters. */
export function parseHlsParams(params: { id?: string | undefined; path?: string | undefined }): MediaTarget | { error: 'badId' | 'badLang' } {
  const id = resourceIdSchema.safeParse(params.id);
  if (!id.success) return { error: 'badId' };
  // A path outside the folder's shape is answered as a missing file, never resolved.
  return { kind: 'hls', resourceId: id.data, path: typeof params.path === 'string' && HLS_PATH.test(params.path) ? params.path : '' };
}

/** Reads `/media/resource/{id}`'s parameter, or says it is not a valid id. */
export function parseResourceParams(params: { id?: string | undefined }): MediaTarget | { error: 'badId' } {
  const id = resourceIdSchema.safeParse(params.id);
  return id.success ? { kind: 'resource', resourceId: id.data } : { error: 'badId' };
}

/** Reads `/media/resource/{id}/captions/{lang}.vtt`'s parameters, naming the first bad one. */
export function parseCaptionParams(params: { id?: string | undefined; lang?: string | undefined }): MediaTarget | { error: 'badId' | 'badLang' } {
  const id = resourceIdSchema.safeParse(params.id);
  if (!id.success) return { error: 'badId' };
  const lang = captionLangSchema.safeParse(params.lang);
  return lang.success ? { kind: 'caption', resourceId: id.data, lang: lang.data } : { error: 'badLang' };
}

/** The method and the Range and conditional headers of a media request. */
export function mediaAsk(method: 'GET' | 'HEAD', headers: Headers): MediaAsk {
  return { method, range: headers.get('range'), ifRange: headers.get('if-range'), ifNoneMatch: headers.get('if-none-match') };
}

/* ───────────── files ───────────── */

/**
 * The absolute path of `storageKey` inside `root`, or `null` when the key could leave it (absolute,
 * `..` segments, backslashes, NUL). Keys come from the database; this is the second lock on the door.
 */
export function resolveUnder(root: string, storageKey: string): string | null {
  if (!storageKey || storageKey.length > 500 || storageKey.includes('\0') || storageKey.includes('\\')) return null;
  if (isAbsolute(storageKey) || storageKey.split('/').some((s) => s === '..' || s === '')) return null;
  const base = resolve(root);
  const path = resolve(base, storageKey);
  return path.startsWith(base + sep) ? path : null;
}

/** A file name safe in a `Content-Disposition` header: the key's last segment, letters, digits, `.`, `_`, `-`. */
export function safeFileName(storageKey: string): string {
  const last = storageKey.split('/').pop() ?? '';
  const clean = last.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[.-]+/, '').slice(0, 100);
  return clean || 'file';
}

/** The Content-Type to send: text types get `charset=utf-8`. */
export function contentType(mimeType: string): string {
  return mimeType.startsWith('text/') && !mimeType.includes('charset') ? `${mimeType}; charset=utf-8` : mimeType;
}

/** A strong validator for a file's current bytes: its size and modification time. */
export function etagFor(size: number, mtimeMs: number): string {
  return `"${size.toString(16)}-${Math.floor(mtimeMs).toString(16)}"`;
}

/* ───────────── Range (RFC 9110 §14) ───────────── */

/** What a Range header asks of a file of a given size. `start`/`end` are inclusive byte offsets. */
export type RangeOutcome = { kind: 'full' } | { kind: 'partial'; start: number; end: number } | { kind: 'unsatisfiable' };

const digits = (s: string) => (/^\d+$/.test(s) ? (s.length > 15 ? Number.POSITIVE_INFINITY : Number(s)) : null);

/**
 * Reads a `Range` header against a file of `size` bytes. Only one `bytes` range is served: a missing,
 * malformed, other-unit or multi-range header is ignored (the whole file, as RFC 9110 allows), and so is
 * any range on an empty file. `a-b` (end clamped to the last byte), `a-` and the suffix `-n` (the last n
 * bytes, the whole file when n is larger) are partial; a start past the end or `-0` cannot be satisfied.
 */
export function parseRange(header: string | null | undefined, size: number): RangeOutcome {
  if (!header || size <= 0) return { kind: 'full' };
  const m = /^\s*bytes\s*=(.*)$/i.exec(header);
  if (!m) return { kind: 'full' };
  const specs = m[1]!.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (specs.length !== 1) return { kind: 'full' };
  const spec = /^(\d*)\s*-\s*(\d*)$/.exec(specs[0]!);
  if (!spec) return { kind: 'full' };
  const [, first = '', last = ''] = spec;
  if (first === '') {
    const suffix = digits(last);
    if (suffix === null) return { kind: 'full' };
    if (suffix === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = digits(first)!;
  const end = last === '' ? Number.POSITIVE_INFINITY : digits(last)!;
  if (end < start) return { kind: 'full' };
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'partial', start, end: Math.min(end, size - 1) };
}

/**
 * True when `If-Range` lets the Range header apply: absent, the file's current strong ETag, or exactly
 * its Last-Modified date. A weak or stale validator means "the file changed: send all of it".
 */
export function ifRangeMatches(ifRange: string | null | undefined, etag: string, mtimeMs: number): boolean {
  if (ifRange === null || ifRange === undefined) return true;
  const v = ifRange.trim();
  if (v.startsWith('"')) return v === etag;
  if (v.startsWith('W/')) return false;
  const date = Date.parse(v);
  return Number.isFinite(date) && date === Math.floor(mtimeMs / 1000) * 1000;
}

/** True when `If-None-Match` names the file's current ETag (weak comparison) or is `*`. */
export function noneMatchHits(ifNoneMatch: string | null | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = (t: string) => t.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((t) => t.trim() === '*' || bare(t) === bare(etag));
}

/* ───────────── answers ───────────── */

/** Bytes that belong to one person's access: a browser may keep them, shared caches never. */
export const MEDIA_CACHE_CONTROL = 'private, max-age=3600';

/** What the server knows about the file it is about to send. */
export interface MediaFileFacts {
  mimeType: string;
  size: number;
  mtimeMs: number;
  /** Used for `Content-Disposition`. */
  fileName: string;
}

/** The request's method and conditional headers. */
export interface MediaAsk {
  method: 'GET' | 'HEAD';
  range?: string | null | undefined;
  ifRange?: string | null | undefined;
  ifNoneMatch?: string | null | undefined;
}

/** How to answer: status, headers, and the body (a byte slice of the file, a text, or nothing). */
export interface MediaPlan {
  status: 200 | 206 | 304 | 416;
  headers: Record<string, string>;
  body: { start: number; end: number } | string | null;
}

/** Headers every media answer carries, success or not. */
function baseHeaders(): Record<string, string> {
  return { Vary: 'Cookie', 'X-Content-Type-Options': 'nosniff', 'Cross-Origin-Resource-Policy': 'same-origin' };
}

/**
 * Decides the answer for an allowed file: 304 when `If-None-Match` hits, 206 with `Content-Range`
 * for a satisfiable single range (unless `If-Range` is stale), 416 with `Content-Range: bytes *\/size`
 * for an unsatisfiable one, otherwise 200 with the whole file. HEAD gets the same headers, no body.
 */
export function planMedia(file: MediaFileFacts, ask: MediaAsk, locale: Locale): MediaPlan {
  const etag = etagFor(file.size, file.mtimeMs);
  const validators = {
    ...baseHeaders(),
    ETag: etag,
    'Last-Modified': new Date(Math.floor(file.mtimeMs / 1000) * 1000).toUTCString(),
    'Cache-Control': MEDIA_CACHE_CONTROL,
    'Accept-Ranges': 'bytes',
  };
  if (noneMatchHits(ask.ifNoneMatch, etag)) return { status: 304, headers: validators, body: null };
  const range = ifRangeMatches(ask.ifRange, etag, file.mtimeMs) ? parseRange(ask.range, file.size) : ({ kind: 'full' } as const);
  if (range.kind === 'unsatisfiable') {
    return {
      status: 416,
      headers: { ...validators, 'Cache-Control': 'no-store', 'Content-Range': `bytes */${file.size}`, 'Content-Type': 'text/plain; charset=utf-8', 'Content-Language': locale },
      body: ask.method === 'HEAD' ? null : format(messages(locale).media.rangeNotSatisfiable, { size: file.size }),
    };
  }
  const headers: Record<string, string> = {
    ...validators,
    'Content-Type': contentType(file.mimeType),
    'Content-Disposition': `inline; filename="${safeFileName(file.fileName)}"`,
  };
  const [status, start, end] = range.kind === 'partial' ? ([206, range.start, range.end] as const) : ([200, 0, file.size - 1] as const);
  if (status === 206) headers['Content-Range'] = `bytes ${start}-${end}/${file.size}`;
  headers['Content-Length'] = String(end - start + 1);
  return { status, headers, body: ask.method === 'HEAD' || file.size === 0 ? null : { start, end } };
}

/** The HTTP status of an access refusal: courses the person may not see are 404, the rest 403. */
export function refusalStatus(refusal: Refusal): 403 | 404 {
  return refusal === 'not-found' ? 404 : 403;
}

/** The sentence explaining a refusal in `locale`. */
export function refusalMessage(refusal: Refusal, locale: Locale): string {
  const t = messages(locale).media;
  return refusal === 'not-found' ? t.notFound : t.refused[refusal];
}

/** A plain-text answer in `locale` that no cache keeps (errors and refusals). */
export function textAnswer(status: number, text: string, locale: Locale, method: string = 'GET', extra: Record<string, string> = {}): Response {
  return new Response(method === 'HEAD' ? null : text, {
    status,
    headers: { ...baseHeaders(), 'Content-Type': 'text/plain; charset=utf-8', 'Content-Language': locale, 'Cache-Control': 'no-store', ...extra },
  });
}

/** The 405 answer for methods other than GET and HEAD. */
export function methodNotAllowed(locale: Locale): Response {
  return textAnswer(405, messages(locale).media.methodNotAllowed, locale, 'GET', { Allow: 'GET, HEAD' });
}
