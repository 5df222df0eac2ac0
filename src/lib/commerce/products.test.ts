import { describe, expect, it } from 'vitest';
import {
  bookPdfKey,
  coverKey,
  coverName,
  missingTranslations,
  parseCoverName,
  pdfRefusal,
  priceInput,
  readBookForm,
  readPlanForm,
  readPrice,
  readProductId,
  sniffPdf,
  storedCoverKey,
  uploadRefusalStatus,
} from './products';
import { isStorageKey } from '../storage';

const book = { titleEs: 'El libro', titleEn: 'The book', author: 'Ana Ruiz', descriptionEs: 'Uno. Dos.', descriptionEn: 'One. Two.', price: '12.50', lang: 'es' };
const plan = {
  nameEs: 'Oro',
  nameEn: 'Gold',
  descriptionEs: 'Todo.',
  descriptionEn: 'Everything.',
  featuresEs: 'Uno\r\n\r\n Dos ',
  featuresEn: 'One\nTwo',
  price: '99',
  period: 'year',
  categories: ['3', '2', '3'],
};

describe('a price typed as money', () => {
  it('is kept as exact cents, with a point or a comma', () => {
    expect(readPrice('12.50')).toEqual({ ok: true, cents: 1250 });
    expect(readPrice('12,5')).toEqual({ ok: true, cents: 1250 });
    expect(readPrice(' $0.10 ')).toEqual({ ok: true, cents: 10 });
    expect(readPrice('19.990')).toEqual({ ok: true, cents: 1999 });
    expect(readPrice('10000')).toEqual({ ok: true, cents: 1_000_000 });
    // 0.1 + 0.2 as a float is not 0.3: read from the digits, 0.29 is 29 cents exactly.
    expect(readPrice('0.29')).toEqual({ ok: true, cents: 29 });
    expect(priceInput(1250)).toBe('12.50');
  });

  it('refuses negative amounts, fractions of a cent, zero, absurd amounts and anything else', () => {
    expect(readPrice('-1')).toEqual({ ok: false, problem: 'priceNegative' });
    expect(readPrice('12.505')).toEqual({ ok: false, problem: 'priceFraction' });
    expect(readPrice('0.00')).toEqual({ ok: false, problem: 'priceZero' });
    expect(readPrice('10000.01')).toEqual({ ok: false, problem: 'priceTooHigh' });
    expect(readPrice('999999999999')).toEqual({ ok: false, problem: 'priceTooHigh' });
    for (const bad of ['1,234.50', '1e3', '12.', '.5', 'abc', 'NaN', 'Infinity', '12 50', '0x10']) expect(readPrice(bad), bad).toEqual({ ok: false, problem: 'priceInvalid' });
    expect(readPrice('')).toEqual({ ok: false, problem: 'priceMissing' });
    expect(readPrice(undefined)).toEqual({ ok: false, problem: 'priceMissing' });
    expect(readPrice(['1'])).toEqual({ ok: false, problem: 'priceMissing' });
  });
});

describe('the book form', () => {
  it('reads both languages, the author, the price in cents and the hidden box', () => {
    expect(readBookForm({ ...book, hidden: 'on' })).toEqual({
      ok: true,
      value: { titleEs: 'El libro', titleEn: 'The book', author: 'Ana Ruiz', descriptionEs: 'Uno. Dos.', descriptionEn: 'One. Two.', priceCents: 1250, hidden: true },
    });
    expect(readBookForm(book)).toMatchObject({ ok: true, value: { hidden: false } });
  });

  it('flags a missing translation, never publishing one language alone', () => {
    expect(readBookForm({ ...book, titleEn: '  ' })).toEqual({ ok: false, problem: { field: 'titleEn', problem: 'missingTranslation' } });
    expect(readBookForm({ ...book, descriptionEs: '' })).toEqual({ ok: false, problem: { field: 'descriptionEs', problem: 'missingTranslation' } });
    expect(readBookForm({ ...book, titleEs: '', titleEn: '' })).toEqual({ ok: false, problem: { field: 'titleEs', problem: 'required' } });
  });

  it('refuses a bad price, long texts, control characters and values that are not text', () => {
    expect(readBookForm({ ...book, price: '-3' })).toEqual({ ok: false, problem: { field: 'price', problem: 'priceNegative' } });
    expect(readBookForm({ ...book, titleEs: 'x'.repeat(161) })).toEqual({ ok: false, problem: { field: 'titleEs', problem: 'tooLong' } });
    expect(readBookForm({ ...book, author: 'a\u0000b' })).toEqual({ ok: false, problem: { field: 'author', problem: 'invalidCharacters' } });
    expect(readBookForm({ ...book, titleEn: 'x\ud800' })).toEqual({ ok: false, problem: { field: 'titleEn', problem: 'invalidCharacters' } });
    expect(readBookForm({ ...book, author: { a: 1 } })).toEqual({ ok: false, problem: { field: 'author', problem: 'required' } });
  });
});

