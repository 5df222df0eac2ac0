/**
 * Answers given during an exam that the server has not confirmed yet (offline, or still on their
 * way), kept in the browser's storage so a reload, a closed tab or a lost connection loses none of
 * them: the exam island sends them when it can and forgets each one the server stored (or refused).
 * Keyed by attempt id, then question id; the server stays the authority on every answer.
 */
import { persistentAtom } from '@nanostores/persistent';
import { STORAGE_KEYS } from './keys';

/** Unconfirmed answers: attempt id → question id → option ids. */
export type PendingAnswers = Record<string, Record<string, number[]>>;

const ID = /^[1-9]\d{0,9}$/;
/** At most this many attempts are kept (the oldest go first): storage never grows without bound. */
export const MAX_PENDING_ATTEMPTS = 5;

/** Reads the stored value: only well-formed entries survive (anything else reads as nothing pending). */
export function decodePending(raw: string): PendingAnswers {
  try {
    const value: unknown = JSON.parse(raw);
    if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
    const out: PendingAnswers = {};
    for (const [attempt, answers] of Object.entries(value as Record<string, unknown>)) {
      if (!ID.test(attempt) || !answers || typeof answers !== 'object' || Array.isArray(answers)) continue;
      const kept: Record<string, number[]> = {};
      for (const [question, options] of Object.entries(answers as Record<string, unknown>)) {
        if (ID.test(question) && Array.isArray(options) && options.length <= 20 && options.every((o) => Number.isSafeInteger(o) && (o as number) > 0)) kept[question] = options as number[];
      }
      out[attempt] = kept;
    }
    return out;
  } catch {
    return {};
  }
}

/** `pending` with an answer added (replacing an earlier one to the same question). */
export function withPending(pending: PendingAnswers, attemptId: number, questionId: number, answer: readonly number[]): PendingAnswers {
  const attempts = Object.keys(pending).filter((a) => a !== String(attemptId));
  const keep = attempts.slice(Math.max(0, attempts.length - (MAX_PENDING_ATTEMPTS - 1)));
  const out: PendingAnswers = Object.fromEntries(keep.map((a) => [a, pending[a]!]));
  out[String(attemptId)] = { ...(pending[String(attemptId)] ?? {}), [String(questionId)]: [...answer] };
  return out;
}

/**
 * `pending` without the answer the server just confirmed — unless a newer answer to the same question
 * was given meanwhile (then that one is still to be sent).
 */
export function withoutConfirmed(pending: PendingAnswers, attemptId: number, questionId: number, sent: readonly number[]): PendingAnswers {
  const answers = pending[String(attemptId)];
  const current = answers?.[String(questionId)];
  if (!answers || !current || current.length !== sent.length || !current.every((o, i) => o === sent[i])) return pending;
  const rest = { ...answers };
  delete rest[String(questionId)];
  const out = { ...pending };
  if (Object.keys(rest).length === 0) delete out[String(attemptId)];
  else out[String(attemptId)] = rest;
  return out;
}

/** `pending` without anything of an attempt (graded: nothing more can be sent). */
export function withoutAttempt(pending: PendingAnswers, attemptId: number): PendingAnswers {
  if (!(String(attemptId) in pending)) return pending;
  const out = { ...pending };
  delete out[String(attemptId)];
  return out;
}

/** Every attempt's unconfirmed answers, in the browser's storage. */
export const $pendingAnswers = persistentAtom<PendingAnswers>(STORAGE_KEYS.examAnswers, {}, { encode: JSON.stringify, decode: decodePending });
