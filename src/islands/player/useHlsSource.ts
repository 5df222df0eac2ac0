/**
 * Plays an HLS playlist in a `<video>`: natively where the browser has HLS (Safari, iOS, some
 * Chromium builds), through hls.js otherwise; hls.js is loaded only when an HLS source needs it, so
 * lessons with MP4 or WebM files never download it. A fatal playback error calls `onFatal`.
 */
import { useEffect, type RefObject } from 'react';

/** The MIME type a browser with native HLS says it can play. */
export const HLS_TYPE = 'application/vnd.apple.mpegurl';

/** How an HLS source is played: natively, through hls.js (Media Source Extensions), or not at all. */
export function hlsPlan(nativeAnswer: string, mseSupported: () => boolean): 'native' | 'hls.js' | 'unsupported' {
  if (nativeAnswer === 'probably' || nativeAnswer === 'maybe') return 'native';
  return mseSupported() ? 'hls.js' : 'unsupported';
}

export function useHlsSource(ref: RefObject<HTMLVideoElement | null>, src: string | undefined, hls: boolean, onFatal: () => void): void {
  useEffect(() => {
    const video = ref.current;
    if (!video || !src || !hls) return;
    const mse = () => typeof window !== 'undefined' && ('MediaSource' in window || 'ManagedMediaSource' in window);
    const plan = hlsPlan(video.canPlayType(HLS_TYPE), mse);
    if (plan === 'native') {
      video.src = src;
      return;
    }
    if (plan === 'unsupported') {
      onFatal();
      return;
    }
    let cancelled = false;
    let player: { destroy(): void } | null = null;
    import('hls.js')
      .then(({ default: Hls }) => {
        if (cancelled) return;
        if (!Hls.isSupported()) return onFatal();
        const p = new Hls({ capLevelToPlayerSize: true });
        p.on(Hls.Events.ERROR, (_event, data) => {
          if (data.fatal) onFatal();
        });
        p.loadSource(src);
        p.attachMedia(video);
        player = p;
      })
      .catch(() => {
        if (!cancelled) onFatal();
      });
    return () => {
      cancelled = true;
      player?.destroy();
    };
    // `onFatal` changes identity each render; the source alone decides what is loaded.
  }, [ref, src, hls]);
}
