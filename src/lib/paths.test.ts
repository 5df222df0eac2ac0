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
  it('keeps same-site paths and refuses anything that leaves the site', () => {
    expect(safeNext('/courses-details/1')).toBe('/courses-details/1');
    expect(safeNext('/en/courses?category=2#x')).toBe('/en/courses?category=2#x');
    for (const bad of [null, '', 'https://evil.example', '//evil.example', '/\\evil.example', 'javascript:alert(1)', 'courses', '/'.padEnd(600, 'a')]) {
      expect(safeNext(bad), String(bad)).toBeNull();
    }
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
