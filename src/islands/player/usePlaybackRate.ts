/**
 * The playback speed the learner chose, kept for the browser tab's session. The server-rendered page
 * plays at normal speed; the stored choice is read once hydrated. Anything stored that the player does
 * not offer reads as normal speed.
 */
import { useCallback, useEffect, useState } from 'react';
import { parsePlaybackRate } from '~/lib/learning/player';

/** The session-storage key of the chosen speed. */
export const RATE_KEY = 'playback-rate';

/** The current speed and a way to choose another (a select's value or a number). */
export function usePlaybackRate(): readonly [number, (value: string | number) => void] {
  const [rate, setRate] = useState(1);
  useEffect(() => {
    try {
      setRate(parsePlaybackRate(sessionStorage.getItem(RATE_KEY)));
    } catch {
      /* storage unavailable: normal speed */
    }
  }, []);
  const choose = useCallback((value: string | number) => {
    const r = parsePlaybackRate(String(value));
    setRate(r);
    try {
      sessionStorage.setItem(RATE_KEY, String(r));
    } catch {
      /* storage unavailable: the choice lasts for this page */
    }
  }, []);
  return [rate, choose] as const;
}
