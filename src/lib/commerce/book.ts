/**
 * Digital books: what the PDF a buyer downloads says in one language (a title page, an introduction
 * and a few sections built from the catalogue's description, and the licence line printed on every
 * page), the file's name, and who owns a book (a paid order of it; a refunded one no longer counts).
 * Pure: `book.server.ts` reads the database and draws the PDF from these facts.
 */
import { format, type Locale } from '~/i18n';
import { slug } from '~/lib/paths';
import { orderNumber } from './checkout';
import type { CommerceTexts } from './receipt';

/** The words a book's PDF uses (the catalogue's `commerce.book` section). */
export type BookTexts = CommerceTexts['book'];

/** A book of the catalogue, as its PDF needs it. */
export interface BookSource {
  id: number;
  titleEs: string;
  titleEn: string;
  author: string;
  descriptionEs: string;
  descriptionEn: string;
}

/** Whom a copy is licensed to: the buyer's full name and the order that paid for it. */
export interface BookLicensee {
  name: string;
  orderId: number;
}

/** A section of the book: a heading and its paragraphs. */
export interface BookSection {
  heading: string;
  paragraphs: string[];
}

/** Everything a book's PDF prints, already in its language. */
export interface BookContent {
  locale: Locale;
  title: string;
  author: string;
  /** "de Lucía Herrera" / "by Lucía Herrera". */
  byline: string;
  /** "Edición digital de Academia". */
  edition: string;
  /** The line printed at the foot of every page: "Con licencia para José Núñez · pedido A-000042". */
  licence: string;
  /** The footer's page label, with `{n}` for the number. */
  pageLabel: string;
  sections: BookSection[];
}

/** The sentences of a text ("Uno. ¿Dos? ¡Tres!" → three), blank ones dropped. */
export function sentences(text: string): string[] {
  return (text.replace(/\s+/g, ' ').trim().match(/[^.!?…]+(?:[.!?…]+|$)/g) ?? []).map((s) => s.trim()).filter((s) => s.length > 0);
}

/** The contents of `book`'s PDF in `locale`, licensed to `licensee`: title page, introduction, three chapters and a closing. */
export function bookContent(book: BookSource, licensee: BookLicensee, locale: Locale, t: BookTexts, issuer: string): BookContent {
  const title = locale === 'en' ? book.titleEn : book.titleEs;
  const description = locale === 'en' ? book.descriptionEn : book.descriptionEs;
  const { author } = book;
  const lines = sentences(description);
  const chapters = [t.chapters.one, t.chapters.two, t.chapters.three];
  return {
    locale,
    title,
    author,
    byline: format(t.by, { author }),
    edition: format(t.edition, { issuer }),
    licence: licenceLine(t, licensee),
    pageLabel: t.page,
    sections: [
      { heading: t.introduction, paragraphs: [description, format(t.introductionAfter, { author })] },
      ...chapters.map((c, i) => ({
        heading: format(t.chapter, { n: i + 1, name: c.name }),
        // The first chapters open with the description's sentences, one each, then their own text.
        paragraphs: [...(lines[i] ? [lines[i]] : []), format(c.body, { author, title })],
      })),
      { heading: t.closing, paragraphs: [format(t.closingBody, { title }), t.rights] },
    ],
  };
}

/** "Licensed to {name} · order {number}" in the texts' language. */
export function licenceLine(t: BookTexts, licensee: BookLicensee): string {
  return format(t.licence, { name: licensee.name, number: orderNumber(licensee.orderId) });
}

/** The download's file name: the title as a plain ASCII slug ("el-arte-de-viajar-vendiendo.pdf"), or "libro-3.pdf" when nothing of it is left. */
export function bookFileName(book: Pick<BookSource, 'id' | 'titleEs' | 'titleEn'>, locale: Locale, t: Pick<BookTexts, 'file'>): string {
  const name = slug(locale === 'en' ? book.titleEn : book.titleEs);
  return `${name === 'x' ? `${t.file}-${book.id}` : name}.pdf`;
}

/** An order as ownership reads it. */
export interface OwnershipOrder {
  id: number;
  status: 'pending' | 'paid' | 'failed' | 'refunded';
  items: readonly { productKind: 'course' | 'book' | 'plan'; productId: number }[];
}

/**
 * The order that makes a person own `bookId` (the newest paid order holding it), or null. Pending,
 * failed and refunded orders do not count.
 */
export function owningOrder<O extends OwnershipOrder>(orders: readonly O[], bookId: number): O | null {
  let found: O | null = null;
  for (const o of orders) {
    if (o.status !== 'paid' || !o.items.some((i) => i.productKind === 'book' && i.productId === bookId)) continue;
    if (!found || o.id > found.id) found = o;
  }
  return found;
}

/** Whether a book item of an order may be downloaded from my shopping and the order page. */
export function mayDownloadBook(status: OwnershipOrder['status'], kind: OwnershipOrder['items'][number]['productKind']): boolean {
  return status === 'paid' && kind === 'book';
}

/** Reads a book id from a route parameter ("3"), or null for anything else. */
export function parseBookId(raw: string | undefined): number | null {
  if (!raw || !/^[1-9][0-9]{0,9}$/.test(raw)) return null;
  const n = Number(raw);
  return n <= 2_147_483_647 ? n : null;
}
