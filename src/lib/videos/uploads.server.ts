/**
 * The resumable upload endpoint of the video library (the tus protocol, `@tus/server`): each upload is
 * kept with its offset in the data folder, or in the configured bucket (`upload-files.server.ts`), so an
 * upload survives a dropped connection and a restart of the server, and with a bucket, continues on
 * another machine. Who may upload is decided before a request reaches
 * here (`server/handlers/video-uploads.ts`), which hands over the uploader and the answer's language.
 */
import { Server, EVENTS, ERRORS } from '@tus/server';
import { messages, format, type Locale } from '~/i18n';
import type { AppConfig } from '../config/config';
import type { Db } from '../db/client';
import type { Logger } from '../http/log.server';
import { paths } from '../paths';
import type { Storage } from '../storage/storage';
import { createVideo, dropUpload, finishUpload } from './videos.server';
import { uploadDataStore, uploadedFiles } from './upload-files.server';
import { uploadLocker } from './upload-lock.server';
import { formatBytes, titleOfFileName } from './videos';

/** Headers the upload handler sets (after removing any a client sent): the uploader's id, the answer's language. */
export const UPLOADER_HEADER = 'x-academy-uploader';
export const LOCALE_HEADER = 'x-academy-locale';

const localeOf = (req: { headers: Headers }): Locale => (req.headers.get(LOCALE_HEADER) === 'en' ? 'en' : 'es');

/** A refusal tus answers with (`status_code`, a sentence in the uploader's language). */
const refuse = (status_code: number, body: string) => ({ status_code, body });

export interface UploadServerDeps {
  db: Db;
  config: Pick<AppConfig, 'dataDir' | 'storage' | 'trustProxy' | 'video'>;
  /** The storage of stored files (a bucket also holds the uploads). */
  storage: Storage;
  /** This process's name in an upload's lock (the runtime's worker id). */
  workerId: string;
  logger: Pick<Logger, 'info' | 'warn'>;
  /** Told when a finished upload is queued for conversion (a worker in this process starts at once). */
  queued?: ((videoId: number) => void) | undefined;
}

/** The tus server of video uploads, at `paths.videoUploads`. */
export function createUploadServer(deps: UploadServerDeps): Server {
  const max = deps.config.video.uploadMaxBytes;
  const files = uploadedFiles(deps.storage, deps.config.dataDir);
  const server = new Server({
    path: paths.videoUploads,
    datastore: uploadDataStore(deps.config),
    locker: uploadLocker(deps.db, deps.workerId),
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
      const outcome = await finishUpload(deps.db, files, upload.id);
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
      // Another request (of any machine) still writes this upload: the client tries again.
      if (err === ERRORS.ERR_LOCK_TIMEOUT) return refuse(423, t.busyUpload);
      return undefined;
    },
  });
  // An abandoned upload: its row goes, and whatever tus's store leaves of it (in a bucket, the last piece
  // shorter than a part, `uploads/<id>.part`).
  server.on(EVENTS.POST_TERMINATE, (_req, _res, id) => void Promise.all([dropUpload(deps.db, id), files.remove(id)]).catch(() => undefined));
  return server;
}
