/** Exam rules: drawing an attempt's questions from the pool (seeded, repeatable) and presenting them without the answers. */
import { describe, expect, it } from 'vitest';
import { drawAttempt, drawnAttemptSchema, presentAttempt, seededRandom } from './exams';
import { single, multiple, trueFalse, pool } from './exams.testing';

/* ───────────── randomness ───────────── */

describe('seededRandom', () => {
  it('gives the same sequence for the same seed and another for another seed', () => {
    const take = (seed: number) => {
      const r = seededRandom(seed);
      return Array.from({ length: 20 }, () => r());
    };
    expect(take(42)).toEqual(take(42));
    expect(take(42)).not.toEqual(take(43));
    expect(new Set(take(42)).size).toBe(20);
  });
  it('stays in [0, 1) and averages one half', () => {
    // 100,000 uniform values: the mean's standard deviation is 0.2887 / √100000 ≈ 0.0009; 0.01 is > 10 σ.
    const r = seededRandom(7);
    let sum = 0;
    let min = 1;
    let max = 0;
    for (let i = 0; i < 100_000; i++) {
      const x = r();
      sum += x;
      min = Math.min(min, x);
      max = Math.max(max, x);
    }
    expect(min).toBeGreaterThanOrEqual(0);
    expect(max).toBeLessThan(1);
    expect(Math.abs(sum / 100_000 - 0.5)).toBeLessThan(0.01);
    expect(min).toBeLessThan(0.001);
    expect(max).toBeGreaterThan(0.999);
  });
});

/* ───────────── drawing ───────────── */

