/**
 * The resumable upload endpoint of the video library (the tus protocol, `@tus/server`): each upload is
 * a file and its offset on disk (`<DATA_DIR>/uploads`, `@tus/file-store`), so an upload survives a
 * dropped connection and a restart of the server. Who may upload is decided before a request reaches
 * here (`server/handlers/video-uploads.ts`), which hands over the uploader and the answer's language.
 */
import { Server, EVENTS } from '@tus/server';
import { FileStore } from '@tus/file-store';
import type { DataStore } from '@tus/server';
import { messages, format, type Locale } from '~/i18n';
import type { AppConfig } from '../config/config';
import type { Db } from '../db/client';
import type { Logger } from '../http/log.server';
import { paths } from '../paths';
import { createVideo, dropUpload, finishUpload, uploadsDir } from './videos.server';
import { formatBytes, titleOfFileName } from './videos';

/** Headers the upload handler sets (after removing any a client sent): the uploader's id, the answer's language. */
export const UPLOADER_HEADER = 'x-academy-uploader';
export const LOCALE_HEADER = 'x-academy-locale';

/**
 * Where unfinished uploads are kept: the data folder (`@tus/file-store`). The one seam for keeping them
 * in an S3-compatible store (`@tus/s3-store`) once the storage is configured for it; probing and
 * converting then read the finished file back from there.
 */
export function uploadDataStore(config: Pick<AppConfig, 'dataDir'>): DataStore {
  return new FileStore({ directory: uploadsDir(config.dataDir) });
}

const localeOf = (req: { headers: Headers }): Locale => (req.headers.get(LOCALE_HEADER) === 'en' ? 'en' : 'es');

/** A refusal tus answers with (`status_code`, a sentence in the uploader's language). */
const refuse = (status_code: number, body: string) => ({ status_code, body });

export interface UploadServerDeps {
  db: Db;
  config: Pick<AppConfig, 'dataDir' | 'trustProxy' | 'video'>;
  logger: Pick<Logger, 'info' | 'warn'>;
  /** Told when a finished upload is queued for conversion (a worker in this process starts at once). */
  queued?: ((videoId: number) => void) | undefined;
}

/** The tus server of video uploads, at `paths.videoUploads`. */
export function createUploadServer(deps: UploadServerDeps): Server {
  const max = deps.config.video.uploadMaxBytes;
  const server = new Server({
    path: paths.videoUploads,
    datastore: uploadDataStore(deps.config),
    maxSize: max,
    relativeLocation: true,
    respectForwardedHeaders: deps.config.trustProxy,
    async onUploadCreate(req, upload) {
      const t = messages(localeOf(req)).videos.refusals;
      const owner = Number(req.headers.get(UPLOADER_HEADER));
      if (!Number.isInteger(owner) || owner <= 0) throw refuse(403, t.forbidden);
      if (upload.size === undefined) throw refuse(400, t.noLength);
      if (upload.size === 0) throw refuse(400, t.empty);
      const title = titleOfFileName(upload.metadata?.filename ?? upload.metadata?.name ?? null);
      await createVideo(deps.db, { uploadId: upload.id, ownerId: owner, title, sizeBytes: upload.size });
      return {};
    },
    async onUploadFinish(req, upload) {
      const locale = localeOf(req);
      const outcome = await finishUpload(deps.db, deps.config.dataDir, upload.id);
      if (!outcome.ok) {
        const t = messages(locale).videos;
        throw refuse(422, format(t.states.failed, { reason: t.failures[outcome.failure] }));
      }
      deps.queued?.(outcome.videoId);
      return {};
    },
    onResponseError(req, err) {
      // tus's own refusals are English sentences: the uploader reads them in their language.
      const status = 'status_code' in err ? err.status_code : 500;
      const t = messages(localeOf(req)).videos.refusals;
      if (status === 413) return refuse(413, format(t.tooLarge, { size: formatBytes(max, localeOf(req)) }));
      if (status === 404 || status === 410) return refuse(404, t.unknownUpload);
      return undefined;
    },
  });
  server.on(EVENTS.POST_TERMINATE, (_req, _res, id) => void dropUpload(deps.db, id).catch(() => undefined));
  return server;
}
