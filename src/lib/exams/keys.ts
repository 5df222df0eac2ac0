/**
 * Grading an attempt with the key of a later version of its questions (a regrade): an attempt keeps
 * the version it drew (its texts, option ids and the answers given), and takes from the later version
 * only which options are right, matched by position (the first option of one is the first of the
 * other). Pure.
 */
import type { ExamQuestion } from './exams';

/** Anything with options marked right or not (a question, a version, a draft). */
export type Keyed = { options: readonly { correct: boolean }[] };

/** The positions (0-based, ascending) of a question's right options. */
export function keyPositions(question: Keyed): number[] {
  return question.options.flatMap((o, i) => (o.correct ? [i] : []));
}

/** True when two versions of a question have different keys (right options by position). */
export function keyChanged(a: Keyed, b: Keyed): boolean {
  const x = keyPositions(a);
  const y = keyPositions(b);
  return x.length !== y.length || x.some((p, i) => p !== y[i]);
}

/**
 * The drawn question as graded with `key`'s right options (by position; a position `drawn` lacks is
 * dropped) and `key`'s explanation. `key` absent or the drawn version itself: the drawn question as is.
 */
export function withKeyOf(drawn: ExamQuestion, key: ExamQuestion | undefined): ExamQuestion {
  if (!key || key.id === drawn.id) return drawn;
  const right = new Set(keyPositions(key));
  return {
    ...drawn,
    options: drawn.options.map((o, i) => ({ ...o, correct: right.has(i) })),
    explanationEs: key.explanationEs ?? '',
    explanationEn: key.explanationEn ?? '',
  };
}

/**
 * The questions an attempt is graded with: each drawn question (in `byId`, every version of the
 * exam's bank) with the key of the version `keys` names for it (none named: the drawn version's own).
 * Questions missing from `byId` are left out.
 */
export function gradedQuestions(byId: ReadonlyMap<number, ExamQuestion>, questionIds: readonly number[], keys: Readonly<Record<string, number>> | null | undefined): ExamQuestion[] {
  return questionIds.flatMap((id) => {
    const drawn = byId.get(id);
    if (!drawn) return [];
    const keyId = keys && Object.hasOwn(keys, String(id)) ? keys[String(id)] : undefined;
    return [withKeyOf(drawn, keyId === undefined ? undefined : byId.get(keyId))];
  });
}
