/**
 * The printed documents' toolkit (certificates, receipts, books): the embedded font and a new PDF
 * (`pdf.server.ts`), text fitting and wrapping (`text.ts`), page sizes, colours and drawing (`draw.ts`).
 * Server code only: the font is read from disk.
 */
export * from './text';
export * from './draw';
export { documentFont, DOCUMENT_FONT } from './font.server';
export { newDocument, type DocumentInfo } from './pdf.server';
