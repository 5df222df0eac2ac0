/**
 * Item analysis of an exam's questions, pure: how often a question is answered right, which wrong
 * option is chosen most, and how well it tells the stronger candidates from the weaker ones
 * (discrimination). The database computes the same figures in SQL (`corr()` is the point-biserial
 * correlation of a right/wrong item against the attempt's score); these functions are the reference the
 * tests hold the SQL to, and the rules that read the figures.
 */

/** One answer to a question: right or not, and the attempt's score (0..100). */
export interface ItemResponse {
  right: boolean;
  score: number;
}

/** The share (0..1) of right answers, or null without answers. */
export function rightShare(responses: readonly ItemResponse[]): number | null {
  if (responses.length === 0) return null;
  return responses.filter((r) => r.right).length / responses.length;
}

/**
 * The point-biserial correlation between answering right (1/0) and the attempt's score: Pearson's r
 * on those pairs (as PostgreSQL's `corr()`). Null when it is undefined: fewer than two answers, or
 * everyone right, or everyone wrong, or every score the same.
 */
export function pointBiserial(responses: readonly ItemResponse[]): number | null {
  const n = responses.length;
  if (n < 2) return null;
  const mx = responses.reduce((s, r) => s + (r.right ? 1 : 0), 0) / n;
  const my = responses.reduce((s, r) => s + r.score, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (const r of responses) {
    const dx = (r.right ? 1 : 0) - mx;
    const dy = r.score - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  if (sxx === 0 || syy === 0) return null;
  return sxy / Math.sqrt(sxx * syy);
}

/**
 * The upper/lower 27 % discrimination index: the share right among the 27 % best attempts less the
 * share right among the 27 % worst (−1..1). Null with fewer than 4 answers (a group would be empty).
 */
export function upperLowerIndex(responses: readonly ItemResponse[]): number | null {
  const k = Math.round(responses.length * 0.27);
  if (responses.length < 4 || k < 1) return null;
  const sorted = [...responses].sort((a, b) => a.score - b.score);
  const share = (group: readonly ItemResponse[]) => group.filter((r) => r.right).length / group.length;
  return share(sorted.slice(-k)) - share(sorted.slice(0, k));
}

/** The wrong option chosen most (ties: the lower option id), or null when no wrong option was chosen. */
export function mostChosenWrong(choices: readonly { optionId: number; times: number; correct: boolean }[]): { optionId: number; times: number } | null {
  let best: { optionId: number; times: number } | null = null;
  for (const c of choices) {
    if (c.correct || c.times <= 0) continue;
    if (!best || c.times > best.times || (c.times === best.times && c.optionId < best.optionId)) best = { optionId: c.optionId, times: c.times };
  }
  return best;
}

/** Fewer answers than this and a question's figures are not read (too few to say anything). */
export const MIN_ANSWERS = 10;

/** What an editor should look at in a question, by its figures (the first that applies). */
export type ItemFlag = 'fewAnswers' | 'negative' | 'tooHard' | 'tooEasy' | 'weak' | 'good';

/**
 * The flag of a question: too few answers to judge; discrimination below zero (the weaker candidates do
 * better: the key may be wrong); right less than 30 % of the time; more than 95 %; discrimination below
 * 0.2 (it barely separates); else good. Thresholds are the usual classroom-test ones.
 */
export function itemFlag(answers: number, share: number | null, discrimination: number | null): ItemFlag {
  if (answers < MIN_ANSWERS || share === null) return 'fewAnswers';
  if (discrimination !== null && discrimination < 0) return 'negative';
  if (share < 0.3) return 'tooHard';
  if (share > 0.95) return 'tooEasy';
  if (discrimination !== null && discrimination < 0.2) return 'weak';
  return 'good';
}

/** Whether a set of chosen options is exactly the right set (every kind of question is graded so). */
export function answeredRight(chosen: readonly number[], correct: readonly number[]): boolean {
  const a = [...new Set(chosen)].sort((x, y) => x - y);
  const b = [...new Set(correct)].sort((x, y) => x - y);
  return a.length > 0 && a.length === b.length && a.every((v, i) => v === b[i]);
}
