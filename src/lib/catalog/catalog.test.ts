import { describe, expect, it } from 'vitest';
import { formatPrice, homeSections, isPaid, pick, type CourseCardData } from './catalog';

const card = (id: number, categoryId: number, price = 0): CourseCardData => ({
  id,
  name: `c${id}`,
  categoryId,
  categoryName: 'x',
  thumbnail: '',
  free: price === 0,
  price,
});

describe('homeSections', () => {
  it('puts category 2 in introductory, 3 and 4 together, paid courses apart, 5 in trainings', () => {
    const s = homeSections([card(1, 2), card(2, 3), card(3, 4), card(4, 5), card(5, 3, 19.99), card(6, 5, 49)]);
    expect(s.introductory.map((c) => c.id)).toEqual([1]);
    expect(s.basicAndIntermediate.map((c) => c.id)).toEqual([2, 3]);
    expect(s.trainings.map((c) => c.id)).toEqual([4]);
    expect(s.paid.map((c) => c.id)).toEqual([5, 6]);
  });

  it('has an empty paid list when nothing costs money', () => {
    expect(homeSections([card(1, 2)]).paid).toEqual([]);
  });
});

describe('prices', () => {
  it('treats only a value above 0 as paid', () => {
    expect(isPaid(0)).toBe(false);
    expect(isPaid('0.00')).toBe(false);
    expect(isPaid('0.01')).toBe(true);
  });

  it('formats USD with two decimals', () => {
    expect(formatPrice(19.9, 'en')).toBe('$19.90');
    expect(formatPrice(149, 'es')).toMatch(/149[.,]00/);
  });
});

describe('pick', () => {
  it('reads the column of the language', () => {
    const row = { nameEs: 'Viajes', nameEn: 'Travel' };
    expect(pick(row, 'name', 'es')).toBe('Viajes');
    expect(pick(row, 'name', 'en')).toBe('Travel');
  });
});
