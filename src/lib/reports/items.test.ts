import { describe, expect, it } from 'vitest';
import { answeredRight, itemFlag, mostChosenWrong, pointBiserial, rightShare, upperLowerIndex, type ItemResponse } from './items';
import { barWidths, columns, labelEvery, niceMax } from './chart';

const r = (right: boolean, score: number): ItemResponse => ({ right, score });

describe('item analysis', () => {
  it('counts the share answered right', () => {
    expect(rightShare([])).toBeNull();
    expect(rightShare([r(true, 80), r(false, 40), r(true, 90), r(false, 10)])).toBe(0.5);
  });

  it('computes the point-biserial correlation (Pearson on right/score), matching the textbook formula', () => {
    const rs = [r(true, 90), r(true, 80), r(false, 70), r(true, 60), r(false, 30), r(false, 20)];
    // r_pb = (M1 − M0) / s_n · sqrt(p q), s_n the population deviation of all scores.
    const m1 = (90 + 80 + 60) / 3;
    const m0 = (70 + 30 + 20) / 3;
    const mean = (90 + 80 + 70 + 60 + 30 + 20) / 6;
    const sn = Math.sqrt(rs.reduce((s, x) => s + (x.score - mean) ** 2, 0) / 6);
    expect(pointBiserial(rs)).toBeCloseTo(((m1 - m0) / sn) * Math.sqrt(0.25), 10);
  });

  it('finds a question the weaker candidates get right more often (negative), and none when it is undefined', () => {
    expect(pointBiserial([r(false, 90), r(false, 80), r(true, 30), r(true, 20)])!).toBeLessThan(0);
    expect(pointBiserial([r(true, 90), r(true, 10)])).toBeNull(); // everyone right
    expect(pointBiserial([r(true, 50), r(false, 50)])).toBeNull(); // every score the same
    expect(pointBiserial([r(true, 50)])).toBeNull();
  });

  it('computes the upper/lower 27 % index', () => {
    const rs = Array.from({ length: 100 }, (_, i) => r(i >= 50, i));
    expect(upperLowerIndex(rs)).toBe(1);
    const mixed = [...Array.from({ length: 27 }, (_, i) => r(i % 3 === 0, i)), ...Array.from({ length: 46 }, (_, i) => r(true, 100 + i)), ...Array.from({ length: 27 }, (_, i) => r(i % 3 !== 0, 200 + i))];
    expect(upperLowerIndex(mixed)).toBeCloseTo(18 / 27 - 9 / 27, 10);
    expect(upperLowerIndex([r(true, 1), r(false, 2), r(true, 3)])).toBeNull();
  });

  it('names the wrong option chosen most (the lower id on a tie), never a right one', () => {
    expect(mostChosenWrong([{ optionId: 1, times: 50, correct: true }, { optionId: 3, times: 7, correct: false }, { optionId: 2, times: 7, correct: false }])).toEqual({ optionId: 2, times: 7 });
    expect(mostChosenWrong([{ optionId: 1, times: 50, correct: true }, { optionId: 2, times: 0, correct: false }])).toBeNull();
  });

  it('flags what an editor should look at', () => {
    expect(itemFlag(3, 0.1, -0.5)).toBe('fewAnswers');
    expect(itemFlag(40, 0.5, -0.1)).toBe('negative');
    expect(itemFlag(40, 0.2, 0.4)).toBe('tooHard');
    expect(itemFlag(40, 0.99, 0.3)).toBe('tooEasy');
    expect(itemFlag(40, 0.6, 0.1)).toBe('weak');
    expect(itemFlag(40, 0.6, 0.45)).toBe('good');
  });

  it('grades a set of options as the exams do: exactly the right set', () => {
    expect(answeredRight([3, 1], [1, 3])).toBe(true);
    expect(answeredRight([1], [1, 3])).toBe(false);
    expect(answeredRight([], [])).toBe(false);
  });
});

describe('chart geometry', () => {
  it('rounds the axis up to a readable top', () => {
    expect([0, 1, 3, 7, 11, 180, 240, 999, 1001].map(niceMax)).toEqual([1, 1, 5, 10, 20, 200, 250, 1000, 2000]);
  });

  it('draws columns inside the view box, the tallest reaching the top it was rounded to', () => {
    const c = columns([[0, 5, 10], [1, 2, 3]]);
    expect(c.top).toBe(10);
    expect(c.groups).toHaveLength(3);
    expect(c.groups[2]![0]!.y).toBe(10);
    expect(c.groups[0]![0]!.height).toBe(0);
    for (const g of c.groups) for (const b of g) expect(b.x + b.width).toBeLessThanOrEqual(420);
  });

  it('thins labels and sizes bars', () => {
    expect(labelEvery(30, 8)).toBe(4);
    expect(labelEvery(5, 8)).toBe(1);
    expect(barWidths([0, 50, 200])).toEqual([0, 25, 100]);
    expect(barWidths([0, 0])).toEqual([0, 0]);
  });
});
