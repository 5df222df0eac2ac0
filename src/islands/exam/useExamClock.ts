/**
 * The exam's countdown. The page gives the time left on the server's clock; the countdown measures
 * from it with the monotonic clock (`performance.now()`), so a wrong device clock changes nothing. It
 * ticks every second, names the minutes to announce at 5 and at 1 minute (each once, never later than
 * its moment), and calls `onExpire` once when the time is up.
 */
import { useEffect, useRef, useState } from 'react';
import { announcementDue, type Announcement } from '~/lib/exams/clock';

/** How often the countdown moves. */
export const CLOCK_TICK_MS = 1000;

export function useExamClock(remainingMs: number, onExpire: () => void) {
  const [left, setLeft] = useState(remainingMs);
  const [announced, setAnnounced] = useState<Announcement | null>(null);
  const expire = useRef(onExpire);
  expire.current = onExpire;

  useEffect(() => {
    const end = performance.now() + remainingMs;
    const said = new Set<Announcement>();
    const tick = () => {
      const ms = Math.max(0, end - performance.now());
      setLeft(ms);
      const due = announcementDue(ms, said);
      if (due !== null) {
        said.add(due);
        setAnnounced(due);
      }
      if (ms === 0) {
        clearInterval(timer);
        expire.current();
      }
    };
    const timer = setInterval(tick, CLOCK_TICK_MS);
    tick();
    return () => clearInterval(timer);
  }, [remainingMs]);

  /** Time left (ms) and the last minutes announced (5, 1 or none yet). */
  return { left, announced };
}
