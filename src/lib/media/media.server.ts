/**
 * Serves lesson media bytes from the storage (`runtime.storage`: the local folder or an object store)
 * after checking, on every request, that the person may open the course the file belongs to. Which file a resource or caption track is, and which course it
 * belongs to, is read once per id and kept until the catalogue changes; the access decision is never
 * kept. Bodies stream the requested byte range from the storage (never the whole file in memory).
 */
import { and, eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Locale } from '~/i18n';
import { messages } from '~/i18n';
import { refusal } from '../access/access';
import type { Identity } from '../access/access.server';
import type { Store } from '../access/store.server';
import type { Db } from '../db/client';
import { captions, mediaFiles, resources, subtopics, topics, videoCaptions, videos } from '../db/schema';
import { isStorageKey, type Storage } from '../storage';
import { planMedia, refusalMessage, refusalStatus, textAnswer, type CaptionLang, type MediaAsk, type MediaTarget } from './media';

/** The stored file behind a resource or caption track, and the course whose access rules guard it. */
export interface MediaFileTarget {
  courseId: number;
  /** The file's key in the storage. */
  storageKey: string;
  mimeType: string;
  sizeBytes: number;
  createdAt: Date;
}

/**
 * Which file an id names, kept per scope (the catalogue snapshot it was read with, so a catalogue change
 * starts afresh), by target; only found files are kept, so probing ids cannot grow it.
 */
const known = new WeakMap<object, Map<string, MediaFileTarget>>();

async function cached(scope: object, key: string, load: () => Promise<MediaFileTarget | undefined>): Promise<MediaFileTarget | null> {
  let map = known.get(scope);
  if (!map) {
    map = new Map();
    known.set(scope, map);
  }
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
  createdAt: mediaFiles.createdAt,
};

