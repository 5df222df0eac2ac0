/**
 * Digital books: who owns one (a paid order of theirs holding it) and its PDF, generated on request
 * for that buyer (A5 portrait, the embedded font the certificates and receipts use, so every Spanish
 * character prints), with the licence line at the foot of every page; or, once staff uploaded the
 * book's own PDF, that file from storage. Nothing is written to disk.
 */
import { and, eq, isNull } from 'drizzle-orm';
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, type PDFFont } from 'pdf-lib';
import { format, type Locale } from '~/i18n';
import type { Db } from '../db/client';
import { books, orderItems, orders, type Book } from '../db/schema';
import { DOCUMENT_COLORS, documentFont, drawCentred, newDocument, PAGE_SIZES, printable, wrapText } from '../documents';
import { bookContent, bookFileName, licenceLine, owningOrder, parseBookId, type BookContent, type BookTexts } from './book';
import { buyerOf } from './orders.server';
import type { Storage } from '../storage/storage';

const { width: PAGE_WIDTH, height: PAGE_HEIGHT } = PAGE_SIZES.a5Portrait;
const MARGIN = 48;
const TEXT_WIDTH = PAGE_WIDTH - 2 * MARGIN;
const BODY_SIZE = 11;
const LEADING = 16;
const { ink: INK, muted: MUTED, accent: ACCENT } = DOCUMENT_COLORS;

/** A book the person owns, and the order that paid for it. */
export interface OwnedBook {
  book: Book;
  orderId: number;
}

/** `bookId` when `userId` owns it (a paid order of theirs holds it, its line not refunded; pending, failed and refunded ones do not count), else null. */
export async function ownedBook(db: Db, userId: number, bookId: number | null): Promise<OwnedBook | null> {
  if (bookId === null) return null;
  const rows = await db
    .select({ id: orders.id, status: orders.status, productKind: orderItems.productKind, productId: orderItems.productId })
    .from(orders)
    .innerJoin(orderItems, eq(orderItems.orderId, orders.id))
    .where(and(eq(orders.userId, userId), eq(orderItems.productKind, 'book'), eq(orderItems.productId, bookId), isNull(orderItems.refundedAt)));
  const order = owningOrder(
    rows.map((r) => ({ id: r.id, status: r.status, items: [{ productKind: r.productKind, productId: r.productId }] })),
    bookId,
  );
  if (!order) return null;
  const [book] = await db.select().from(books).where(eq(books.id, bookId)).limit(1);
  return book ? { book, orderId: order.id } : null;
}

/** The words of `text`, made printable, in lines no wider than `width` at `size` (a word too long for a line is cut). */
function wrap(font: PDFFont, text: string, size: number, width: number): string[] {
  return wrapText(font, printable(text), size, width);
}

/** The book as a PDF: a title page (title, author, edition), then its sections; every page carries the licence line and its number. */
export async function bookPdf(content: BookContent): Promise<Uint8Array> {
  const title = printable(content.title);
  const author = printable(content.author);
  const { doc, font } = await newDocument({ title, author, subject: printable(content.licence), language: content.locale, creator: printable(content.edition) });

  // Title page.
  const cover = doc.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
  let y = PAGE_HEIGHT * 0.62;
  for (const line of wrap(font, title, 26, TEXT_WIDTH)) {
    drawCentred(cover, font, line, y, 26);
    y -= 32;
  }
  y -= 8;
  cover.drawLine({ start: { x: PAGE_WIDTH / 2 - 40, y: y + 10 }, end: { x: PAGE_WIDTH / 2 + 40, y: y + 10 }, thickness: 1, color: ACCENT });
  y -= 18;
  for (const line of wrap(font, content.byline, 14, TEXT_WIDTH)) {
    drawCentred(cover, font, line, y, 14, MUTED);
    y -= 20;
  }
  for (const line of wrap(font, content.edition, 10, TEXT_WIDTH)) drawCentred(cover, font, line, MARGIN + 40, 10, ACCENT);

  // The sections, flowing over as many pages as they need.
  let page = doc.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
  y = PAGE_HEIGHT - MARGIN - 10;
  const bottom = MARGIN + 30;
  const room = (needed: number) => {
    if (y - needed >= bottom) return;
    page = doc.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
    y = PAGE_HEIGHT - MARGIN - 10;
  };
  for (const section of content.sections) {
    const heading = wrap(font, section.heading, 16, TEXT_WIDTH);
    // A heading never ends a page: it moves with its first lines.
    room(heading.length * 22 + 2 * LEADING + 8);
    for (const line of heading) {
      page.drawText(line, { x: MARGIN, y, size: 16, font, color: ACCENT });
      y -= 22;
    }
    y -= 6;
    for (const paragraph of section.paragraphs) {
      for (const line of wrap(font, paragraph, BODY_SIZE, TEXT_WIDTH)) {
        room(LEADING);
        page.drawText(line, { x: MARGIN, y, size: BODY_SIZE, font, color: INK });
        y -= LEADING;
      }
      y -= 8;
    }
    y -= 14;
  }

  // The licence line and the page number at the foot of every page, the title page included.
  // A long name wraps (up to three lines) rather than losing the order number.
  const licence = wrap(font, content.licence, 8, TEXT_WIDTH - 50).slice(0, 3);
  doc.getPages().forEach((p, i) => {
    p.drawLine({ start: { x: MARGIN, y: MARGIN }, end: { x: PAGE_WIDTH - MARGIN, y: MARGIN }, thickness: 0.5, color: MUTED });
    licence.forEach((line, l) => p.drawText(line, { x: MARGIN, y: MARGIN - 14 - l * 10, size: 8, font, color: MUTED }));
    const n = format(content.pageLabel, { n: i + 1 });
    p.drawText(n, { x: PAGE_WIDTH - MARGIN - font.widthOfTextAtSize(n, 8), y: MARGIN - 14, size: 8, font, color: MUTED });
  });
  return doc.save();
}

