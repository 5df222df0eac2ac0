/**
 * The lesson player's line to the server: one tracking client (the socket, with its HTTP fallback) for
 * the page's life. It reports events and reads each acknowledgement: a stored position goes to
 * `onStored`, a failure to `onProblem` (cleared by the next success), a lost session to
 * `onSessionLost`; after a refusal (`forbidden`) nothing more is sent. It hears the person's other
 * tabs, says whether the socket is connected, and sends a last position when the page goes away.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { TrackingAck, TrackingEventName } from '~/lib/learning/learning';
import { createTrackingClient, type TrackingClient, type TrackingClientOptions, type TrackingIdentity } from '~/lib/realtime/tracking-client';

/** A report that failed for a reason the learner is told. */
export type TrackingProblem = 'rateLimited' | 'invalid' | 'unavailable';

/** Where the video stands (for the last report when the page is hidden or left). */
export interface LastPosition {
  lessonId: number;
  position: number;
  playing: boolean;
}

export interface TrackingSocketOptions extends TrackingIdentity {
  /** The server stored a lesson's position: this tab's acknowledgement or another tab's broadcast. */
  onStored(lessonId: number, position: number, completed: boolean): void;
  /** A report failed, or (`null`) one succeeded after a failure. */
  onProblem(problem: TrackingProblem | null): void;
  /** The session is gone. */
  onSessionLost(): void;
  /** Where the video stands now, or `null` when there is nothing to report. */
  lastPosition(): LastPosition | null;
  /** Makes the client: the socket in the browser (a stand-in in tests). */
  connect?: (options: TrackingClientOptions) => TrackingClient;
}

const PROBLEM_OF = { 'rate-limited': 'rateLimited', invalid: 'invalid', unavailable: 'unavailable' } as const;

export function useTrackingSocket(options: TrackingSocketOptions) {
  const latest = useRef(options);
  latest.current = options;
  const client = useRef<TrackingClient | null>(null);
  /** After a `forbidden` answer nothing more is sent. */
  const stopped = useRef(false);
  const [connected, setConnected] = useState(false);
  const [forbidden, setForbidden] = useState(false);
  /** The last acknowledged report, as `lessonId@position` (the page exposes it for its tests). */
  const [saved, setSaved] = useState('');

  const stop = useCallback(() => {
    stopped.current = true;
    setForbidden(true);
  }, []);

  const onAck = useCallback(
    (lessonId: number, ack: TrackingAck) => {
      const o = latest.current;
      if (ack.ok) {
        o.onStored(ack.Identificador, ack.Avance, ack.completed);
        o.onProblem(null);
        setSaved(`${lessonId}@${ack.Avance}`);
      } else if (ack.error === 'unauthorized') o.onSessionLost();
      else if (ack.error === 'forbidden') stop();
      else o.onProblem(PROBLEM_OF[ack.error]);
    },
    [stop],
  );

  /** Sends one event; resolves with the acknowledgement, or `null` when nothing was sent. */
  const report = useCallback(
    async (event: TrackingEventName, lessonId: number, position: number, playing: boolean): Promise<TrackingAck | null> => {
      const c = client.current;
      if (!c || stopped.current) return null;
      const ack = await c.send(event, lessonId, position, playing);
      onAck(lessonId, ack);
      return ack;
    },
    [onAck],
  );

  useEffect(() => {
    const o = latest.current;
    const c = (o.connect ?? createTrackingClient)({
      courseId: o.courseId,
      contactId: o.contactId,
      userId: o.userId,
      // Another tab or device saved progress: ticks and resume positions follow.
      onBroadcast: (b) => latest.current.onStored(b.Identificador, b.Avance, b.completed),
      onConnectionChange: setConnected,
      onRefused: (reason) => {
        if (reason === 'unauthorized') latest.current.onSessionLost();
        else stop();
      },
    });
    client.current = c;
    const sendLast = () => {
      const last = latest.current.lastPosition();
      if (last && last.position > 0 && !stopped.current) c.beacon(last.lessonId, last.position, last.playing);
    };
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') sendLast();
    };
    window.addEventListener('pagehide', sendLast);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      window.removeEventListener('pagehide', sendLast);
      document.removeEventListener('visibilitychange', onVisibility);
      c.close();
      client.current = null;
    };
    // Once per page: the course and the person do not change while it lives.
  }, [stop]);

  return { report, connected, forbidden, saved };
}
