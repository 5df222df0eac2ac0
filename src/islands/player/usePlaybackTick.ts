/**
 * The heartbeat of a playing video: while started, `onTick` runs every `everyMs` (the player reports
 * the position then). Starting again restarts the count; it stops by itself when the player goes away.
 */
import { useCallback, useEffect, useRef } from 'react';

/** How often a playing video reports its position. */
export const TICK_MS = 5000;

export function usePlaybackTick(onTick: () => void, everyMs = TICK_MS) {
  const latest = useRef(onTick);
  latest.current = onTick;
  const timer = useRef<ReturnType<typeof setInterval> | undefined>(undefined);

  const stop = useCallback(() => {
    clearInterval(timer.current);
    timer.current = undefined;
  }, []);
  const start = useCallback(() => {
    clearInterval(timer.current);
    timer.current = setInterval(() => latest.current(), everyMs);
  }, [everyMs]);
  useEffect(() => stop, [stop]);

  return { start, stop };
}