/** A book's download: the PDF and its file name. */
export interface BookDownload {
  pdf: Uint8Array;
  fileName: string;
}

/**
 * The PDF of book `rawId` (a route parameter) for `userId` in `locale`, licensed to them; null when
 * the id is not a book's or they do not own it (the endpoint answers 404).
 */
export async function bookDownload(db: Db, userId: number, rawId: string | undefined, locale: Locale, t: BookTexts, issuer: string): Promise<BookDownload | null> {
  const owned = await ownedBook(db, userId, parseBookId(rawId));
  const buyer = owned ? await buyerOf(db, userId) : null;
  if (!owned || !buyer) return null;
  const content = bookContent(owned.book, { name: buyer.name, orderId: owned.orderId }, locale, t, issuer);
  return { pdf: await bookPdf(content), fileName: bookFileName(owned.book, locale, t) };
}

/**
 * What a buyer downloads: the PDF staff uploaded with the buyer's licence line stamped at the foot of
 * every page (`bytes`), the uploaded file as it is when it cannot be stamped (an encrypted or damaged
 * PDF: `stream`), or, for a book without an upload (every demo book), the PDF drawn for them (`bytes`).
 */
export type BookFile = { kind: 'stream'; body: NodeJS.ReadableStream; sizeBytes: number; fileName: string } | { kind: 'bytes'; pdf: Uint8Array; fileName: string };

/** `bytes`, a PDF, with `licence` printed small at the foot of every page; null when it cannot be read or changed (encrypted, damaged). */
export async function stampedPdf(bytes: Uint8Array, licence: string): Promise<Uint8Array | null> {
  try {
    const doc = await PDFDocument.load(bytes, { updateMetadata: false });
    doc.registerFontkit(fontkit);
    const font = await doc.embedFont(await documentFont(), { subset: true });
    for (const page of doc.getPages()) {
      const { width } = page.getSize();
      const lines = wrapText(font, printable(licence), 7, Math.max(60, width - 48), 2);
      lines.forEach((line, i) => page.drawText(line, { x: 24, y: 12 + (lines.length - 1 - i) * 9, size: 7, font, color: MUTED }));
    }
    return await doc.save();
  } catch {
    return null;
  }
}

/** How long a stored PDF may be to be stamped (read whole into memory); a longer one is served as uploaded. */
const STAMP_MAX_BYTES = 16 * 1024 * 1024;

async function readAll(body: NodeJS.ReadableStream): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const c of body) chunks.push(Buffer.from(c as Uint8Array));
  return new Uint8Array(Buffer.concat(chunks));
}

/**
 * Book `rawId` for `userId` (who must own it, as `bookDownload` says): the uploaded PDF when the book has
 * one and it is in storage (licensed to them when it can be stamped), else the PDF drawn for the buyer
 * (every demo book, and a book before its upload). Null when the id is not a book's or they do not own it.
 */
export async function bookFile(db: Db, storage: Storage, userId: number, rawId: string | undefined, locale: Locale, t: BookTexts, issuer: string): Promise<BookFile | null> {
  const owned = await ownedBook(db, userId, parseBookId(rawId));
  if (!owned) return null;
  const fileName = bookFileName(owned.book, locale, t);
  const stat = owned.book.pdfKey ? await storage.stat(owned.book.pdfKey) : null;
  if (owned.book.pdfKey && stat) {
    const buyer = await buyerOf(db, userId);
    if (buyer && stat.sizeBytes <= STAMP_MAX_BYTES) {
      const stored = await storage.get(owned.book.pdfKey);
      if (stored) {
        const stamped = await stampedPdf(await readAll(stored.body), licenceLine(t, { name: buyer.name, orderId: owned.orderId }));
        if (stamped) return { kind: 'bytes', pdf: stamped, fileName };
      }
    }
    const stored = await storage.get(owned.book.pdfKey);
    if (stored) return { kind: 'stream', body: stored.body, sizeBytes: stored.object.sizeBytes, fileName };
  }
  const drawn = await bookDownload(db, userId, rawId, locale, t, issuer);
  return drawn ? { kind: 'bytes', ...drawn } : null;
}