describe('drawAttempt', () => {
  it('draws the set number of distinct questions of the pool', () => {
    const p = pool(30);
    const random = seededRandom(1);
    for (let i = 0; i < 200; i++) {
      const { questionIds } = drawAttempt(p, { questions: 10 }, random);
      expect(questionIds).toHaveLength(10);
      expect(new Set(questionIds).size).toBe(10);
      for (const id of questionIds) expect(id >= 1 && id <= 30).toBe(true);
    }
  });
  it('never draws more than the pool holds, nor a question twice', () => {
    const random = seededRandom(2);
    for (const [size, asked] of [
      [3, 10],
      [10, 10],
      [1, 100],
      [0, 10],
    ] as const) {
      const { questionIds, optionOrder } = drawAttempt(pool(size), { questions: asked }, random);
      expect(questionIds).toHaveLength(size);
      expect([...questionIds].sort((a, b) => a - b)).toEqual(Array.from({ length: size }, (_, i) => i + 1));
      expect(Object.keys(optionOrder)).toHaveLength(size);
    }
  });
  it('counts a question listed twice in the pool once', () => {
    const p = [single(1), single(2), single(1), single(2)];
    const { questionIds } = drawAttempt(p, { questions: 4 }, seededRandom(3));
    expect([...questionIds].sort()).toEqual([1, 2]);
  });
  it('draws nothing when no question is asked', () => {
    expect(drawAttempt(pool(5), { questions: 0 }, seededRandom(4))).toEqual({ questionIds: [], optionOrder: {} });
  });
  it('is reproducible with the same seed and varies with another', () => {
    const p = pool(40);
    expect(drawAttempt(p, { questions: 10 }, seededRandom(99))).toEqual(drawAttempt(p, { questions: 10 }, seededRandom(99)));
    expect(drawAttempt(p, { questions: 10 }, seededRandom(99))).not.toEqual(drawAttempt(p, { questions: 10 }, seededRandom(100)));
  });
  it('does not change the pool', () => {
    const p = pool(8);
    const copy = structuredClone(p);
    drawAttempt(p, { questions: 5 }, seededRandom(5));
    expect(p).toEqual(copy);
  });

  /*
   * Uniformity. 10,000 draws of 5 questions from 20: each question is drawn with probability 1/4 per
   * draw, so its count is Binomial(10000, 0.25): mean 2500, σ = √(10000·0.25·0.75) ≈ 43.3. A tolerance
   * of ±200 (≈ 4.6 σ) fails a correct draw with probability ≈ 4·10⁻⁶ per question whatever the seed,
   * yet catches real biases: always taking the head of the pool (10,000 vs 0), or the off-by-one
   * Fisher–Yates that never leaves an item in place (Sattolo: the first five drawn ≈ 2105 times).
   */
  it('picks every question with the same frequency (10,000 seeded draws)', () => {
    const n = 20;
    const k = 5;
    const draws = 10_000;
    const random = seededRandom(2024);
    const picked = new Array<number>(n + 1).fill(0);
    const first = new Array<number>(n + 1).fill(0);
    for (let i = 0; i < draws; i++) {
      const { questionIds } = drawAttempt(pool(n), { questions: k }, random);
      for (const id of questionIds) picked[id]!++;
      first[questionIds[0]!]!++;
    }
    const expected = (draws * k) / n;
    for (let id = 1; id <= n; id++) expect(Math.abs(picked[id]! - expected)).toBeLessThan(200);
    // The order is random too: each question comes first in 1/20 of the draws, 500 ± 21.8 (σ); ±100 ≈ 4.6 σ.
    for (let id = 1; id <= n; id++) expect(Math.abs(first[id]! - draws / n)).toBeLessThan(100);
  });

  it('shuffles the options of single and multiple choice, keeping the same options', () => {
    const p = [single(1), multiple(2, [21, 22])];
    const random = seededRandom(6);
    const orders = new Set<string>();
    for (let i = 0; i < 100; i++) {
      const { optionOrder } = drawAttempt(p, { questions: 2 }, random);
      expect([...optionOrder['1']!].sort()).toEqual([11, 12, 13, 14]);
      expect([...optionOrder['2']!].sort()).toEqual([21, 22, 23, 24]);
      orders.add(optionOrder['1']!.join());
    }
    expect(orders.size).toBeGreaterThan(10);
  });

  /*
   * 24,000 shuffles of four options: each of the 24 orders is expected 1000 times, σ = √(24000·(1/24)·(23/24)) ≈ 31;
   * ±150 (≈ 4.8 σ). Sattolo's off-by-one would give only the 6 cyclic orders; a swap-with-any-index
   * shuffle gives some orders ≈ 1.4 times as often as others.
   */
  it('gives every option order the same chance', () => {
    const random = seededRandom(77);
    const counts = new Map<string, number>();
    for (let i = 0; i < 24_000; i++) {
      const key = drawAttempt([single(1)], { questions: 1 }, random).optionOrder['1']!.join();
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    expect(counts.size).toBe(24);
    for (const c of counts.values()) expect(Math.abs(c - 1000)).toBeLessThan(150);
  });

  it('keeps true/false options true then false', () => {
    const random = seededRandom(8);
    for (let i = 0; i < 50; i++) {
      const { optionOrder } = drawAttempt([trueFalse(1), trueFalse(2, false), single(3)], { questions: 3 }, random);
      expect(optionOrder['1']).toEqual([11, 12]);
      expect(optionOrder['2']).toEqual([21, 22]);
    }
  });

  it('refuses a random source that leaves [0, 1)', () => {
    expect(() => drawAttempt(pool(3), { questions: 2 }, () => 1)).toThrow(RangeError);
    expect(() => drawAttempt(pool(3), { questions: 2 }, () => -0.1)).toThrow(RangeError);
    expect(() => drawAttempt(pool(3), { questions: 2 }, () => Number.NaN)).toThrow(RangeError);
  });

  it('gives a draw its stored schema accepts', () => {
    const drawn = drawAttempt([...pool(5), trueFalse(9)], { questions: 6 }, seededRandom(9));
    expect(drawnAttemptSchema.parse(JSON.parse(JSON.stringify(drawn)))).toEqual(drawn);
  });
});

describe('drawnAttemptSchema', () => {
  it('refuses stored junk', () => {
    expect(drawnAttemptSchema.safeParse({ questionIds: [1, -2], optionOrder: {} }).success).toBe(false);
    expect(drawnAttemptSchema.safeParse({ questionIds: [1], optionOrder: { abc: [1] } }).success).toBe(false);
    expect(drawnAttemptSchema.safeParse({ questionIds: [1], optionOrder: { '1': ['1'] } }).success).toBe(false);
    expect(drawnAttemptSchema.safeParse({ questionIds: '1,2' }).success).toBe(false);
  });
});

describe('presentAttempt', () => {
  const questions = [single(1), trueFalse(2), multiple(3, [31, 34])];
  const drawn = { questionIds: [3, 1, 2], optionOrder: { '1': [13, 11, 14, 12], '2': [21, 22], '3': [34, 32, 33, 31] } };

  it('shows the questions and options in the drawn order, in the page language', () => {
    const shown = presentAttempt(questions, drawn, 'en');
    expect(shown.map((q) => q.id)).toEqual([3, 1, 2]);
    expect(shown[0]).toEqual({
      id: 3,
      kind: 'multiple',
      prompt: 'Question 3',
      options: [
        { id: 34, text: 'Option 34' },
        { id: 32, text: 'Option 32' },
        { id: 33, text: 'Option 33' },
        { id: 31, text: 'Option 31' },
      ],
    });
    expect(shown[1]!.options.map((o) => o.id)).toEqual([13, 11, 14, 12]);
    expect(presentAttempt(questions, drawn, 'es')[2]).toMatchObject({ prompt: 'Pregunta 2', options: [{ text: 'Opción 21' }, { text: 'Opción 22' }] });
  });
  it('never says which options are right', () => {
    const text = JSON.stringify(presentAttempt(questions, drawn, 'es'));
    expect(text).not.toContain('correct');
    expect(text).not.toMatch(/:(true|false)\b/);
    for (const q of presentAttempt(questions, drawn, 'en')) for (const o of q.options) expect(Object.keys(o).sort()).toEqual(['id', 'text']);
  });
  it('copes with questions and options changed since the draw', () => {
    const edited = [{ ...single(1), options: [...single(1).options.filter((o) => o.id !== 14), { id: 15, textEs: 'Nueva', textEn: 'New', correct: false }] }];
    const shown = presentAttempt(edited, { questionIds: [7, 1], optionOrder: { '1': [14, 13, 11, 12] } }, 'es');
    expect(shown.map((q) => q.id)).toEqual([1]);
    expect(shown[0]!.options.map((o) => o.id)).toEqual([13, 11, 12, 15]);
  });
});
