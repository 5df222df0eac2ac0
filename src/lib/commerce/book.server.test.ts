/**
 * Digital books on PGlite (and PostgreSQL when it answers): the owner of a paid order gets the book's
 * PDF, licensed to them, with every Spanish character printable; someone else, an unpaid, failed or
 * refunded order, an unknown or junk id get nothing. A book bought through the checkout is owned.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePDFRawStream, PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, type PDFObject } from 'pdf-lib';
import { eq } from 'drizzle-orm';
import { testDatabases } from '../db/testing';
import type { DbHandle } from '../db/client';
import * as s from '../db/schema';
import { loadCatalog } from '../catalog';
import { es } from '~/i18n/es';
import { en } from '~/i18n/en';
import { SandboxGateway } from './sandbox';
import { validateCheckoutForm } from './payment';
import { CheckoutKeys } from './checkout-keys.server';
import { CheckoutService } from './checkout.server';
import { bookContent } from './book';
import { bookDownload, bookPdf, ownedBook, stampedPdf } from './book.server';

const databases = await testDatabases();
const NOW = new Date('2026-11-25T12:00:00Z');

/* ───────────── reading a PDF back ───────────── */

function streamText(obj: PDFObject | undefined): string {
  if (!(obj instanceof PDFRawStream)) throw new Error('expected a stream');
  return Buffer.from(decodePDFRawStream(obj).decode()).toString('latin1');
}

/** Every page's text (one string per text-showing operator, decoded through the font's ToUnicode map) and the glyph ids shown (0: a character the font lacks). */
async function readBack(bytes: Uint8Array): Promise<{ pages: string[][]; glyphs: number[]; title: string | undefined }> {
  const doc = await PDFDocument.load(bytes);
  const glyphs: number[] = [];
  const pages = doc.getPages().map((page) => {
    const fonts = page.node.Resources()!.lookup(PDFName.of('Font'), PDFDict);
    const toUnicode = new Map<number, string>();
    for (const [, ref] of fonts.entries()) {
      const cmap = streamText(doc.context.lookup(ref, PDFDict).lookup(PDFName.of('ToUnicode')));
      for (const [, cid, uni] of cmap.matchAll(/<([0-9A-Fa-f]{4})>\s*<([0-9A-Fa-f]+)>/g)) {
        toUnicode.set(parseInt(cid!, 16), String.fromCodePoint(...uni!.match(/.{4}/g)!.map((h) => parseInt(h, 16))));
      }
    }
    const contents = page.node.Contents();
    const streams = contents instanceof PDFArray ? contents.asArray().map((r) => doc.context.lookup(r)) : [contents];
    const content = streams.map((st) => streamText(st)).join('\n');
    return [...content.matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g)].map(([, hex]) => {
      const ids = (hex!.match(/.{4}/g) ?? []).map((h) => parseInt(h, 16));
      glyphs.push(...ids);
      return ids.map((id) => toUnicode.get(id) ?? '\uFFFD').join('');
    });
  });
  return { pages, glyphs, title: doc.getTitle() };
}

const source = { id: 9, titleEs: 'Niño, ¿qué aprendí? ¡Ya!', titleEn: 'Child, what did I learn?', author: 'Begoña Ibáñez', descriptionEs: 'Pingüinos y cigüeñas: ñ á é í ó ú ü ¿ ¡ Á É Í Ó Ú Ü Ñ. Una historia de diseño.', descriptionEn: 'Penguins and storks. A story of design.' };

