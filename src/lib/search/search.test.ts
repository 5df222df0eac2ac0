import { describe, expect, it } from 'vitest';
import { messages } from '~/i18n';
import {
  DEFAULT_LIMIT,
  cleanQuery,
  containsPattern,
  fold,
  highlight,
  isSearchable,
  nameThreshold,
  normalizeQuery,
  parseSearchParams,
  responseLocale,
  resultsAnnouncement,
  searchLabels,
} from './search';

const params = (query: string) => new URLSearchParams(query);

describe('normalizeQuery', () => {
  it('trims, collapses whitespace, lower-cases and removes accents', () => {
    expect(normalizeQuery('  Real   Visión\tBÁSICO \n')).toBe('real vision basico');
    expect(normalizeQuery('Fínanzas')).toBe('finanzas');
    expect(normalizeQuery('Ñandú Çava Über')).toBe('nandu cava uber');
    expect(normalizeQuery('')).toBe('');
    expect(normalizeQuery('   ')).toBe('');
  });

  it('keeps at most 100 characters of the collapsed text', () => {
    expect(normalizeQuery('a'.repeat(1000))).toHaveLength(100);
    expect(normalizeQuery(`${' '.repeat(50)}${'b'.repeat(120)}`)).toBe('b'.repeat(100));
    // Collapsing happens before the cut, so spaces do not eat the budget.
    expect(normalizeQuery(`x${' '.repeat(200)}y`)).toBe('x y');
  });

  it('leaves SQL and HTML as plain text (they are bound as parameters, never interpolated)', () => {
    expect(normalizeQuery("'; DROP TABLE courses; --")).toBe("'; drop table courses; --");
    expect(normalizeQuery('<script>alert(1)</script>')).toBe('<script>alert(1)</script>');
  });

  it('treats control characters (a NUL from %00) as spaces, so none ever reaches the database (Trust #6)', () => {
    expect(normalizeQuery('abc\u0000def')).toBe('abc def');
    expect(normalizeQuery('\u0000\u0001vision\u007f\u009f')).toBe('vision');
    expect(cleanQuery('Real\u0000Visión\u001b')).toBe('Real Visión');
    expect(normalizeQuery('\ud800abc')).toBe('abc');
    for (let c = 0; c < 0x20; c++) expect(normalizeQuery(`ab${String.fromCharCode(c)}cd`)).toBe('ab cd');
  });

  it('folds like the database: decomposed and precomposed accents alike', () => {
    expect(fold('Visio\u0301n')).toBe('vision');
    expect(fold('Visi\u00f3n')).toBe('vision');
  });
});

describe('isSearchable (at least 3 characters)', () => {
  it('needs 3 characters once normalised', () => {
    expect(isSearchable('ab')).toBe(false);
    expect(isSearchable('  ab  ')).toBe(false);
    expect(isSearchable('a b')).toBe(true);
    expect(isSearchable('abc')).toBe(true);
    expect(isSearchable('visión')).toBe(true);
    expect(isSearchable('')).toBe(false);
  });
});

describe('nameThreshold', () => {
  it('asks short queries to start a word and lets longer ones carry a typo', () => {
    expect(nameThreshold('red')).toBe(0.75);
    expect(nameThreshold('casa')).toBe(0.75);
    expect(nameThreshold('vison')).toBe(0.5);
    expect(nameThreshold('marketng')).toBe(0.5);
  });
});

describe('containsPattern', () => {
  it('wraps the text in % and makes LIKE wildcards literal', () => {
    expect(containsPattern('vision')).toBe('%vision%');
    expect(containsPattern('100%')).toBe('%100\\%%');
    expect(containsPattern('a_b')).toBe('%a\\_b%');
    expect(containsPattern('c:\\x')).toBe('%c:\\\\x%');
  });
});

