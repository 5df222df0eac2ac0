/** The editors' preview of a converted video: HLS (native or hls.js) with its caption tracks over it. */
import { useRef, useState } from 'react';
import { useHlsSource } from '../player/useHlsSource';

interface Props {
  src: string;
  poster: string | null;
  label: string;
  tracks: { lang: string; src: string; label: string }[];
  failed: string;
  defaultLang: string;
}

export default function VideoPreview({ src, poster, label, tracks, failed, defaultLang }: Props) {
  const ref = useRef<HTMLVideoElement>(null);
  const [error, setError] = useState(false);
  useHlsSource(ref, src, true, () => setError(true));
  return (
    <div className="preview">
      <video ref={ref} controls preload="metadata" playsInline poster={poster ?? undefined} aria-label={label} crossOrigin="use-credentials">
        {tracks.map((t) => (
          <track key={t.lang} kind="captions" src={t.src} srcLang={t.lang} label={t.label} default={t.lang === defaultLang} />
        ))}
      </video>
      {error && (
        <p role="alert" className="notice failed">
          {failed}
        </p>
      )}
    </div>
  );
}