describe('the book PDF', () => {
  it('prints every Spanish character with the embedded font, and the licence line on every page', async () => {
    const content = bookContent(source, { name: 'José Núñez', orderId: 42 }, 'es', es.commerce.book, 'Academia');
    const pdf = await bookPdf(content);
    expect(Buffer.from(pdf).subarray(0, 5).toString()).toBe('%PDF-');
    const { pages, glyphs, title } = await readBack(pdf);
    expect(title).toBe('Niño, ¿qué aprendí? ¡Ya!');
    expect(glyphs).not.toContain(0);
    expect(pages.length).toBeGreaterThanOrEqual(2);
    expect(pages[0]).toEqual(expect.arrayContaining(['Niño, ¿qué aprendí? ¡Ya!', 'de Begoña Ibáñez']));
    for (const [i, lines] of pages.entries()) {
      expect(lines, `page ${i + 1}`).toContain('Con licencia para José Núñez · pedido A-000042');
      expect(lines, `page ${i + 1}`).toContain(`Página ${i + 1}`);
    }
    const all = pages.flat().join(' ');
    expect(all).toContain('Introducción');
    expect(all).toContain('ñ á é í ó ú ü ¿ ¡ Á É Í Ó Ú Ü Ñ');
    expect(all).toContain('Capítulo 3: Poner en práctica');
  });

  it("stamps an uploaded PDF's every page with the buyer's licence line; a file it cannot read is left alone", async () => {
    const uploaded = await PDFDocument.create();
    uploaded.addPage([300, 400]);
    uploaded.addPage([595, 842]);
    const stamped = await stampedPdf(await uploaded.save(), 'Con licencia para José Núñez · pedido A-000042');
    const { pages, glyphs } = await readBack(stamped!);
    expect(glyphs).not.toContain(0);
    expect(pages).toEqual([['Con licencia para José Núñez · pedido A-000042'], ['Con licencia para José Núñez · pedido A-000042']]);
    expect(await stampedPdf(new TextEncoder().encode('%PDF-1.7 but nothing else'), 'x')).toBeNull();
  });

  it('flows a long body over pages and wraps a long name without losing the order number', async () => {
    const long = { ...source, descriptionEn: 'A sentence that goes on and on. '.repeat(200) + 'Supercalifragilisticexpialidocious'.repeat(8) };
    const name = 'Maximiliano Alejandro de la Santísima Trinidad Fernández-Villaverde y Gutiérrez de Quiñones';
    const { pages } = await readBack(await bookPdf(bookContent(long, { name, orderId: 7 }, 'en', en.commerce.book, 'Academy')));
    expect(pages.length).toBeGreaterThan(4);
    for (const lines of pages) expect(lines.join(' ')).toContain('· order A-000007');
  });
});

