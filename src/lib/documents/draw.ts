/**
 * Drawing on the pages of the printed documents (certificates, receipts, books): their page sizes and
 * colours, text set centred or flush right, and a QR code drawn as vector squares.
 */
import { rgb, type PDFFont, type PDFPage, type RGB } from 'pdf-lib';
import QRCode from 'qrcode';

/** The page sizes the documents use, in points. */
export const PAGE_SIZES = {
  a4Portrait: { width: 595.28, height: 841.89 },
  a4Landscape: { width: 841.89, height: 595.28 },
  a5Portrait: { width: 419.53, height: 595.28 },
} as const;

/** The colours every printed document uses (certificates, receipts, books): text, secondary text, accent. */
export const DOCUMENT_COLORS = { ink: rgb(0.11, 0.13, 0.17), muted: rgb(0.36, 0.39, 0.45), accent: rgb(0.09, 0.27, 0.49) } as const;

/** What the drawing helpers ask of a page. */
export type Canvas = Pick<PDFPage, 'drawText' | 'drawRectangle' | 'getWidth'>;

/** `text` centred across the page's width, its baseline at `y`. */
export function drawCentred(page: Canvas, font: PDFFont, text: string, y: number, size: number, color: RGB = DOCUMENT_COLORS.ink): void {
  page.drawText(text, { x: (page.getWidth() - font.widthOfTextAtSize(text, size)) / 2, y, size, font, color });
}

/** `text` ending at `x` (flush right), its baseline at `y`. */
export function drawRight(page: Canvas, font: PDFFont, text: string, x: number, y: number, size: number, color: RGB = DOCUMENT_COLORS.ink): void {
  page.drawText(text, { x: x - font.widthOfTextAtSize(text, size), y, size, font, color });
}

/** Draws the QR code of `text` as filled squares (runs of dark modules merged), `side` points wide, lower-left at (x, y). */
export function drawQr(page: Canvas, text: string, x: number, y: number, side: number, color: RGB = DOCUMENT_COLORS.ink): void {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const cell = side / modules.size;
  for (let row = 0; row < modules.size; row++) {
    let col = 0;
    while (col < modules.size) {
      if (!modules.get(row, col)) {
        col++;
        continue;
      }
      const start = col;
      while (col < modules.size && modules.get(row, col)) col++;
      // A hair of overlap so viewers do not show seams between neighbouring squares.
      page.drawRectangle({ x: x + start * cell, y: y + side - (row + 1) * cell - 0.05, width: (col - start) * cell, height: cell + 0.1, color });
    }
  }
}