/** The file of a lesson resource (video or document), or `null` for unknown ids and link resources; kept per `scope`. */
export function resolveResourceFile(db: Db, resourceId: number, scope: object = db): Promise<MediaFileTarget | null> {
  return cached(scope, `r${resourceId}`, async () => {
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

/**
 * The HLS master playlist a video resource plays: its own file when that is one (a library video), or
 * the ready conversion of its shipped file (a demo clip the video worker converted); `null` otherwise.
 * Only found playlists are kept, so a conversion that becomes ready is found on the next request.
 */
export async function resolveResourceHls(db: Db, resourceId: number, scope: object = db): Promise<MediaFileTarget | null> {
  const own = await resolveResourceFile(db, resourceId, scope);
  if (!own || hlsFolder(own)) return own;
  const master = alias(mediaFiles, 'master');
  return cached(scope, `h${resourceId}`, async () => {
    const [row] = await db
      .select({ courseId: topics.courseId, storageKey: master.storageKey, mimeType: master.mimeType, sizeBytes: master.sizeBytes, createdAt: master.createdAt })
      .from(resources)
      .innerJoin(videos, and(eq(videos.sourceMediaFileId, resources.mediaFileId), eq(videos.state, 'ready')))
      .innerJoin(master, eq(master.id, videos.mediaFileId))
      .innerJoin(subtopics, eq(subtopics.id, resources.subtopicId))
      .innerJoin(topics, eq(topics.id, subtopics.topicId))
      .where(eq(resources.id, resourceId))
      .limit(1);
    return row;
  });
}

/** The WebVTT file of a video resource's caption track in `lang`, or `null` when there is none. */
export function resolveCaptionFile(db: Db, resourceId: number, lang: CaptionLang, scope: object = db): Promise<MediaFileTarget | null> {
  return cached(scope, `c${resourceId}:${lang}`, async () => {
    const [row] = await db
      .select(fileColumns)
      .from(captions)
      .innerJoin(mediaFiles, eq(mediaFiles.id, captions.mediaFileId))
      .innerJoin(resources, eq(resources.id, captions.resourceId))
      .innerJoin(subtopics, eq(subtopics.id, resources.subtopicId))
      .innerJoin(topics, eq(topics.id, subtopics.topicId))
      .where(and(eq(captions.resourceId, resourceId), eq(captions.lang, lang)))
      .limit(1);
    if (row) return row;
    // A library video's own caption track, when the resource plays one.
    const [library] = await db
      .select(fileColumns)
      .from(resources)
      .innerJoin(videos, eq(videos.mediaFileId, resources.mediaFileId))
      .innerJoin(videoCaptions, and(eq(videoCaptions.videoId, videos.id), eq(videoCaptions.lang, lang)))
      .innerJoin(mediaFiles, eq(mediaFiles.id, videoCaptions.mediaFileId))
      .innerJoin(subtopics, eq(subtopics.id, resources.subtopicId))
      .innerJoin(topics, eq(topics.id, subtopics.topicId))
      .where(eq(resources.id, resourceId))
      .limit(1);
    return library;
  });
}

/** The folder of an HLS master playlist's key (`videos/12/`), or null for a file that is not one. */
export function hlsFolder(file: MediaFileTarget): string | null {
  if (file.mimeType !== 'application/vnd.apple.mpegurl' || !file.storageKey.endsWith('/master.m3u8')) return null;
  return file.storageKey.slice(0, -'master.m3u8'.length);
}

/**
 * Answers a request for stored object `key` (Range, validators); 404 when it is not there. A key that
 * breaks the storage's rule is never asked for (the database is not trusted to be right).
 */
export async function serveStored(storage: Storage, key: string, mimeType: string, req: MediaRequest): Promise<Response> {
  const { locale, method } = req;
  const notFound = () => textAnswer(404, messages(locale).media.notFound, locale, method);
  const stored = isStorageKey(key) ? await storage.stat(key) : null;
  if (!stored) return notFound();
  const plan = planMedia({ mimeType, size: stored.sizeBytes, mtimeMs: stored.modifiedMs ?? 0, fileName: key }, req, locale);
  if (plan.body === null || typeof plan.body === 'string') return new Response(plan.body, { status: plan.status, headers: plan.headers });
  const { start, end } = plan.body;
  const whole = start === 0 && end === stored.sizeBytes - 1;
  const read = await storage.get(key, whole ? undefined : { start, end });
  // Deleted between the two questions: as if it had never been there.
  if (!read) return notFound();
  // The stream lets go of the object when it ends, and when the client goes away (the reader is cancelled).
  return new Response(streamSlice(read.body, req.ready), { status: plan.status, headers: plan.headers });
}

/** The content type of an HLS file by its name. */
const hlsType = (path: string) => (path.endsWith('.ts') ? 'video/mp2t' : 'application/vnd.apple.mpegurl');


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

/**
 * A stored object's bytes (a Node stream from the storage) as a web stream that takes one chunk per
 * read request (never ahead of the consumer) and waits for `ready` first. It lets go of the source at
 * the end, on failure and on cancel (the client went away).
 */
export function streamSlice(source: NodeJS.ReadableStream, ready: ClientReady = async () => undefined): ReadableStream<Uint8Array> {
  const chunks = (source as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
  const destroy = () => (source as { destroy?: () => void }).destroy?.();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          await ready();
          const next = await chunks.next();
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        } catch (err) {
          destroy();
          controller.error(err);
        }
      },
      cancel() {
        destroy();
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * Answers one media request: a plain-text refusal for what cannot be served (404 unknown or hidden,
 * 403 refused, with the reason in `req.locale`), otherwise the file or the requested byte range.
 */
export async function serveMedia(store: Store, identity: Identity | null | undefined, target: MediaTarget, req: MediaRequest, storage: Storage): Promise<Response> {
  const { locale, method } = req;
  const notFound = () => textAnswer(404, messages(locale).media.notFound, locale, method);
  const { db } = store;
  const catalog = await store.catalog();
  const file =
    target.kind === 'caption'
      ? await resolveCaptionFile(db, target.resourceId, target.lang, catalog)
      : target.kind === 'hls'
        ? await resolveResourceHls(db, target.resourceId, catalog)
        : await resolveResourceFile(db, target.resourceId, catalog);
  if (!file) return notFound();
  const viewer = await store.viewer(identity);
  const course = catalog.byId.get(file.courseId);
  if (!course) return notFound();
  const why = refusal(course, viewer);
  if (why) return textAnswer(refusalStatus(why), refusalMessage(why, locale), locale, method);

  // An HLS video is addressed by its folder's files; its master key alone is not a file to download.
  const folder = hlsFolder(file);
  if ((target.kind === 'hls') !== (folder !== null) || (target.kind === 'hls' && target.path === '')) return notFound();
  if (target.kind === 'hls') return serveStored(storage, `${folder}${target.path}`, hlsType(target.path), req);
  return serveStored(storage, file.storageKey, file.mimeType, req);
}
