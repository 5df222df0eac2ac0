import { describe, expect, it } from 'vitest';
import { en } from './en';
import { es } from './es';
import { format, isLocale, keyPaths, messages, toLocale } from './i18n';

describe('message catalogue', () => {
  it('has exactly the same keys in English as in Spanish', () => {
    expect(keyPaths(en).sort()).toEqual(keyPaths(es).sort());
  });

  it('has no empty message in either language', () => {
    for (const cat of [es, en]) {
      const values = keyPaths(cat).map((k) => k.split('.').reduce<any>((o, p) => o[p], cat));
      expect(values.filter((v) => typeof v !== 'string' || v.trim() === '')).toEqual([]);
    }
  });

  it('keeps the same placeholders in both languages', () => {
    for (const key of keyPaths(es)) {
      const get = (cat: object) => key.split('.').reduce<any>((o, p) => o[p], cat) as string;
      const names = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      expect(names(get(en)), key).toEqual(names(get(es)));
    }
  });

  it('keeps the exact English texts', () => {
    expect(en.notFound.message).toBe("The Page you were looking for, couldn't be found.");
    expect(en.notFound.hint).toBe(
      'The page you are looking for might have been removed, had its name changed, or is temporarily unavailable.',
    );
    expect(en.notFound.preview).toBe('Preview');
    expect(en.notFound.backHome).toBe('Back To Home');
    expect(en.home.selectCourse).toBe('Select your course');
  });

  it('titles the privacy banner with the Spanish words in both languages', () => {
    expect(es.privacy.bannerTitle).toBe('Política de privacidad');
    expect(en.privacy.bannerTitle).toBe('Política de privacidad');
  });
});

describe('keyPaths', () => {
  it('lists nested keys with dots and notices a missing one', () => {
    expect(keyPaths({ a: 'x', b: { c: 'y', d: { e: 'z' } } })).toEqual(['a', 'b.c', 'b.d.e']);
    const broken = { ...en, nav: { ...en.nav, books: undefined } } as unknown as object;
    expect(keyPaths(broken)).toContain('nav.books'); // present but undefined is caught by the empty check
    const { books: _books, ...navWithout } = en.nav;
    expect(keyPaths({ ...en, nav: navWithout }).sort()).not.toEqual(keyPaths(es).sort());
  });
});

describe('locales', () => {
  it('recognises the two languages and defaults to Spanish', () => {
    expect(isLocale('es')).toBe(true);
    expect(isLocale('en')).toBe(true);
    expect(isLocale('fr')).toBe(false);
    expect(isLocale(undefined)).toBe(false);
    expect(toLocale('en')).toBe('en');
    expect(toLocale('fr')).toBe('es');
    expect(toLocale(undefined)).toBe('es');
    expect(messages('en')).toBe(en);
  });

  it('formats placeholders and leaves unknown ones', () => {
    expect(format('{field} field is required', { field: 'Email' })).toBe('Email field is required');
    expect(format('{a} and {b}', { a: 1 })).toBe('1 and {b}');
  });
});
