/**
 * A new printed document: a PDF with the embedded font (subset, so every Spanish character prints in
 * a small file) and its title, author, subject, language and creator set.
 */
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, type PDFFont } from 'pdf-lib';
import { documentFont } from './font.server';

/** What a document says of itself (its properties in a PDF viewer). */
export interface DocumentInfo {
  title: string;
  author: string;
  subject: string;
  /** A BCP 47 tag (`es`, `en`). */
  language: string;
  creator: string;
  keywords?: string[];
  /** Its creation and modification date (default: now). */
  date?: Date;
}

/** An empty PDF with the embedded font and `info` set; pages are added by the caller. */
export async function newDocument(info: DocumentInfo): Promise<{ doc: PDFDocument; font: PDFFont }> {
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  const font = await doc.embedFont(await documentFont(), { subset: true });
  doc.setTitle(info.title, { showInWindowTitleBar: true });
  doc.setAuthor(info.author);
  doc.setSubject(info.subject);
  if (info.keywords) doc.setKeywords(info.keywords);
  doc.setLanguage(info.language);
  doc.setCreator(info.creator);
  if (info.date) {
    doc.setCreationDate(info.date);
    doc.setModificationDate(info.date);
  }
  return { doc, font };
}