describe.each(databases)('book downloads on $name', ({ create }) => {
  let handle: DbHandle;
  let people = 0;

  /** A new learner. */
  const newPerson = async (firstName = 'Libro', lastName = 'Lector') => {
    people++;
    const [u] = await handle.db.insert(s.users).values({ email: `books.${people}.${Math.random().toString(36).slice(2)}@example.com`, firstName, lastName: `${lastName}${people}` }).returning();
    const [c] = await handle.db.insert(s.contacts).values({ userId: u!.id, firstName, lastName: `${lastName}${people}`, email: u!.email }).returning();
    return { userId: u!.id, contactId: c!.id, name: `${firstName} ${lastName}${people}` };
  };
  /** An order of `userId` with `status` holding book `bookId` (and course 6). */
  const orderOf = async (userId: number, status: s.Order['status'], bookId = 1) => {
    const [o] = await handle.db
      .insert(s.orders)
      .values({ userId, status, subtotalCents: 1490, totalCents: 1490, idempotencyKey: `books-${Math.random()}`, paidAt: status === 'paid' || status === 'refunded' ? NOW : null })
      .returning();
    await handle.db.insert(s.orderItems).values([
      { orderId: o!.id, productKind: 'course', productId: 6, productCode: 'C6', titleEs: 'Curso', titleEn: 'Course', priceCents: 100 },
      { orderId: o!.id, productKind: 'book', productId: bookId, productCode: 'B', titleEs: 'Libro', titleEn: 'Book', priceCents: 1390 },
    ]);
    return o!;
  };
  const download = (userId: number, id: string, locale: 'es' | 'en' = 'es') => bookDownload(handle.db, userId, id, locale, (locale === 'en' ? en : es).commerce.book, 'Academia');

  beforeAll(async () => {
    handle = await create({ seed: true });
  });
  afterAll(async () => handle?.close());

  it('gives the owner of a paid order the book, licensed to them, in their language', async () => {
    const me = await newPerson('José', 'Núñez');
    const order = await orderOf(me.userId, 'paid');
    expect(await ownedBook(handle.db, me.userId, 1)).toMatchObject({ orderId: order.id, book: { id: 1, titleEs: 'El arte de viajar vendiendo' } });
    const got = await download(me.userId, '1');
    expect(got?.fileName).toBe('el-arte-de-viajar-vendiendo.pdf');
    const { pages, glyphs } = await readBack(got!.pdf);
    expect(glyphs).not.toContain(0);
    expect(pages[0]).toEqual(expect.arrayContaining(['El arte de viajar vendiendo', 'de Lucía Herrera', `Con licencia para ${me.name} · pedido A-${String(order.id).padStart(6, '0')}`]));
    const english = await download(me.userId, '1', 'en');
    expect(english?.fileName).toBe('the-art-of-selling-travel.pdf');
    expect((await readBack(english!.pdf)).pages[0]).toEqual(expect.arrayContaining(['The art of selling travel', `Licensed to ${me.name} · order A-${String(order.id).padStart(6, '0')}`]));
  });

  it('gives nothing to someone else, for an unpaid, failed or refunded order, another book, an unknown or junk id', async () => {
    const owner = await newPerson();
    await orderOf(owner.userId, 'paid', 2);
    const other = await newPerson();
    expect(await download(other.userId, '2')).toBeNull();
    for (const status of ['pending', 'failed', 'refunded'] as const) {
      const me = await newPerson();
      await orderOf(me.userId, status, 2);
      expect(await ownedBook(handle.db, me.userId, 2), status).toBeNull();
      expect(await download(me.userId, '2'), status).toBeNull();
    }
    expect(await download(owner.userId, '3')).toBeNull(); // a book they did not buy
    expect(await download(owner.userId, '6')).toBeNull(); // the course's id is not a book's
    for (const junk of [undefined, '', '0', '-2', '02', '2.0', 'abc', '2147483648', '99999999999999999999', "2' or 1=1"]) expect(await download(owner.userId, junk as string), String(junk)).toBeNull();
    // An item of a book since removed from the catalogue: nothing to print.
    const gone = await newPerson();
    await orderOf(gone.userId, 'paid', 999);
    expect(await download(gone.userId, '999')).toBeNull();
  });

  it('a refund takes the book back; the seeded demo buyer owns book 1', async () => {
    const me = await newPerson();
    const order = await orderOf(me.userId, 'paid', 4);
    expect(await ownedBook(handle.db, me.userId, 4)).not.toBeNull();
    await handle.db.update(s.orders).set({ status: 'refunded' }).where(eq(s.orders.id, order.id));
    expect(await ownedBook(handle.db, me.userId, 4)).toBeNull();
    const [buyer] = await handle.db.select().from(s.users).where(eq(s.users.email, 'buyer@academia.example'));
    expect(await ownedBook(handle.db, buyer!.id, 1)).not.toBeNull();
    expect(await ownedBook(handle.db, buyer!.id, 2)).toBeNull();
  });

  it('a book bought through the checkout with the approved test card is owned; a declined one is not', async () => {
    const catalog = await loadCatalog(handle.db);
    const keys = new CheckoutKeys(new Uint8Array(32).fill(9));
    const service = new CheckoutService({ db: handle.db, gateway: new SandboxGateway({ now: () => NOW, latencyMs: 1 }), keys, now: () => NOW });
    const buy = async (who: { userId: number; contactId: number }, cardNumber: string) => {
      const form = validateCheckoutForm(
        { cardholderName: 'Ana Pérez', cardNumber, expiryMonth: '12', expiryYear: '2030', cvv: '123', birthYear: '1990', identificationType: '1', identificationNumber: 'AB123', country: 'US', acceptsTerms: 'on', idempotencyKey: keys.issue(who.userId) },
        NOW,
      );
      if (!form.success) throw new Error(JSON.stringify(form.errors));
      return service.checkout({ userId: who.userId, contactId: who.contactId, catalog, cartCookie: JSON.stringify([{ kind: 'book', id: 3 }]), form: form.data, couponCode: null, locale: 'es' });
    };
    const paid = await newPerson();
    expect((await buy(paid, '4242 4242 4242 4242')).kind).toBe('paid');
    expect((await download(paid.userId, '3'))?.fileName).toBe('finanzas-para-independientes.pdf');
    const declined = await newPerson();
    expect((await buy(declined, '4000 0000 0000 0002')).kind).toBe('failed');
    expect(await download(declined.userId, '3')).toBeNull();
  });
});
