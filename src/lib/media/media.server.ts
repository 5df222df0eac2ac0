/**
 * Serves lesson media bytes from `MEDIA_DIR` after checking, on every request, that the person may
 * open the course the file belongs to. Which file a resource or caption track is, and which course it
 * belongs to, is read once per id and kept until the catalogue changes; the access decision is never
 * kept. Bodies stream the requested byte range from disk (never the whole file in memory).
 */
import { open, type FileHandle } from 'node:fs/promises';
import { resolve } from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { Locale } from '~/i18n';
import { messages } from '~/i18n';
import { loadViewer, refusal, type Identity } from '../access';
import { getCatalog, onCatalogChange } from '../catalog';
import { readConfig } from '../config';
import type { Db } from '../db/client';
import { captions, mediaFiles, resources, subtopics, topics } from '../db/schema';
import { planMedia, refusalMessage, refusalStatus, resolveUnder, textAnswer, type CaptionLang, type MediaAsk, type MediaTarget } from './media';

/** The stored file behind a resource or caption track, and the course whose access rules guard it. */
export interface MediaFileTarget {
  courseId: number;
  /** Path relative to the media folder. */
  storageKey: string;
  mimeType: string;
  sizeBytes: number;
}

// Per database (tests open several), by target; only found files are kept, so probing ids cannot grow it.
let known = new WeakMap<Db, Map<string, MediaFileTarget>>();
let subscribed = false;

function cacheOf(db: Db): Map<string, MediaFileTarget> {
  if (!subscribed) {
    onCatalogChange(() => {
      known = new WeakMap();
    });
    subscribed = true;
  }
  let map = known.get(db);
  if (!map) {
    map = new Map();
    known.set(db, map);
  }
  return map;
}

async function cached(db: Db, key: string, load: () => Promise<MediaFileTarget | undefined>): Promise<MediaFileTarget | null> {
  const map = cacheOf(db);
  const hit = map.get(key);
  if (hit) return hit;
  const found = await load();
  if (found) map.set(key, found);
  return found ?? null;
}

const fileColumns = {
  courseId: topics.courseId,
  storageKey: mediaFiles.storageKey,
  mimeType: mediaFiles.mimeType,
  sizeBytes: mediaFiles.sizeBytes,
};

/** The file of a lesson resource (video or document), or `null` for unknown ids and link resources. */
export function resolveResourceFile(db: Db, resourceId: number): Promise<MediaFileTarget | null> {
  return cached(db, `r${resourceId}`, async () => {
    const [row] = await db
      .select(fileColumns)
      .from(resources)
      .innerJoin(mediaFiles, eq(mediaFiles.id, resources.mediaFileId))
      .innerJoin(subtopics, eq(subtopics.id, resources.subtopicId))
      .innerJoin(topics, eq(topics.id, subtopics.topicId))
      .where(eq(resources.id, resourceId))
      .limit(1);
    return row;
  });
}

/** The WebVTT file of a video resource's caption track in `lang`, or `null` when there is none. */
export function resolveCaptionFile(db: Db, resourceId: number, lang: CaptionLang): Promise<MediaFileTarget | null> {
  return cached(db, `c${resourceId}:${lang}`, async () => {
    const [row] = await db
      .select(fileColumns)
      .from(captions)
      .innerJoin(mediaFiles, eq(mediaFiles.id, captions.mediaFileId))
      .innerJoin(resources, eq(resources.id, captions.resourceId))
      .innerJoin(subtopics, eq(subtopics.id, resources.subtopicId))
      .innerJoin(topics, eq(topics.id, subtopics.topicId))
      .where(and(eq(captions.resourceId, resourceId), eq(captions.lang, lang)))
      .limit(1);
    return row;
  });
}

let root: string | null = null;

/** The absolute media folder (`MEDIA_DIR`, default `./media`, relative to the working directory). */
export function mediaRoot(): string {
  root ??= resolve(readConfig().mediaDir);
  return root;
}

/**
 * Resolves when the client can take more bytes (the HTTP response has drained). Astro's Node adapter
 * writes a body as fast as it can read it, ignoring backpressure, so without this a slow client would
 * make the server hold the rest of a large file in memory; the production server supplies it.
 */
export type ClientReady = () => Promise<void>;

/** A request for media bytes, as the endpoint read it. */
export interface MediaRequest extends MediaAsk {
  /** The language of error messages. */
  locale: Locale;
  /** Paces reading to the client; absent, the file is read as fast as the body is consumed. */
  ready?: ClientReady | undefined;
}

/** Bytes read from disk per chunk. */
const CHUNK = 64 * 1024;

/**
 * Bytes `start`–`end` of an open file as a web stream that reads one chunk per read request (never
 * ahead of the consumer) and waits for `ready` first. It closes the file at the end and on cancel.
 */
export function fileSlice(handle: FileHandle, start: number, end: number, ready: ClientReady = async () => undefined): ReadableStream<Uint8Array> {
  const source = handle.createReadStream({ start, end, highWaterMark: CHUNK });
  const chunks = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          await ready();
          const next = await chunks.next();
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        } catch (err) {
          source.destroy();
          controller.error(err);
        }
      },
      cancel() {
        source.destroy();
      },
    },
    { highWaterMark: 0 },
  );
}

/** Opens a regular file for reading, or `null` (missing, a folder, unreadable). */
async function openFile(path: string): Promise<{ handle: FileHandle; size: number; mtimeMs: number } | null> {
  let handle: FileHandle | null = null;
  try {
    handle = await open(path, 'r');
    const stats = await handle.stat();
    if (stats.isFile()) return { handle, size: stats.size, mtimeMs: stats.mtimeMs };
  } catch {
    /* answered below as not found */
  }
  await handle?.close().catch(() => undefined);
  return null;
}

/**
 * Answers one media request: a plain-text refusal for what cannot be served (404 unknown or hidden,
 * 403 refused, with the reason in `req.locale`), otherwise the file or the requested byte range.
 */
export async function serveMedia(db: Db, identity: Identity | null | undefined, target: MediaTarget, req: MediaRequest, mediaDir = mediaRoot()): Promise<Response> {
  const { locale, method } = req;
  const notFound = () => textAnswer(404, messages(locale).media.notFound, locale, method);
  const file = target.kind === 'resource' ? await resolveResourceFile(db, target.resourceId) : await resolveCaptionFile(db, target.resourceId, target.lang);
  if (!file) return notFound();
  const [catalog, viewer] = await Promise.all([getCatalog(db), loadViewer(db, identity)]);
  const course = catalog.byId.get(file.courseId);
  if (!course) return notFound();
  const why = refusal(course, viewer);
  if (why) return textAnswer(refusalStatus(why), refusalMessage(why, locale), locale, method);

  const path = resolveUnder(mediaDir, file.storageKey);
  const opened = path === null ? null : await openFile(path);
  if (!opened) return notFound();
  const plan = planMedia({ mimeType: file.mimeType, size: opened.size, mtimeMs: opened.mtimeMs, fileName: file.storageKey }, req, locale);
  if (plan.body === null || typeof plan.body === 'string') {
    await opened.handle.close();
    return new Response(plan.body, { status: plan.status, headers: plan.headers });
  }
  // The stream closes the file when it ends, and when the client goes away (the reader is cancelled).
  return new Response(fileSlice(opened.handle, plan.body.start, plan.body.end, req.ready), { status: plan.status, headers: plan.headers });
}
