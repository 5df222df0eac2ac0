/**
 * The font embedded in the PDFs the academy prints (certificates, receipts, books): Liberation Serif
 * (SIL OFL 1.1; see assets/fonts/README.md), which covers Spanish. Read once per process.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { projectRoot } from '../config/project-root.server';

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