describe('parseSearchParams (the endpoint query)', () => {
  it('reads q, lang and limit with defaults', () => {
    expect(parseSearchParams(params('q=vision&lang=en&limit=5'))).toEqual({ ok: true, value: { q: 'vision', lang: 'en', limit: 5 } });
    expect(parseSearchParams(params('q=vision'))).toEqual({ ok: true, value: { q: 'vision', lang: 'es', limit: DEFAULT_LIMIT } });
    expect(parseSearchParams(params(''))).toEqual({ ok: true, value: { q: '', lang: 'es', limit: DEFAULT_LIMIT } });
    expect(parseSearchParams(params('q=vision&lang=&limit='))).toEqual({ ok: true, value: { q: 'vision', lang: 'es', limit: DEFAULT_LIMIT } });
  });

  it('accepts limits from 1 to 20 only, as whole numbers', () => {
    expect(parseSearchParams(params('q=x&limit=1'))).toMatchObject({ ok: true, value: { limit: 1 } });
    expect(parseSearchParams(params('q=x&limit=20'))).toMatchObject({ ok: true, value: { limit: 20 } });
    for (const bad of ['0', '21', '-3', '2.5', 'abc', '1e9', 'NaN']) {
      expect(parseSearchParams(params(`q=x&limit=${bad}`)), bad).toEqual({ ok: false, issue: 'limit' });
    }
  });

  it('refuses an unknown language and an over-long query', () => {
    expect(parseSearchParams(params('q=x&lang=fr'))).toEqual({ ok: false, issue: 'lang' });
    expect(parseSearchParams(params(`q=${'a'.repeat(1001)}`))).toEqual({ ok: false, issue: 'q' });
    expect(parseSearchParams(params(`q=${'a'.repeat(1000)}`))).toMatchObject({ ok: true });
  });

  it('uses the first value of a repeated parameter', () => {
    expect(parseSearchParams(params('q=one&q=two&limit=3&limit=99'))).toMatchObject({ ok: true, value: { q: 'one', limit: 3 } });
  });

  it('answers errors in English only when asked for English', () => {
    expect(responseLocale('en')).toBe('en');
    expect(responseLocale('es')).toBe('es');
    expect(responseLocale('fr')).toBe('es');
    expect(responseLocale(null)).toBe('es');
  });
});

describe('highlight', () => {
  it('marks each query word, ignoring case and accents, keeping the original text', () => {
    expect(highlight('Real Visión básico', 'vision')).toEqual([
      { text: 'Real ', match: false },
      { text: 'Visión', match: true },
      { text: ' básico', match: false },
    ]);
    expect(highlight('Marketing digital básico', 'DIGITAL basico')).toEqual([
      { text: 'Marketing ', match: false },
      { text: 'digital', match: true },
      { text: ' ', match: false },
      { text: 'básico', match: true },
    ]);
  });

  it('returns the text unmarked when nothing matches exactly (a typo still finds the course, but marks nothing)', () => {
    expect(highlight('Marketing digital básico', 'marketng')).toEqual([{ text: 'Marketing digital básico', match: false }]);
    expect(highlight('Abc', '')).toEqual([{ text: 'Abc', match: false }]);
    expect(highlight('', 'abc')).toEqual([]);
  });

  it('joins the text back unchanged, whatever the query', () => {
    for (const q of ['a', 'ión', '<b>', 'aaa', 'ñ ñ', 'é']) {
      expect(
        highlight('Ñandú visión <b> aaaa', q)
          .map((p) => p.text)
          .join(''),
      ).toBe('Ñandú visión <b> aaaa');
    }
    expect(highlight('aaaa', 'aa')).toEqual([{ text: 'aaaa', match: true }]);
  });
});

describe('labels and announcements', () => {
  it('takes every autocomplete text from the catalogue in both languages', () => {
    for (const locale of ['es', 'en'] as const) {
      const labels = searchLabels(messages(locale));
      for (const [key, value] of Object.entries(labels)) {
        for (const text of typeof value === 'string' ? [value] : Object.values(value as Record<string, string>)) expect(text.trim(), `${locale} ${key}`).not.toBe('');
      }
    }
    expect(searchLabels(messages('en')).label).toBe('Search courses');
  });

  it('says how many courses were found, or that none was', () => {
    const es = searchLabels(messages('es'));
    const en = searchLabels(messages('en'));
    expect(resultsAnnouncement('es', es, 3, 'visión')).toBe('3 cursos encontrados. Usa las flechas para recorrerlos.');
    expect(resultsAnnouncement('en', en, 1, 'vision')).toBe('1 course found. Use the arrow keys to reach it.');
    expect(resultsAnnouncement('en', en, 0, ' zzz ')).toBe('No course matches “zzz”.');
    expect(resultsAnnouncement('es', es, 0, 'zzz')).toBe('Ningún curso coincide con «zzz».');
  });
});
