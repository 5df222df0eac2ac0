import { describe, expect, it } from 'vitest';
import { VISITOR, type Viewer } from '../access/access';
import {
  courseDetails,
  filterNames,
  formatDuration,
  formatPrice,
  homeSections,
  isPaid,
  listCards,
  parseCourseId,
  parseFilter,
  pick,
  type CatalogCourse,
  type CatalogSnapshot,
} from './catalog';

function course(id: number, categoryId: number, over: Partial<CatalogCourse> = {}): CatalogCourse {
  return {
    id,
    code: `C${id}`,
    nameEs: `Curso ${id}`,
    nameEn: `Course ${id}`,
    descriptionEs: 'Descripción',
    descriptionEn: 'Description',
    thumbnail: `/images/courses/${id}.webp`,
    categoryId,
    businessId: 1,
    allowAll: false,
    isTest: false,
    price: 0,
    prerequisiteCourseId: null,
    visibleOnlyToBuyers: false,
    applicationId: 10,
    hidden: false,
    version: 1,
    createdAt: new Date(0),
    updatedAt: new Date(0),
    modules: [
      {
        id: id * 10,
        courseId: id,
        code: `C${id}M1`,
        nameEs: 'Módulo',
        nameEn: 'Module',
        position: 1,
        lessons: [{ id: id * 100, topicId: id * 10, code: `C${id}M1L1`, nameEs: 'Lección', nameEn: 'Lesson', summaryEs: 'Resumen', summaryEn: 'Summary', position: 1, durationSeconds: 90 }],
      },
    ],
    lessonCount: 1,
    durationSeconds: 90,
    ...over,
  };
}

const courses = [
  course(1, 2, { allowAll: true }),
  course(3, 2),
  course(4, 3, { businessId: 2 }),
  course(7, 4),
  course(9, 5),
  course(11, 5),
  course(6, 3, { price: 19.99 }),
  course(10, 4, { price: 99, visibleOnlyToBuyers: true }),
  course(12, 2, { isTest: true, allowAll: true }),
  course(31, 3),
  course(32, 4, { prerequisiteCourseId: 31 }),
];
const snapshot: CatalogSnapshot = {
  categories: [2, 3, 4, 5].map((id, i) => ({ id, nameEs: `Cat ${id}`, nameEn: `Cat ${id} en`, position: i })),
  businesses: [1, 2].map((id, i) => ({ id, nameEs: `Neg ${id}`, nameEn: `Biz ${id}`, position: i })),
  courses,
  byId: new Map(courses.map((c) => [c.id, c])),
  books: [],
  plans: [],
};
const buyer: Viewer = { ...VISITOR, kind: 'learner', userId: 1, contactId: 1, purchased: new Set([10]) };

describe('listCards', () => {
  it('hides test courses and unbought buyer-only courses, and shows bought ones to their buyer', () => {
    const visitorIds = listCards(snapshot, VISITOR, 'es').map((c) => c.id);
    expect(visitorIds).not.toContain(12);
    expect(visitorIds).not.toContain(10);
    expect(listCards(snapshot, buyer, 'es').map((c) => c.id)).toContain(10);
  });

  it('filters by category and by business line, and localises names', () => {
    expect(listCards(snapshot, VISITOR, 'en', { categoryId: 5, businessId: null }).map((c) => c.name)).toEqual(['Course 9', 'Course 11']);
    expect(listCards(snapshot, VISITOR, 'es', { categoryId: null, businessId: 2 }).map((c) => c.id)).toEqual([4]);
    expect(listCards(snapshot, VISITOR, 'es', { categoryId: 3, businessId: 2 }).map((c) => c.id)).toEqual([4]);
  });
});

describe('parseFilter', () => {
  it('reads known ids and ignores unknown or malformed values', () => {
    expect(parseFilter(snapshot, new URLSearchParams('category=3&business=2'))).toEqual({ filter: { categoryId: 3, businessId: 2 }, unknown: false });
    expect(parseFilter(snapshot, new URLSearchParams(''))).toEqual({ filter: { categoryId: null, businessId: null }, unknown: false });
    for (const bad of ['category=99', 'category=abc', 'business=1e3', "category=3'--", 'category=-3', `category=${'9'.repeat(40)}`]) {
      expect(parseFilter(snapshot, new URLSearchParams(bad)).unknown, bad).toBe(true);
    }
  });
});

describe('filterNames', () => {
  const categories = [{ id: 1, name: 'Introductorio' }, { id: 3, name: 'Básico' }];
  const businesses = [{ id: 2, name: 'Viajes' }];
  it('names the active category and business line, in that order, and nothing for no filter or an unknown id', () => {
    expect(filterNames({ categoryId: 3, businessId: 2 }, categories, businesses)).toEqual(['Básico', 'Viajes']);
    expect(filterNames({ categoryId: null, businessId: 2 }, categories, businesses)).toEqual(['Viajes']);
    expect(filterNames({ categoryId: null, businessId: null }, categories, businesses)).toEqual([]);
    expect(filterNames({ categoryId: 99, businessId: null }, categories, businesses)).toEqual([]);
  });
});

describe('homeSections', () => {
  it('splits free courses by category, paid apart, and gives the first training', () => {
    const s = homeSections(listCards(snapshot, VISITOR, 'es'));
    expect(s.introductory.map((c) => c.id)).toEqual([1, 3]);
    expect(s.basicAndIntermediate.map((c) => c.id)).toEqual([4, 31, 7, 32]);
    expect(s.paid.map((c) => c.id)).toEqual([6]);
    expect(s.firstTraining?.id).toBe(9);
  });

  it('has an empty paid list when nothing costs money', () => {
    expect(homeSections(listCards({ ...snapshot, courses: courses.filter((c) => c.price === 0) }, VISITOR, 'es')).paid).toEqual([]);
  });
});

describe('courseDetails', () => {
  it('returns nothing for unknown, test and unbought buyer-only courses', () => {
    expect(courseDetails(snapshot, 999, VISITOR, 'es')).toBeNull();
    expect(courseDetails(snapshot, 12, VISITOR, 'es')).toBeNull();
    expect(courseDetails(snapshot, 10, VISITOR, 'es')).toBeNull();
    expect(courseDetails(snapshot, 10, buyer, 'es')?.state.purchased).toBe(true);
  });

  it('gives the outline, the prerequisite and the viewer state', () => {
    const d = courseDetails(snapshot, 32, VISITOR, 'en')!;
    expect(d.prerequisite).toEqual({ id: 31, name: 'Course 31' });
    expect(d.state.refusal).toBe('prerequisite');
    expect(d.modules[0]!.lessons[0]!.name).toBe('Lesson');
  });
});

describe('small helpers', () => {
  it('parses course ids strictly', () => {
    expect(parseCourseId('31')).toBe(31);
    for (const bad of [undefined, '', 'abc', '3.1', '-1', '1e3', '9999999999', '31;drop']) expect(parseCourseId(bad), String(bad)).toBeNull();
  });

  it('formats durations and prices', () => {
    expect(formatDuration(45)).toBe('45 s');
    expect(formatDuration(7 * 60 + 20)).toBe('7 min');
    expect(formatDuration(3900)).toBe('1 h 5 min');
    expect(formatPrice(19.9, 'en')).toBe('$19.90');
    expect(isPaid('0.00')).toBe(false);
    expect(isPaid(0.01)).toBe(true);
  });

  it('picks the column of the language', () => {
    expect(pick({ nameEs: 'Viajes', nameEn: 'Travel' }, 'name', 'en')).toBe('Travel');
  });
});
