import { describe, expect, it } from 'vitest';
import { gradeAttempt, gradedQuestions, keyChanged, keyPositions, withKeyOf } from './exams';
import { question, single } from './exams.testing';

describe('grading with a later version’s key', () => {
  const drawn = single(1, 11); // options 11–14, 11 right
  const fixed = { ...question(9, 'single', [91, 92, 93, 94], [93]), explanationEs: 'Es la tercera.', explanationEn: 'It is the third.' };

  it('compares keys by position', () => {
    expect(keyPositions(drawn)).toEqual([0]);
    expect(keyChanged(drawn, fixed)).toBe(true);
    expect(keyChanged(drawn, question(8, 'single', [81, 82, 83, 84], [81]))).toBe(false);
  });

  it('keeps the drawn options and texts, and takes the right ones by position', () => {
    const keyed = withKeyOf(drawn, fixed);
    expect(keyed.options.map((o) => [o.id, o.correct])).toEqual([[11, false], [12, false], [13, true], [14, false]]);
    expect(keyed.promptEn).toBe(drawn.promptEn);
    expect(keyed.explanationEn).toBe('It is the third.');
    expect(withKeyOf(drawn, undefined)).toBe(drawn);
  });

  it('grades an attempt with the keys it names, and each drawn version otherwise', () => {
    const other = single(2, 21);
    const byId = new Map([drawn, other, fixed].map((q) => [q.id, q]));
    const answers = { '1': [13], '2': [21] };
    expect(gradeAttempt(gradedQuestions(byId, [1, 2], null), answers).score).toBe(50);
    expect(gradeAttempt(gradedQuestions(byId, [1, 2], { '1': 9 }), answers).score).toBe(100);
    // A question missing from the bank is left out.
    expect(gradedQuestions(byId, [1, 77], {}).map((q) => q.id)).toEqual([1]);
  });
});
