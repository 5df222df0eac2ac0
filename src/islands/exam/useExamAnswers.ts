/**
 * The answers of one exam attempt and the saving of each one. An answer is sent to the server as it
 * is given, with a visible state (saving, saved, waiting, failed). Answers the server has not
 * confirmed wait in the browser's storage (`$pendingAnswers`): a lost network or a server that does
 * not answer leaves them there, to be sent by `flush` (on reconnect, before submitting) or on the next
 * visit, when they are newer than the page's. A refusal is final: a lost session is handed to
 * `onSessionLost`; an attempt already over on the server to `onAttemptOver`.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useStore } from '@nanostores/react';
import type { PresentedQuestion } from '~/lib/exams/exams';
import { $pendingAnswers, withoutAttempt, withoutConfirmed, withPending } from '~/lib/stores/exams';

/** What the server answered to one saved answer. */
export type SaveOutcome =
  | { kind: 'saved' }
  /** No usable answer (network, server error): try again later. */
  | { kind: 'unavailable' }
  | { kind: 'refused'; reason: string; sessionLost?: boolean; attemptOver?: boolean };

/** Where one question's answer stands. */
export type SaveState = { kind: 'saved' } | { kind: 'saving' } | { kind: 'pending' } | { kind: 'failed'; reason: string };

export interface ExamAnswersOptions {
  attemptId: number;
  /** Stored answers by question id (from the page). */
  stored: Record<string, number[]>;
  /** Sends one answer to the server (it may throw on a network failure). */
  save(questionId: number, answer: number[]): Promise<SaveOutcome>;
  onSessionLost(): void;
  onAttemptOver(): void;
}

export function useExamAnswers(options: ExamAnswersOptions) {
  const { attemptId } = options;
  const key = String(attemptId);
  const latest = useRef(options);
  latest.current = options;
  const [answers, setAnswers] = useState<Record<string, number[]>>(options.stored);
  const [states, setStates] = useState<Record<string, SaveState>>({});
  const pending = useStore($pendingAnswers);

  const setState = (questionId: number, state: SaveState) => setStates((s) => ({ ...s, [questionId]: state }));

  /** Sends one answer; keeps it pending when the network fails, forgets it once the server answered. */
  const send = useCallback(
    async (questionId: number, answer: number[]) => {
      if (!navigator.onLine) {
        setState(questionId, { kind: 'pending' });
        return;
      }
      setState(questionId, { kind: 'saving' });
      let outcome: SaveOutcome;
      try {
        outcome = await latest.current.save(questionId, answer);
      } catch {
        outcome = { kind: 'unavailable' };
      }
      if (outcome.kind === 'unavailable') {
        setState(questionId, { kind: 'pending' });
        return;
      }
      $pendingAnswers.set(withoutConfirmed($pendingAnswers.get(), attemptId, questionId, answer));
      if (outcome.kind === 'saved') {
        setState(questionId, { kind: 'saved' });
        return;
      }
      if (outcome.sessionLost) {
        latest.current.onSessionLost();
        return;
      }
      setState(questionId, { kind: 'failed', reason: outcome.reason });
      // The attempt is over on the server: its result is what counts now.
      if (outcome.attemptOver) {
        $pendingAnswers.set(withoutAttempt($pendingAnswers.get(), attemptId));
        latest.current.onAttemptOver();
      }
    },
    [attemptId],
  );

  /** Sends every answer of this attempt still waiting. */
  const flush = useCallback(async () => {
    const waiting = $pendingAnswers.get()[key] ?? {};
    await Promise.all(Object.entries(waiting).map(([q, a]) => send(Number(q), a)));
  }, [key, send]);

  // Hydrated: answers kept on this device and not confirmed are newer than the page's; send them.
  useEffect(() => {
    const waiting = $pendingAnswers.get()[key];
    if (waiting && Object.keys(waiting).length > 0) {
      setAnswers((a) => ({ ...a, ...waiting }));
      void flush();
    }
  }, [flush, key]);

  /** The learner ticked or unticked an option. */
  const choose = (question: PresentedQuestion, optionId: number, checked: boolean) => {
    const before = answers[question.id] ?? [];
    const next = question.kind === 'multiple' ? (checked ? [...new Set([...before, optionId])] : before.filter((o) => o !== optionId)).sort((a, b) => a - b) : [optionId];
    setAnswers((a) => ({ ...a, [question.id]: next }));
    // Unticking every option of a multiple-choice question leaves the last saved answer on the server.
    if (next.length === 0) return;
    $pendingAnswers.set(withPending($pendingAnswers.get(), attemptId, question.id, next));
    void send(question.id, next);
  };

  /** A question's saving state (an answer kept from an earlier visit reads as waiting). */
  const stateOf = (questionId: number): SaveState | undefined => states[questionId] ?? (pending[key]?.[questionId] ? { kind: 'pending' } : undefined);

  /** Forgets this attempt's waiting answers (it is being submitted). */
  const forget = useCallback(() => $pendingAnswers.set(withoutAttempt($pendingAnswers.get(), attemptId)), [attemptId]);

  return { answers, choose, flush, stateOf, forget };
}
