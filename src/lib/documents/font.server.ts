/**
 * The font embedded in the PDFs the academy prints (certificates, receipts): Liberation Serif (SIL OFL
 * 1.1; see assets/fonts/README.md), which covers Spanish. Read once per process.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { projectRoot } from '../config/project-root.server';
import { rgb } from 'pdf-lib';

/** The embedded font, relative to the project folder. */
export const DOCUMENT_FONT = 'assets/fonts/LiberationSerif-Regular.ttf';

/** The font's bytes, read once per process (a failed read is retried on the next call). */
let fontBytes: Promise<Uint8Array> | null = null;
export function documentFont(): Promise<Uint8Array> {
  fontBytes ??= readFile(resolve(projectRoot(), DOCUMENT_FONT)).then(
    (b) => new Uint8Array(b.buffer, b.byteOffset, b.byteLength),
    (err: unknown) => {
      fontBytes = null;
      throw err;
    },
  );
  return fontBytes;
}

/** Text as printed: NFC, control and format characters turned into spaces, runs of spaces collapsed. */
export function printable(s: string): string {
  return s
    .normalize('NFC')
    .replace(/[\p{Cc}\p{Cf}\u2028\u2029]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The colours every printed document uses (certificates, receipts, books): text, secondary text, accent. */
export const DOCUMENT_COLORS = { ink: rgb(0.11, 0.13, 0.17), muted: rgb(0.36, 0.39, 0.45), accent: rgb(0.09, 0.27, 0.49) } as const;
