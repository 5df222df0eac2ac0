/**
 * Text as the printed documents (certificates, receipts, books) set it: made printable, broken into
 * lines, cut or shrunk to fit a width. Pure: a font's widths are all it asks of pdf-lib.
 */
import type { PDFFont } from 'pdf-lib';

/** What the text helpers ask of a font: the width of a text at a size. */
export type Measure = Pick<PDFFont, 'widthOfTextAtSize'>;

/** Text as printed: NFC, control and format characters turned into spaces, runs of spaces collapsed. */
export function printable(s: string): string {
  return s
    .normalize('NFC')
    .replace(/[\p{Cc}\p{Cf}\u2028\u2029]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The largest size (from `size` down to `min`) at which `text` fits `width`. */
export function fittingSize(font: Measure, text: string, size: number, width: number, min: number): number {
  const at1 = font.widthOfTextAtSize(text, 1);
  return at1 === 0 ? size : Math.max(min, Math.min(size, width / at1));
}

/** `text` cut with an ellipsis to fit `width` at `size`. */
export function fitText(font: Measure, text: string, size: number, width: number): string {
  if (font.widthOfTextAtSize(text, size) <= width) return text;
  let cut = text;
  while (cut.length > 1 && font.widthOfTextAtSize(`${cut}…`, size) > width) cut = cut.slice(0, -1);
  return `${cut}…`;
}

/** `text` broken into lines no wider than `width` (long words are cut), at most `maxLines` (the last one ellipsised). */
export function wrapText(font: Measure, text: string, size: number, width: number, maxLines = Infinity): string[] {
  const fits = (s: string) => font.widthOfTextAtSize(s, size) <= width;
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const candidate = line ? `${line} ${word}` : word;
    if (fits(candidate)) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    line = word;
    while (!fits(line)) {
      let cut = line.length - 1;
      while (cut > 1 && !fits(line.slice(0, cut))) cut--;
      lines.push(line.slice(0, cut));
      line = line.slice(cut);
    }
  }
  if (line) lines.push(line);
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  let last = `${kept[maxLines - 1]!}…`;
  while (!fits(last) && last.length > 1) last = `${last.slice(0, -2)}…`;
  kept[maxLines - 1] = last;
  return kept;
}
