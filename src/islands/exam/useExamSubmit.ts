/**
 * Handing the attempt in. The learner's submit asks first when questions are unanswered (unless the
 * time is up), waits for the network when the browser is offline (and goes on when it is back), and
 * sends every waiting answer before the form is posted, whether or not they could be saved: the
 * server grades what it has. At the deadline the same happens without asking.
 */
import { useCallback, useRef, useState } from 'react';

export interface ExamSubmitOptions {
  /** Sends the answers still waiting. */
  flush(): Promise<void>;
  /** Forgets the attempt's waiting answers once they were sent (the attempt is being graded). */
  forget(): void;
  /** Posts the form (the result page grades the attempt). */
  post(): void;
  /** Asks whether to submit with `count` questions unanswered. */
  confirmUnanswered(count: number): boolean;
}

/** What a submit did: asked and was cancelled, is waiting for the network, or is sending. */
export type SubmitResult = 'cancelled' | 'offline' | 'sending';

export function useExamSubmit(options: ExamSubmitOptions) {
  const latest = useRef(options);
  latest.current = options;
  const [submitting, setSubmitting] = useState(false);
  const waitingForNetwork = useRef(false);
  /** Sends what waits; a failure to send is no reason not to hand in. */
  const sendWaiting = useCallback(() => latest.current.flush().catch(() => undefined), []);

  /** The learner submits with `unanswered` questions left and, or not, time left. */
  const submit = useCallback((unanswered: number, timeLeft: boolean): SubmitResult => {
    const o = latest.current;
    if (unanswered > 0 && timeLeft && !o.confirmUnanswered(unanswered)) return 'cancelled';
    if (!navigator.onLine) {
      waitingForNetwork.current = true;
      return 'offline';
    }
    setSubmitting(true);
    void sendWaiting().then(() => {
      latest.current.forget();
      latest.current.post();
    });
    return 'sending';
  }, [sendWaiting]);

  /** The time is up: whatever could be sent goes, then the form. */
  const expire = useCallback(() => {
    setSubmitting(true);
    void sendWaiting().then(() => latest.current.post());
  }, [sendWaiting]);

  /** Back online (answers already sent): a submit that waited for the network goes now. */
  const resume = useCallback(() => {
    if (waitingForNetwork.current) latest.current.post();
  }, []);

  return { submitting, submit, expire, resume };
}
