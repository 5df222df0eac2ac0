/**
 * One resumable upload with tus-js-client: sent in 8 MB parts, retried after a dropped connection,
 * paused and resumed, and resumed from an earlier attempt of the same file (its fingerprint is kept in
 * the browser). A refusal from the server is shown as its sentence.
 */
import { useRef, useState } from 'react';
import { Upload, type DetailedError } from 'tus-js-client';

export type UploadState =
  | { phase: 'idle' }
  | { phase: 'sending'; sent: number; total: number; resumedAt: number | null }
  | { phase: 'paused'; sent: number; total: number }
  | { phase: 'retrying'; sent: number; total: number }
  | { phase: 'done' }
  | { phase: 'failed'; reason: string };

/** The sentence of a refused upload: the server's words when it sent some. */
export function refusalText(err: Error | DetailedError, fallback: string): string {
  const body = (err as DetailedError).originalResponse?.getBody?.();
  return typeof body === 'string' && body.trim() !== '' && body.length < 500 ? body.trim() : fallback;
}

export function useTusUpload(endpoint: string, locale: string, fallbackError: string, onDone: () => void) {
  const [state, setState] = useState<UploadState>({ phase: 'idle' });
  const current = useRef<Upload | null>(null);

  const start = (file: File) => {
    const upload = new Upload(file, {
      endpoint,
      chunkSize: 8 * 1024 * 1024,
      retryDelays: [0, 1000, 3000, 5000, 10000, 20000],
      metadata: { filename: file.name, filetype: file.type },
      headers: { 'Accept-Language': locale },
      removeFingerprintOnSuccess: true,
      onProgress: (sent, total) => setState((s) => ({ phase: 'sending', sent, total, resumedAt: s.phase === 'sending' ? s.resumedAt : null })),
      onShouldRetry: (err, _attempt, options) => {
        const status = (err as DetailedError).originalResponse?.getStatus?.() ?? 0;
        // Refusals in words (4xx) are final; a lost connection or a restarting server is tried again.
        const retry = status === 0 || status >= 500 || status === 409 || status === 423;
        if (retry) setState((s) => (s.phase === 'sending' ? { phase: 'retrying', sent: s.sent, total: s.total } : s));
        return retry && (options.retryDelays?.length ?? 0) > 0;
      },
      onError: (err) => setState({ phase: 'failed', reason: refusalText(err, fallbackError) }),
      onSuccess: () => {
        setState({ phase: 'done' });
        onDone();
      },
    });
    current.current = upload;
    void upload.findPreviousUploads().then((previous) => {
      const last = previous[0];
      if (last) {
        upload.resumeFromPreviousUpload(last);
        setState({ phase: 'sending', sent: 0, total: file.size, resumedAt: 0 });
      } else setState({ phase: 'sending', sent: 0, total: file.size, resumedAt: null });
      upload.start();
    });
  };

  const pause = () => {
    void current.current?.abort();
    setState((s) => (s.phase === 'sending' || s.phase === 'retrying' ? { phase: 'paused', sent: s.sent, total: s.total } : s));
  };
  const resume = () => {
    current.current?.start();
    setState((s) => (s.phase === 'paused' ? { phase: 'sending', sent: s.sent, total: s.total, resumedAt: null } : s));
  };
  return { state, start, pause, resume };
}
