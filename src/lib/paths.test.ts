import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alternates, localePath, normalize, paths, safeNext, slug, splitLocale } from './paths';

describe('paths', () => {
  it('prefixes English and leaves Spanish unprefixed', () => {
    expect(localePath('es', '/about-us')).toBe('/about-us');
    expect(localePath('en', '/about-us')).toBe('/en/about-us');
    expect(localePath('en', '/')).toBe('/en/');
    expect(localePath('es', '/')).toBe('/');
    expect(localePath('en', paths.course(31))).toBe('/en/courses-details/31');
  });

  it('splits a pathname into locale and locale-free path', () => {
    expect(splitLocale('/en/privacity/')).toEqual({ locale: 'en', path: '/privacity' });
    expect(splitLocale('/en')).toEqual({ locale: 'en', path: '/' });
    expect(splitLocale('/en/')).toEqual({ locale: 'en', path: '/' });
    expect(splitLocale('/privacity')).toEqual({ locale: 'es', path: '/privacity' });
    expect(splitLocale('/es/privacity')).toEqual({ locale: 'es', path: '/es/privacity' });
    expect(splitLocale('/enroll')).toEqual({ locale: 'es', path: '/enroll' });
    expect(splitLocale('/')).toEqual({ locale: 'es', path: '/' });
  });

  it('normalises trailing slashes and index files', () => {
    expect(normalize('/about-us/')).toBe('/about-us');
    expect(normalize('/about-us/index.html')).toBe('/about-us');
    expect(normalize('/404.html')).toBe('/404');
    expect(normalize('/')).toBe('/');
  });

  it('gives both languages’ addresses of a page', () => {
    expect(alternates('/courses')).toEqual([
      { locale: 'es', href: '/courses' },
      { locale: 'en', href: '/en/courses' },
    ]);
  });

  it('encodes search text', () => {
    expect(paths.search('viajes & más')).toBe('/courses?q=viajes%20%26%20m%C3%A1s');
  });
});

describe('safeNext', () => {
  const SITE = 'http://site.example';

  /** What must hold of every answer: nothing, or a path that stays on this site. */
  function expectSameSite(raw: string, out: string | null) {
    if (out === null) return;
    expect(out.startsWith('/'), raw).toBe(true);
    expect(out.startsWith('//') || out.startsWith('/\\'), raw).toBe(false);
    expect([...out].some((ch) => ch <= '\u001f' || (ch >= '\u007f' && ch <= '\u009f') || ch === '\\'), raw).toBe(false);
    expect(/^[a-z][a-z0-9+.-]*:/i.test(out), raw).toBe(false);
    const url = new URL(out, SITE);
    expect(url.origin, raw).toBe(SITE);
    // Following it again changes nothing: what was checked is what the browser goes to.
    expect(safeNext(out), raw).toBe(out);
  }

  it('keeps same-site paths and refuses anything that leaves the site', () => {
    expect(safeNext('/courses-details/1')).toBe('/courses-details/1');
    expect(safeNext('/en/courses?category=2#x')).toBe('/en/courses?category=2#x');
    expect(safeNext('/courses/../en/courses')).toBe('/en/courses');
    for (const bad of [null, '', 'https://evil.example', '//evil.example', '/\\evil.example', 'javascript:alert(1)', 'courses', '/'.padEnd(600, 'a')]) {
      expect(safeNext(bad), String(bad)).toBeNull();
    }
  });

  it.each([
    '/.//evil.example/phish',
    '/%2e//evil.example',
    '/%2E%2E//evil.example',
    '/.%2e//evil.example',
    '/..//evil.example',
    '/a/../..//evil.example',
    '/x/..//evil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    '/\r//evil.example',
    '/\\evil.example',
    '\\\\evil.example',
    '/\u0000/evil.example',
    '/\u007f//evil.example',
    '/\u0085//evil.example',
    '/\ud800//evil.example',
  ])('never leads off the site from %j (the URL parser resolves it to another host)', (raw) => {
    const out = safeNext(raw);
    expectSameSite(raw, out);
    if (out !== null) expect(new URL(out, SITE).host).toBe('site.example');
  });

  it('answers null or a same-site path, whatever goes in (property)', () => {
    const prefixes = fc.constantFrom('', '/', '//', '/.//', '/%2e//', '/%2E/', '/\t/', '\\\\', '/\\', '/..//', '/./', '/%2f/', '/?', '/#', 'http:', '/\u0000', '/en/');
    const tails = fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' }), fc.webPath(), fc.webUrl());
    fc.assert(
      fc.property(prefixes, tails, (prefix, tail) => {
        const raw = prefix + tail;
        expectSameSite(raw, safeNext(raw));
      }),
      { numRuns: 3000 },
    );
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (raw) => expectSameSite(raw, safeNext(raw))), { numRuns: 3000 });
  });
});

describe('lesson player addresses', () => {
  it('make readable, accent-free slugs and keep the ids that decide', () => {
    expect(slug('Módulo 1: ¡Bienvenida a la Academia!')).toBe('modulo-1-bienvenida-a-la-academia');
    expect(slug('***')).toBe('x');
    expect(slug('a'.repeat(80)).length).toBe(60);
    expect(paths.courseTracking(6)).toBe('/course-tracking/6');
    expect(paths.courseTrackingModule(6, 'Reservas aéreas', 21)).toBe('/course-tracking/6/reservas-aereas/21');
    expect(paths.courseTrackingLesson(6, 'Reservas aéreas', 'Tarifas y clases', 88)).toBe('/course-tracking/6/reservas-aereas/tarifas-y-clases/88');
  });
});