describe('the plan form', () => {
  it('reads features one a line, the period and the ticked categories that exist', () => {
    expect(readPlanForm(plan, [2, 3, 4])).toEqual({
      ok: true,
      value: { nameEs: 'Oro', nameEn: 'Gold', descriptionEs: 'Todo.', descriptionEn: 'Everything.', featuresEs: ['Uno', 'Dos'], featuresEn: ['One', 'Two'], priceCents: 9900, period: 'year', unlocksCategoryIds: [2, 3] },
    });
    expect(readPlanForm({ ...plan, categories: '4' }, [4])).toMatchObject({ ok: true, value: { unlocksCategoryIds: [4] } });
  });

  it('refuses features missing in one language, an unknown period or category, and no category', () => {
    expect(readPlanForm({ ...plan, featuresEn: 'One' }, [2, 3])).toEqual({ ok: false, problem: { field: 'featuresEn', problem: 'featuresMismatch' } });
    expect(readPlanForm({ ...plan, period: 'week' }, [2, 3])).toEqual({ ok: false, problem: { field: 'period', problem: 'invalidPeriod' } });
    expect(readPlanForm({ ...plan, categories: ['9'] }, [2, 3])).toEqual({ ok: false, problem: { field: 'categories', problem: 'unknownCategory' } });
    expect(readPlanForm({ ...plan, categories: ['2 OR 1=1'] }, [2, 3])).toEqual({ ok: false, problem: { field: 'categories', problem: 'unknownCategory' } });
    expect(readPlanForm({ ...plan, categories: [] }, [2, 3])).toEqual({ ok: false, problem: { field: 'categories', problem: 'noCategory' } });
    expect(readPlanForm({ ...plan, nameEn: '' }, [2, 3])).toEqual({ ok: false, problem: { field: 'nameEn', problem: 'missingTranslation' } });
    expect(readPlanForm({ ...plan, price: '1.001' }, [2, 3])).toEqual({ ok: false, problem: { field: 'price', problem: 'priceFraction' } });
    expect(readPlanForm({ ...plan, featuresEs: Array.from({ length: 13 }, (_, i) => `f${i}`).join('\n') }, [2, 3])).toEqual({ ok: false, problem: { field: 'featuresEs', problem: 'tooManyFeatures' } });
  });

  it('flags what lacks a translation', () => {
    expect(missingTranslations({ es: ['a', 'b'], en: ['a', ' '] })).toEqual(['en']);
    expect(missingTranslations({ es: ['a'], en: ['b'] })).toEqual([]);
  });
});

describe('ids', () => {
  it('reads a blank id as a new product and refuses anything but a positive 32-bit integer', () => {
    expect(readProductId('')).toEqual({ ok: true, value: null });
    expect(readProductId(undefined)).toEqual({ ok: true, value: null });
    expect(readProductId('7')).toEqual({ ok: true, value: 7 });
    for (const bad of ['0', '-1', '1.5', ' 1 ', '01', '2147483648', '1e3', '7; drop table books', ['7']]) expect(readProductId(bad).ok, String(bad)).toBe(false);
  });
});

describe('uploaded files', () => {
  const pdf = new TextEncoder().encode('%PDF-1.7\n…');
  it('takes a PDF by its first bytes only, within the size limit', () => {
    expect(sniffPdf(pdf)).toBe(true);
    expect(pdfRefusal({ size: pdf.length, bytes: pdf }, 1000)).toBeNull();
    expect(pdfRefusal({ size: 2000, bytes: pdf }, 1000)).toBe('tooLarge');
    expect(pdfRefusal(null, 1000)).toBe('missing');
    expect(pdfRefusal({ size: 0, bytes: new Uint8Array() }, 1000)).toBe('missing');
    const html = new TextEncoder().encode('<html><script>alert(1)</script>%PDF-');
    expect(pdfRefusal({ size: html.length, bytes: html }, 1000)).toBe('notPdf');
    expect([uploadRefusalStatus('tooLarge'), uploadRefusalStatus('notPdf'), uploadRefusalStatus('notImage'), uploadRefusalStatus('missing')]).toEqual([413, 415, 415, 400]);
  });

  it('keeps files under keys made of the id and the bytes hash, never a typed name', () => {
    const hash = 'a'.repeat(64);
    const name = coverName(3, hash);
    expect(name).toBe('3-aaaaaaaaaaaaaaaaaaaa.webp');
    expect(parseCoverName(name)).toBe(name);
    for (const bad of ['../3-aaaaaaaaaaaaaaaaaaaa.webp', '3-aaaaaaaaaaaaaaaaaaaa.svg', '0-aaaaaaaaaaaaaaaaaaaa.webp', 'x', undefined]) expect(parseCoverName(bad), String(bad)).toBeNull();
    expect(isStorageKey(coverKey(name))).toBe(true);
    expect(isStorageKey(bookPdfKey(3, hash))).toBe(true);
    expect(storedCoverKey(`/media/book-cover/${name}`)).toBe(`books/covers/${name}`);
    expect(storedCoverKey('/images/books/1.webp')).toBeNull();
    expect(storedCoverKey('/media/book-cover/../../etc/passwd')).toBeNull();
  });
});
