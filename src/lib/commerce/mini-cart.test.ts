import { describe, expect, it } from 'vitest';
import { VISITOR } from '../access/access';
import type { CatalogSnapshot } from '../catalog/catalog';
import { cartButtonLabel, cartKey, focusAfterRemoval, inCart, miniCartSummary } from './mini-cart';

const course = (id: number, price: number, extra: object = {}) =>
  ({
    id,
    nameEs: `Curso ${id}`,
    nameEn: `Course ${id}`,
    thumbnail: `/c/${id}.webp`,
    price,
    isTest: false,
    visibleOnlyToBuyers: false,
    allowAll: false,
    prerequisiteCourseId: null,
    categoryId: 3,
    ...extra,
  }) as never;
const snapshot = {
  byId: new Map([
    [6, course(6, 19.99)],
    [10, course(10, 99, { visibleOnlyToBuyers: true })],
    [12, course(12, 5, { isTest: true })],
  ]),
  books: [{ id: 1, titleEs: 'Libro', titleEn: 'Book', cover: '/b/1.webp', price: 9.5 }],
  plans: [],
} as unknown as CatalogSnapshot;

describe('the mini cart summary', () => {
  it('names and prices each product from the catalogue in the reader’s language, with the total', () => {
    const s = miniCartSummary(
      [
        { kind: 'course', id: 6 },
        { kind: 'book', id: 1 },
      ],
      snapshot,
      VISITOR,
      'en',
    );
    expect(s.lines).toEqual([
      { kind: 'course', id: 6, name: 'Course 6', price: '$19.99' },
      { kind: 'book', id: 1, name: 'Book', price: '$9.50' },
    ]);
    expect(s.totalCents).toBe(2949);
    expect(s.total).toBe('$29.49');
    expect(miniCartSummary([{ kind: 'course', id: 6 }], snapshot, VISITOR, 'es').lines[0]?.name).toBe('Curso 6');
  });

  it('leaves out what the viewer may not see (a forged cookie), and says which products remain', () => {
    const s = miniCartSummary(
      [
        { kind: 'course', id: 10 },
        { kind: 'course', id: 12 },
        { kind: 'course', id: 999 },
        { kind: 'course', id: 6 },
      ],
      snapshot,
      VISITOR,
      'en',
    );
    expect(s.items).toEqual([{ kind: 'course', id: 6 }]);
    expect(s.lines.map((l) => l.id)).toEqual([6]);
    expect(s.totalCents).toBe(1999);
  });

  it('prices an empty cart at zero', () => {
    expect(miniCartSummary([], snapshot, VISITOR, 'en')).toEqual({ items: [], lines: [], total: '$0.00', totalCents: 0 });
  });
});

describe('the island’s rules', () => {
  it('keys a cart by its products', () => {
    expect(cartKey([{ kind: 'course', id: 6 }])).toBe(cartKey([{ kind: 'course', id: 6 }]));
    expect(cartKey([{ kind: 'course', id: 6 }])).not.toBe(cartKey([{ kind: 'book', id: 6 }]));
  });

  it('tells whether a line is still in the cart', () => {
    expect(inCart([{ kind: 'book', id: 1 }], { kind: 'book', id: 1 })).toBe(true);
    expect(inCart([{ kind: 'book', id: 1 }], { kind: 'course', id: 1 })).toBe(false);
  });

  it('moves focus to the next product after a removal, the previous one at the end, none when empty', () => {
    expect(focusAfterRemoval(3, 0)).toBe(0);
    expect(focusAfterRemoval(3, 1)).toBe(1);
    expect(focusAfterRemoval(3, 2)).toBe(1);
    expect(focusAfterRemoval(1, 0)).toBeNull();
  });

  it('names the button with the count', () => {
    const t = { button: { one: 'Cart: {count} product', other: 'Cart: {count} products' } };
    expect(cartButtonLabel('en', t, 0)).toBe('Cart: 0 products');
    expect(cartButtonLabel('en', t, 1)).toBe('Cart: 1 product');
    expect(cartButtonLabel('en', t, 3)).toBe('Cart: 3 products');
    expect(cartButtonLabel('es', { button: { one: 'Carrito: {count} producto', other: 'Carrito: {count} productos' } }, 1)).toBe('Carrito: 1 producto');
  });
});
