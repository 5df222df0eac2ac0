/** The library's video states, polled from the status endpoint while any video is still on its way (every 2 s). */
import { useCallback, useEffect, useRef, useState } from 'react';

/** One video's state as the status endpoint answers it. */
export interface VideoStatus {
  id: number;
  /** The library's title (the uploaded file's name). */
  title: string;
  state: 'uploading' | 'probing' | 'queued' | 'transcoding' | 'ready' | 'failed';
  progress: number;
  label: string;
  duration: string | null;
  mediaFileId: number | null;
}

/** Whether a state may still change by itself (the page keeps asking). */
export const unsettled = (s: VideoStatus['state']) => s === 'probing' || s === 'queued' || s === 'transcoding';

export function useVideoStatuses(endpoint: string, initial: readonly VideoStatus[]): { statuses: ReadonlyMap<number, VideoStatus>; refresh: () => void; newIds: number[] } {
  const [statuses, setStatuses] = useState<ReadonlyMap<number, VideoStatus>>(() => new Map(initial.map((s) => [s.id, s])));
  const known = useRef(new Set(initial.map((s) => s.id)));
  const [newIds, setNewIds] = useState<number[]>([]);
  const [tick, setTick] = useState(0);
  const refresh = useCallback(() => setTick((n) => n + 1), []);

  useEffect(() => {
    let cancelled = false;
    const controller = new AbortController();
    fetch(endpoint, { headers: { accept: 'application/json' }, signal: controller.signal, credentials: 'same-origin' })
      .then((r) => (r.ok ? (r.json() as Promise<{ videos: VideoStatus[] }>) : null))
      .then((body) => {
        if (cancelled || !body) return;
        setStatuses(new Map(body.videos.map((s) => [s.id, s])));
        const fresh = body.videos.filter((v) => !known.current.has(v.id)).map((v) => v.id);
        if (fresh.length > 0) setNewIds((ids) => [...fresh, ...ids]);
        for (const id of fresh) known.current.add(id);
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
      controller.abort();
    };
  }, [endpoint, tick]);

  useEffect(() => {
    if (![...statuses.values()].some((s) => unsettled(s.state))) return;
    const timer = setTimeout(refresh, 2000);
    return () => clearTimeout(timer);
  }, [statuses, refresh]);

  return { statuses, refresh, newIds };
}
