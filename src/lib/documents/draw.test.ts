import { describe, expect, it } from 'vitest';
import type { PDFFont } from 'pdf-lib';
import QRCode from 'qrcode';
import { DOCUMENT_COLORS, drawCentred, drawQr, drawRight, PAGE_SIZES, type Canvas } from './draw';

/** A page that records what is drawn on it. */
function recordingPage(width: number) {
  const texts: { text: string; x: number; y: number; size: number; color: unknown }[] = [];
  const squares: { x: number; y: number; width: number; height: number }[] = [];
  const page = {
    getWidth: () => width,
    drawText: (text: string, o: { x: number; y: number; size: number; color: unknown }) => void texts.push({ text, x: o.x, y: o.y, size: o.size, color: o.color }),
    drawRectangle: (o: { x: number; y: number; width: number; height: number }) => void squares.push({ x: o.x, y: o.y, width: o.width, height: o.height }),
  } as unknown as Canvas;
  return { page, texts, squares };
}
const font = { widthOfTextAtSize: (text: string, size: number) => text.length * size * 0.5 } as PDFFont;

describe('page sizes', () => {
  it('are A4 and A5 in points, landscape the portrait turned', () => {
    expect(PAGE_SIZES.a4Portrait).toEqual({ width: 595.28, height: 841.89 });
    expect(PAGE_SIZES.a4Landscape).toEqual({ width: PAGE_SIZES.a4Portrait.height, height: PAGE_SIZES.a4Portrait.width });
    expect(PAGE_SIZES.a5Portrait.height).toBe(PAGE_SIZES.a4Portrait.width);
  });
});

describe('text placement', () => {
  it('centres a text across the page, in ink unless told otherwise', () => {
    const { page, texts } = recordingPage(300);
    drawCentred(page, font, 'abcd', 50, 10);
    drawCentred(page, font, 'ab', 40, 10, DOCUMENT_COLORS.accent);
    expect(texts).toEqual([
      { text: 'abcd', x: 140, y: 50, size: 10, color: DOCUMENT_COLORS.ink },
      { text: 'ab', x: 145, y: 40, size: 10, color: DOCUMENT_COLORS.accent },
    ]);
  });

  it('sets a text flush right against x', () => {
    const { page, texts } = recordingPage(300);
    drawRight(page, font, 'abcd', 250, 20, 12, DOCUMENT_COLORS.muted);
    expect(texts).toEqual([{ text: 'abcd', x: 226, y: 20, size: 12, color: DOCUMENT_COLORS.muted }]);
  });
});

describe('drawQr', () => {
  it('covers exactly the dark modules of the code, inside its square', () => {
    const url = 'https://academia.example/verify/ACAD-7K2Q-9XRM-4TPH-B3WD';
    const { page, squares } = recordingPage(600);
    drawQr(page, url, 10, 20, 100);
    const { modules } = QRCode.create(url, { errorCorrectionLevel: 'M' });
    const cell = 100 / modules.size;
    let dark = 0;
    for (let r = 0; r < modules.size; r++) for (let c = 0; c < modules.size; c++) if (modules.get(r, c)) dark++;
    expect(squares.reduce((n, s) => n + Math.round(s.width / cell), 0)).toBe(dark);
    for (const s of squares) {
      expect(s.x).toBeGreaterThanOrEqual(10);
      expect(s.x + s.width).toBeLessThanOrEqual(110 + 1e-9);
      expect(s.y).toBeGreaterThanOrEqual(20 - 0.05 - 1e-9);
      expect(s.y + s.height).toBeLessThanOrEqual(120 + 0.05 + 1e-9);
    }
    // Runs of dark modules are merged: fewer squares than dark modules.
    expect(squares.length).toBeLessThan(dark);
  });
});
