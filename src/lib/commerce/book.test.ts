import { describe, expect, it } from 'vitest';
import { es } from '~/i18n/es';
import { en } from '~/i18n/en';
import { bookContent, bookFileName, licenceLine, mayDownloadBook, owningOrder, parseBookId, sentences, type BookSource, type OwnershipOrder } from './book';

const book: BookSource = {
  id: 1,
  titleEs: 'El arte de viajar vendiendo',
  titleEn: 'The art of selling travel',
  author: 'Lucía Herrera',
  descriptionEs: 'Una guía práctica para convertir la pasión por los viajes en un negocio rentable. Lucía Herrera comparte técnicas de venta, historias reales y los errores que conviene evitar.',
  descriptionEn: 'A practical guide to turning a passion for travel into a profitable business. Lucía Herrera shares sales techniques, real stories and the mistakes worth avoiding.',
};
const licensee = { name: 'José Núñez', orderId: 42 };

describe('book contents', () => {
  it('has a title page and a body built from the description, in Spanish', () => {
    const c = bookContent(book, licensee, 'es', es.commerce.book, 'Academia');
    expect(c).toMatchObject({ locale: 'es', title: 'El arte de viajar vendiendo', author: 'Lucía Herrera', byline: 'de Lucía Herrera', edition: 'Edición digital de Academia' });
    expect(c.licence).toBe('Con licencia para José Núñez · pedido A-000042');
    expect(c.sections.map((s) => s.heading)).toEqual(['Introducción', 'Capítulo 1: Primeros pasos', 'Capítulo 2: Técnicas y herramientas', 'Capítulo 3: Poner en práctica', 'Para seguir aprendiendo']);
    expect(c.sections[0]!.paragraphs[0]).toBe(book.descriptionEs);
    // The first chapters open with the description's sentences, one each.
    expect(c.sections[1]!.paragraphs[0]).toBe('Una guía práctica para convertir la pasión por los viajes en un negocio rentable.');
    expect(c.sections[2]!.paragraphs[0]).toMatch(/^Lucía Herrera comparte/);
    expect(c.sections[3]!.paragraphs).toEqual([es.commerce.book.chapters.three.body]);
    expect(c.sections.flatMap((s) => s.paragraphs).join(' ')).not.toMatch(/\{\w+\}/);
  });

  it('is all English in English', () => {
    const c = bookContent(book, licensee, 'en', en.commerce.book, 'Academy');
    expect(c).toMatchObject({ title: 'The art of selling travel', byline: 'by Lucía Herrera', licence: 'Licensed to José Núñez · order A-000042' });
    expect(c.sections[0]).toEqual({ heading: 'Introduction', paragraphs: [book.descriptionEn, expect.stringContaining('Lucía Herrera develops')] });
    expect(c.sections.at(-1)!.paragraphs[0]).toContain('“The art of selling travel”');
    expect(licenceLine(en.commerce.book, { name: 'Ana', orderId: 7 })).toBe('Licensed to Ana · order A-000007');
  });

  it('survives a description with no sentence marks, or none at all', () => {
    expect(sentences('Uno. ¿Dos? ¡Tres!  Cuatro')).toEqual(['Uno.', '¿Dos?', '¡Tres!', 'Cuatro']);
    const c = bookContent({ ...book, descriptionEs: '' }, licensee, 'es', es.commerce.book, 'Academia');
    expect(c.sections[1]!.paragraphs).toHaveLength(1);
  });
});

describe('book file names', () => {
  it('are an ASCII slug of the title in the language, with .pdf', () => {
    expect(bookFileName(book, 'es', es.commerce.book)).toBe('el-arte-de-viajar-vendiendo.pdf');
    expect(bookFileName(book, 'en', en.commerce.book)).toBe('the-art-of-selling-travel.pdf');
    expect(bookFileName({ ...book, titleEs: 'Niño: ¿qué "comprar"?\r\n; filename=x.exe' }, 'es', es.commerce.book)).toBe('nino-que-comprar-filename-x-exe.pdf');
    expect(bookFileName({ ...book, id: 3, titleEs: '¿¡…!?' }, 'es', es.commerce.book)).toBe('libro-3.pdf');
    expect(bookFileName({ ...book, id: 3, titleEn: '日本' }, 'en', en.commerce.book)).toBe('book-3.pdf');
  });
});

describe('owning a book', () => {
  const order = (id: number, status: OwnershipOrder['status'], ...items: [OwnershipOrder['items'][number]['productKind'], number][]): OwnershipOrder => ({ id, status, items: items.map(([productKind, productId]) => ({ productKind, productId })) });

  it('takes a paid order holding the book, the newest when there are several', () => {
    expect(owningOrder([order(3, 'paid', ['course', 6], ['book', 1])], 1)?.id).toBe(3);
    expect(owningOrder([order(3, 'paid', ['book', 1]), order(9, 'paid', ['book', 1]), order(5, 'paid', ['book', 1])], 1)?.id).toBe(9);
  });

  it('does not count pending, failed or refunded orders, other books, or a course or plan with the same id', () => {
    expect(owningOrder([order(1, 'pending', ['book', 1]), order(2, 'failed', ['book', 1]), order(3, 'refunded', ['book', 1])], 1)).toBeNull();
    expect(owningOrder([order(4, 'paid', ['book', 2], ['course', 1], ['plan', 1])], 1)).toBeNull();
    expect(owningOrder([], 1)).toBeNull();
  });

  it('offers the download for the book items of paid orders only', () => {
    expect(mayDownloadBook('paid', 'book')).toBe(true);
    for (const s of ['pending', 'failed', 'refunded'] as const) expect(mayDownloadBook(s, 'book')).toBe(false);
    expect(mayDownloadBook('paid', 'course')).toBe(false);
  });

  it('reads book ids from the route, nothing else', () => {
    expect(parseBookId('3')).toBe(3);
    for (const bad of [undefined, '', '0', '-1', '01', '1e3', '0x2', 'abc', '2147483648', '99999999999999999999', '1.5', ' 1']) expect(parseBookId(bad), String(bad)).toBeNull();
  });
});
