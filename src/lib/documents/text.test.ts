import { describe, expect, it } from 'vitest';
import { fitText, fittingSize, printable, wrapText, type Measure } from './text';

/** A monospaced font: every character is half the size wide. */
const mono: Measure = { widthOfTextAtSize: (text: string, size: number) => [...text].length * size * 0.5 };
const width = (s: string, size: number) => mono.widthOfTextAtSize(s, size);

describe('printable', () => {
  it('composes accents, turns control and format characters into spaces and collapses runs of spaces', () => {
    expect(printable('  Jose\u0301\tN\u00fa\u00f1ez\u200b\n\u2028x  ')).toBe('José Núñez x');
  });
});

describe('fittingSize', () => {
  it('keeps the size when the text fits, shrinks it to fit, and never goes below the minimum', () => {
    expect(fittingSize(mono, 'abcd', 10, 100, 5)).toBe(10);
    expect(fittingSize(mono, 'abcd', 10, 16, 5)).toBe(8);
    expect(fittingSize(mono, 'abcdefghij', 10, 10, 5)).toBe(5);
    expect(fittingSize(mono, '', 10, 10, 5)).toBe(10);
  });
});

describe('fitText', () => {
  it('leaves a text that fits alone and cuts a longer one with an ellipsis within the width', () => {
    expect(fitText(mono, 'short', 10, 100)).toBe('short');
    const cut = fitText(mono, 'a rather long line of text', 10, 60);
    expect(cut).toBe('a rather lo…');
    expect(width(cut, 10)).toBeLessThanOrEqual(60);
  });
});

describe('wrapText', () => {
  it('breaks at spaces into lines no wider than the width', () => {
    const lines = wrapText(mono, 'one two three four five six', 10, 50);
    expect(lines).toEqual(['one two', 'three four', 'five six']);
    for (const line of lines) expect(width(line, 10)).toBeLessThanOrEqual(50);
  });

  it('cuts a word longer than a line, keeping every character', () => {
    const lines = wrapText(mono, 'go abcdefghijklmnop end', 10, 40);
    expect(lines).toEqual(['go', 'abcdefgh', 'ijklmnop', 'end']);
  });

  it('keeps at most maxLines, the last one ellipsised within the width', () => {
    const lines = wrapText(mono, 'one two three four five six', 10, 50, 2);
    expect(lines).toEqual(['one two', 'three fou…']);
    expect(width(lines[1]!, 10)).toBeLessThanOrEqual(50);
    expect(wrapText(mono, 'one two three four five six', 10, 50, 9)).toHaveLength(3);
    const tight = wrapText(mono, 'aaaa bbbb cccc', 10, 20, 1);
    expect(tight).toEqual(['aaa…']);
    expect(width(tight[0]!, 10)).toBeLessThanOrEqual(20);
  });
});
