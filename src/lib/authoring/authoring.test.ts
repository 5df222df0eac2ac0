import { describe, expect, it } from 'vitest';
import { centsToNumeric, courseDocSchema, isHttpsUrl, matchesSearch, missingTranslations, numericToCents, parsePrice, prerequisiteProblem } from './authoring';
import { sampleDoc } from './authoring.testing';
import { lessonsWithoutVideo, previewDetails } from './preview';
import type { CatalogSnapshot } from '../catalog/catalog';

describe('prices typed as money', () => {
  it('reads exact cents from the typed text, never through a float', () => {
    expect(parsePrice('12.50')).toEqual({ ok: true, cents: 1250 });
    expect(parsePrice('12,5')).toEqual({ ok: true, cents: 1250 });
    expect(parsePrice(' 0 ')).toEqual({ ok: true, cents: 0 });
    expect(parsePrice('0.29')).toEqual({ ok: true, cents: 29 });
    expect(parsePrice('19.990')).toEqual({ ok: true, cents: 1999 });
    expect(parsePrice('100000.00')).toEqual({ ok: true, cents: 10_000_000 });
  });

  it('refuses a negative price, fractions of a cent, absurd amounts and anything that is not a number', () => {
    expect(parsePrice('-1')).toEqual({ ok: false, problem: 'negative' });
    expect(parsePrice('- 5.00')).toEqual({ ok: false, problem: 'negative' });
    expect(parsePrice('1.005')).toEqual({ ok: false, problem: 'fraction' });
    expect(parsePrice('100000.01')).toEqual({ ok: false, problem: 'tooHigh' });
    expect(parsePrice('99999999999')).toEqual({ ok: false, problem: 'tooHigh' });
    for (const raw of ['', 'abc', '1e3', '12.50 USD', '$12', '1,250.00', 'NaN', 'Infinity', '0x10']) expect(parsePrice(raw)).toEqual({ ok: false, problem: 'format' });
  });

  it('writes cents as the numeric column keeps them and reads them back exactly', () => {
    expect(centsToNumeric(1250)).toBe('12.50');
    expect(centsToNumeric(5)).toBe('0.05');
    expect(numericToCents('12.5')).toBe(1250);
    expect(numericToCents('29.99')).toBe(2999);
    for (const cents of [0, 1, 99, 100, 2999, 10_000_000]) expect(numericToCents(centsToNumeric(cents))).toBe(cents);
    expect(() => centsToNumeric(-1)).toThrow();
  });
});

describe('translations a publication needs', () => {
  it('flags a name missing in either language, and a text written in only one', () => {
    expect(missingTranslations(sampleDoc())).toEqual([]);
    const doc = sampleDoc({ nameEn: ' ', descriptionEs: 'Aprende a vender' });
    doc.modules[1]!.lessons[0]!.nameEs = '';
    expect(missingTranslations(doc)).toEqual([
      { where: 'course', kind: 'course', field: 'name', lang: 'en', other: 'Ventas' },
      { where: 'course', kind: 'course', field: 'description', lang: 'en', other: 'Aprende a vender' },
      { where: 'l3', kind: 'lesson', field: 'name', lang: 'es', other: 'End' },
    ]);
  });
});

describe('prerequisites', () => {
  const graph = new Map<number, number | null>([
    [31, null],
    [32, 31],
    [33, 32],
  ]);
  it('refuses the course itself, an unknown course and a loop through other courses', () => {
    expect(prerequisiteProblem(31, 31, graph)).toBe('self');
    expect(prerequisiteProblem(31, 99, graph)).toBe('unknown');
    expect(prerequisiteProblem(31, 33, graph)).toBe('cycle');
    expect(prerequisiteProblem(33, 31, graph)).toBeNull();
    expect(prerequisiteProblem(31, null, graph)).toBeNull();
  });
});

describe('links and the list', () => {
  it('accepts https addresses only', () => {
    expect(isHttpsUrl('https://example.com/guide.pdf')).toBe(true);
    for (const bad of ['http://example.com', 'javascript:alert(1)', 'https://user:pw@example.com', 'https://localhost/x', 'data:text/html,x', '//example.com', 'example.com']) expect(isHttpsUrl(bad)).toBe(false);
  });

  it('finds courses by code or either name, whatever the accents and case', () => {
    const c = { code: 'RV-BASIC', nameEs: 'Visión Real', nameEn: 'Real Vision' };
    expect(matchesSearch(c, 'vision')).toBe(true);
    expect(matchesSearch(c, 'rv-b')).toBe(true);
    expect(matchesSearch(c, 'ventas')).toBe(false);
    expect(matchesSearch(c, '  ')).toBe(true);
  });

  it('refuses a stored document that is not one (the editor then starts from the live course)', () => {
    expect(courseDocSchema.safeParse(sampleDoc()).success).toBe(true);
    expect(courseDocSchema.safeParse({ ...sampleDoc(), priceCents: -5 }).success).toBe(false);
    expect(courseDocSchema.safeParse({ ...sampleDoc(), modules: 'x' }).success).toBe(false);
  });
});

describe('the preview', () => {
  it('draws the draft with the catalogue\'s own course page data, in either language, hidden or not', () => {
    const catalog: CatalogSnapshot = { categories: [{ id: 2, nameEs: 'Introductorio', nameEn: 'Introductory', position: 0 }], businesses: [{ id: 1, nameEs: 'Viajes', nameEn: 'Travel', position: 0 }], courses: [], byId: new Map(), books: [], plans: [] };
    const doc = sampleDoc({ priceCents: 1250, hidden: true });
    doc.modules[0]!.lessons.push({ key: 'n0123456789ab', id: null, nameEs: 'Nueva', nameEn: 'New', summaryEs: 'Resumen', summaryEn: 'Summary', resources: [] });
    const en = previewDetails(catalog, 40, doc, 'en')!;
    // As in the catalogue, only lessons with their video are shown to learners.
    expect(en).toMatchObject({ id: 40, name: 'Sales', categoryName: 'Introductory', businessName: 'Travel', price: 12.5, lessonCount: 1 });
    expect(en.modules.map((m) => m.lessons.map((l) => l.name))).toEqual([['Hello'], []]);
    expect(lessonsWithoutVideo(doc)).toBe(3);
    doc.modules[0]!.lessons[2]!.resources.push({ key: 'n0123456789ac', id: null, kind: 'video', titleEs: 'V', titleEn: 'V', url: null, mediaFileId: 9 });
    const shown = previewDetails(catalog, 40, doc, 'en')!;
    expect(shown.modules[0]!.lessons.map((l) => l.name)).toEqual(['Hello', 'New']);
    expect(shown.modules[0]!.lessons[1]!.id).toBeLessThan(0);
    expect(previewDetails(catalog, 40, doc, 'es')!.name).toBe('Ventas');
  });
});
