import { describe, expect, it } from 'vitest';
import { messages } from './i18n';
import { plural } from './plural';

describe('plural', () => {
  const courses = { one: '{count} curso', other: '{count} cursos' };

  it('chooses the form by each language’s plural rules (0, 1, 2, 21)', () => {
    expect([0, 1, 2, 21].map((n) => plural('es', courses, n))).toEqual(['0 cursos', '1 curso', '2 cursos', '21 cursos']);
    const lessons = { one: '{count} lesson', other: '{count} lessons' };
    expect([0, 1, 2, 21].map((n) => plural('en', lessons, n))).toEqual(['0 lessons', '1 lesson', '2 lessons', '21 lessons']);
  });

  it('reads a category without its own form (Spanish “many”, round millions) as other, and fills other values', () => {
    expect(plural('es', courses, 1_000_000)).toBe('1000000 cursos');
    expect(plural('en', { one: '{category}: {count} story', other: '{category}: {count} stories' }, 1, { category: 'Health' })).toBe('Health: 1 story');
  });

  it('reads real messages correctly in both languages', () => {
    const es = messages('es');
    const en = messages('en');
    expect([0, 1, 2, 21].map((n) => plural('es', es.catalog.lessons, n))).toEqual(['0 lecciones', '1 lección', '2 lecciones', '21 lecciones']);
    expect([0, 1, 2, 21].map((n) => plural('en', en.catalog.lessons, n))).toEqual(['0 lessons', '1 lesson', '2 lessons', '21 lessons']);
    expect(plural('es', es.miniCart.button, 1)).toBe('Carrito: 1 producto');
    expect(plural('en', en.miniCart.button, 21)).toBe('Cart: 21 products');
    expect(plural('es', es.identity.login.tooManyAttempts, 1)).toBe('Demasiados intentos. Espera 1 minuto y vuelve a intentarlo.');
    expect(plural('en', en.identity.login.tooManyAttempts, 15)).toBe('Too many attempts. Wait 15 minutes and try again.');
    expect(plural('es', es.exams.run.minutesLeft, 2)).toBe('Quedan 2 minutos.');
    expect(plural('en', en.exams.result.attemptsLeft, 1)).toBe('1 attempt left.');
  });
});
