/**
 * The video library's live part: the upload (tus, resumable, pause and resume) and the list of videos
 * with their state, polled while any is converting. Rendered on the server with the page's states, so
 * without JavaScript the list shows the last state (the page has a refresh link) and says that uploading
 * needs JavaScript.
 */
import { useEffect, useId, useState } from 'react';
import { format as fill } from '~/i18n/format';
import { localePath, paths } from '~/lib/paths';
import { useTusUpload } from './useTusUpload';
import { useVideoStatuses, type VideoStatus } from './useVideoStatuses';

export interface LibraryRow {
  id: number;
  title: string;
  href: string;
  posterSrc: string | null;
  captionLangs: string[];
}

export interface VideoLibraryMessages {
  uploadTitle: string;
  uploadLead: string;
  limit: string;
  file: string;
  start: string;
  pause: string;
  resume: string;
  progress: string;
  resumed: string;
  paused: string;
  done: string;
  failed: string;
  retrying: string;
  noScript: string;
  listTitle: string;
  empty: string;
  video: string;
  state: string;
  duration: string;
  mediaId: string;
  mediaIdHint: string;
  posterAlt: string;
  captions: string;
  fallbackError: string;
  newVideo: string;
}

interface Props {
  locale: 'es' | 'en';
  uploadEndpoint: string;
  statusEndpoint: string;
  rows: LibraryRow[];
  initial: VideoStatus[];
  t: VideoLibraryMessages;
}

const bytes = (n: number, locale: string) => `${new Intl.NumberFormat(locale === 'en' ? 'en-US' : 'es-419', { maximumFractionDigits: 1 }).format(n / 1024 ** 2)} MB`;

export default function VideoLibrary({ locale, uploadEndpoint, statusEndpoint, rows, initial, t }: Props) {
  const id = useId();
  const [hydrated, setHydrated] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const { statuses, refresh, newIds } = useVideoStatuses(statusEndpoint, initial);
  const upload = useTusUpload(uploadEndpoint, locale, t.fallbackError, refresh);
  useEffect(() => setHydrated(true), []);

  const s = upload.state;
  const percent = s.phase === 'sending' || s.phase === 'paused' || s.phase === 'retrying' ? (s.total > 0 ? Math.floor((s.sent / s.total) * 100) : 0) : s.phase === 'done' ? 100 : 0;
  const status =
    s.phase === 'sending'
      ? fill(t.progress, { percent, sent: bytes(s.sent, locale), total: bytes(s.total, locale) })
      : s.phase === 'paused'
        ? t.paused
        : s.phase === 'retrying'
          ? t.retrying
          : s.phase === 'done'
            ? t.done
            : s.phase === 'failed'
              ? fill(t.failed, { reason: s.reason })
              : '';
  const busy = s.phase === 'sending' || s.phase === 'retrying';
  // A video uploaded since the page was drawn: its title and page once the server has its row.
  const fresh = (n: number): LibraryRow => {
    const title = statuses.get(n)?.title;
    return { id: n, title: title ?? t.newVideo, href: title ? localePath(locale, paths.adminVideo(n)) : '', posterSrc: paths.videoPreviewFile(n, 'poster.jpg'), captionLangs: [] };
  };
  const listed: LibraryRow[] = [...newIds.filter((n) => !rows.some((r) => r.id === n)).map(fresh), ...rows];

  return (
    <div className="video-library">
      <section aria-labelledby={`${id}-upload`}>
        <h2 id={`${id}-upload`}>{t.uploadTitle}</h2>
        <p>{t.uploadLead} {t.limit}</p>
        {hydrated ? (
          <form
            className="staff-form upload"
            onSubmit={(e) => {
              e.preventDefault();
              if (file) upload.start(file);
            }}
          >
            <div>
              <label htmlFor={`${id}-file`}>{t.file}</label>
              <input id={`${id}-file`} type="file" accept="video/*,.mp4,.mov,.mkv,.webm" disabled={busy} onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)} />
            </div>
            <div className="buttons">
              <button type="submit" className="button" disabled={!file || busy || s.phase === 'paused'}>
                {t.start}
              </button>
              {busy && (
                <button type="button" className="button button-outline" onClick={upload.pause}>
                  {t.pause}
                </button>
              )}
              {s.phase === 'paused' && (
                <button type="button" className="button button-outline" onClick={upload.resume}>
                  {t.resume}
                </button>
              )}
            </div>
            {s.phase !== 'idle' && <progress max={100} value={percent} aria-label={t.uploadTitle} />}
            <p role={s.phase === 'failed' ? 'alert' : 'status'} className={s.phase === 'failed' ? 'notice failed' : 'upload-status'}>
              {status}
              {s.phase === 'sending' && s.resumedAt !== null ? ` ${t.resumed.replace('{percent}', String(percent))}` : ''}
            </p>
          </form>
        ) : (
          <p className="notice">{t.noScript}</p>
        )}
      </section>

      <section aria-labelledby={`${id}-list`}>
        <h2 id={`${id}-list`}>{t.listTitle}</h2>
        {listed.length === 0 ? (
          <p>{t.empty}</p>
        ) : (
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">{t.video}</th>
                  <th scope="col">{t.state}</th>
                  <th scope="col">{t.duration}</th>
                  <th scope="col">{t.mediaId}</th>
                </tr>
              </thead>
              <tbody>
                {listed.map((row) => {
                  const st = statuses.get(row.id);
                  return (
                    <tr key={row.id} data-video={row.id} data-state={st?.state}>
                      <th scope="row">
                        <span className="video-cell">
                          {row.posterSrc && st?.state === 'ready' ? <img src={row.posterSrc} alt={fill(t.posterAlt, { title: row.title })} width={96} height={54} loading="lazy" /> : <span className="poster-empty" aria-hidden="true" />}
                          {row.href ? <a href={row.href}>{row.title}</a> : <span>{row.title}</span>}
                        </span>
                        {row.captionLangs.length > 0 && <span className="captions-note">{t.captions}: {row.captionLangs.join(', ')}</span>}
                      </th>
                      <td data-label={t.state}>
                        <span className={`state state-${st?.state ?? 'uploading'}`}>{st?.label ?? ''}</span>
                        {st?.state === 'transcoding' && <progress max={100} value={st.progress} aria-hidden="true" />}
                      </td>
                      <td data-label={t.duration}>{st?.duration ?? '—'}</td>
                      <td data-label={t.mediaId}>{st?.mediaFileId ? <code title={t.mediaIdHint}>{st.mediaFileId}</code> : '—'}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  );
}
