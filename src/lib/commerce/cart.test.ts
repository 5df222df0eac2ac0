import { describe, expect, it } from 'vitest';
import { VISITOR } from '../access/access';
import type { CatalogSnapshot } from '../catalog/catalog';
import { addToCart, canAddToCart, parseCart, priceCart, removeFromCart, serializeCart, visibleItems, withoutBought, CART_MAX_ITEMS, type CartItem } from './cart';

const course = (id: number, price: number, extra: object = {}) =>
  ({ id, nameEs: `Curso ${id}`, nameEn: `Course ${id}`, thumbnail: `/c/${id}.webp`, price, isTest: false, visibleOnlyToBuyers: false, allowAll: false, prerequisiteCourseId: null, categoryId: 3, ...extra }) as never;
const snapshot = {
  byId: new Map([
    [6, course(6, 19.99)],
    [8, course(8, 29.99)],
    [1, course(1, 0)],
    [10, course(10, 99, { visibleOnlyToBuyers: true })],
    [12, course(12, 5, { isTest: true })],
  ]),
  books: [{ id: 1, titleEs: 'Libro', titleEn: 'Book', cover: '/b/1.webp', price: 0.1 }],
  plans: [{ id: 2, nameEs: 'Plan', nameEn: 'Plan', price: 0.2 }],
} as unknown as CatalogSnapshot;

describe('cart cookie', () => {
  it('round-trips a cart', () => {
    const items: CartItem[] = [{ kind: 'course', id: 6 }, { kind: 'book', id: 1 }];
    expect(parseCart(serializeCart(items))).toEqual(items);
  });

  it.each([undefined, '', 'not json', '{"kind":"course"}', '[{"kind":"car","id":1}]', '[{"kind":"course","id":-3}]', JSON.stringify(Array.from({ length: 51 }, (_, i) => ({ kind: 'book', id: i + 1 })))])(
    'reads a malformed or forged cookie (%s) as an empty cart',
    (raw) => expect(parseCart(raw)).toEqual([]),
  );

  it('drops duplicates a forged cookie may contain', () => {
    expect(parseCart('[{"kind":"course","id":6},{"kind":"course","id":6}]')).toEqual([{ kind: 'course', id: 6 }]);
  });
});

describe('adding and removing', () => {
  it('ignores a course already present', () => {
    const once = addToCart([], { kind: 'course', id: 6 });
    expect(once.added).toBe(true);
    const twice = addToCart(once.items, { kind: 'course', id: 6 });
    expect(twice.added).toBe(false);
    expect(twice.items).toHaveLength(1);
  });

  it('keeps the same id of different kinds apart and refuses past the maximum', () => {
    expect(addToCart([{ kind: 'course', id: 1 }], { kind: 'book', id: 1 }).items).toHaveLength(2);
    const full = Array.from({ length: CART_MAX_ITEMS }, (_, i) => ({ kind: 'book' as const, id: i + 1 }));
    expect(addToCart(full, { kind: 'course', id: 6 }).added).toBe(false);
  });

  it('removes one product', () => {
    expect(removeFromCart([{ kind: 'course', id: 6 }, { kind: 'book', id: 6 }], { kind: 'course', id: 6 })).toEqual([{ kind: 'book', id: 6 }]);
    // A paid order empties the cart of what it bought; what was added since stays.
    expect(withoutBought([{ kind: 'course', id: 6 }, { kind: 'book', id: 2 }, { kind: 'plan', id: 1 }], [{ kind: 'course', id: 6 }, { kind: 'plan', id: 1 }])).toEqual([{ kind: 'book', id: 2 }]);
  });
});

describe('pricing', () => {
  it('sums in cents and formats USD with two decimals', () => {
    const r = priceCart([{ kind: 'book', id: 1 }, { kind: 'plan', id: 2 }, { kind: 'course', id: 6 }], snapshot, VISITOR, 'en');
    expect(r.totalCents).toBe(2029); // 0.10 + 0.20 + 19.99, exact
    expect(r.total).toBe('$20.29');
    expect(r.lines.map((l) => l.name)).toEqual(['Book', 'Plan', 'Course 6']);
  });

  it('leaves out products that no longer exist and test courses', () => {
    expect(priceCart([{ kind: 'course', id: 999 }, { kind: 'course', id: 12 }], snapshot, VISITOR, 'es').lines).toEqual([]);
  });
});

describe('a forged cart cookie (Trust #8)', () => {
  const forged = parseCart(JSON.stringify([{ kind: 'course', id: 10 }, { kind: 'course', id: 12 }, { kind: 'course', id: 6 }, { kind: 'course', id: 77 }]));
  const buyer = { ...VISITOR, kind: 'learner' as const, userId: 3, purchased: new Set([10]) };

  it('shows a buyer-only course, its name and price to nobody who has not bought it', () => {
    const r = priceCart(forged, snapshot, VISITOR, 'en');
    expect(r.lines.map((l) => l.id)).toEqual([6]);
    expect(JSON.stringify(r)).not.toContain('Course 10');
    expect(r.totalCents).toBe(1999);
    expect(visibleItems(forged, snapshot, { ...VISITOR, kind: 'learner', userId: 4 })).toEqual([{ kind: 'course', id: 6 }]);
  });

  it('keeps what the viewer may see: the buyer sees the course they bought; test courses and unknown ids never', () => {
    expect(visibleItems(forged, snapshot, buyer)).toEqual([{ kind: 'course', id: 10 }, { kind: 'course', id: 6 }]);
  });
});

describe('what may be added', () => {
  it('allows paid courses not bought, books and plans; refuses free, unknown and hidden courses', () => {
    expect(canAddToCart({ kind: 'course', id: 6 }, snapshot, VISITOR)).toBe('ok');
    expect(canAddToCart({ kind: 'course', id: 1 }, snapshot, VISITOR)).toBe('not-for-sale');
    expect(canAddToCart({ kind: 'course', id: 10 }, snapshot, VISITOR)).toBe('unknown');
    expect(canAddToCart({ kind: 'course', id: 12 }, snapshot, VISITOR)).toBe('unknown');
    expect(canAddToCart({ kind: 'course', id: 404 }, snapshot, VISITOR)).toBe('unknown');
    expect(canAddToCart({ kind: 'course', id: 6 }, snapshot, { ...VISITOR, kind: 'learner', purchased: new Set([6]) })).toBe('not-for-sale');
    expect(canAddToCart({ kind: 'book', id: 1 }, snapshot, VISITOR)).toBe('ok');
    expect(canAddToCart({ kind: 'plan', id: 3 }, snapshot, VISITOR)).toBe('unknown');
  });
});
