import { describe, expect, it } from 'vitest';
import { courseState, isListed, refusal, showBuyButtons, VISITOR, type AccessCourse, type Viewer } from './access';

const course = (over: Partial<AccessCourse> = {}): AccessCourse => ({
  id: 1,
  isTest: false,
  visibleOnlyToBuyers: false,
  allowAll: false,
  price: 0,
  prerequisiteCourseId: null,
  categoryId: 3,
  ...over,
});
const viewer = (over: Partial<Viewer> = {}): Viewer => ({ ...VISITOR, ...over });
const learner = (over: Partial<Viewer> = {}) => viewer({ kind: 'learner', userId: 7, contactId: 70, ...over });
const guest = (contactId: number | null) => viewer({ kind: 'guest', contactId });

describe('listing', () => {
  it('never lists test courses, not even to buyers', () => {
    expect(isListed(course({ isTest: true }), VISITOR)).toBe(false);
    expect(isListed(course({ id: 5, isTest: true }), learner({ purchased: new Set([5]) }))).toBe(false);
  });

  it('lists buyer-only courses (ids 10 and 16 in the catalogue) only to people who bought them', () => {
    const c10 = course({ id: 10, visibleOnlyToBuyers: true, price: 99 });
    expect(isListed(c10, VISITOR)).toBe(false);
    expect(isListed(c10, learner())).toBe(false);
    expect(isListed(c10, learner({ purchased: new Set([16]) }))).toBe(false);
    expect(isListed(c10, learner({ purchased: new Set([10]) }))).toBe(true);
    expect(refusal(c10, learner())).toBe('not-found');
  });
});

describe('buy buttons', () => {
  it('show only for paid courses not yet bought', () => {
    expect(showBuyButtons(course({ price: 19.99 }), learner())).toBe(true);
    expect(showBuyButtons(course({ id: 6, price: 19.99 }), learner({ purchased: new Set([6]) }))).toBe(false);
    expect(showBuyButtons(course({ price: 0 }), learner())).toBe(false);
    expect(showBuyButtons(course({ price: 19.99 }), VISITOR)).toBe(true);
  });
});

describe('opening a course', () => {
  const free = course({ allowAll: true });
  const membersOnly = course({ allowAll: false });
  const paid = course({ id: 8, price: 29.99, categoryId: 4 });

  it('guests and IBOs open only free-for-guests courses, and only after giving prospect data', () => {
    expect(refusal(free, VISITOR)).toBe('prospect');
    expect(refusal(free, guest(null))).toBe('prospect');
    expect(refusal(free, guest(12))).toBeNull();
    expect(refusal(free, viewer({ kind: 'ibo', contactId: 12 }))).toBeNull();
    expect(refusal(membersOnly, guest(12))).toBe('login');
    expect(refusal(paid, guest(12))).toBe('login');
    expect(refusal(course({ allowAll: true, price: 10 }), guest(12))).toBe('login');
  });

  it('learners open free and members-only courses, paid ones once bought or unlocked by a membership', () => {
    expect(refusal(free, learner())).toBeNull();
    expect(refusal(membersOnly, learner())).toBeNull();
    expect(refusal(paid, learner())).toBe('purchase');
    expect(refusal(paid, learner({ purchased: new Set([8]) }))).toBeNull();
    expect(refusal(paid, learner({ membershipCategories: new Set([4]) }))).toBeNull();
    expect(refusal(paid, learner({ membershipCategories: new Set([3]) }))).toBe('purchase');
  });

  it('a membership never reveals a buyer-only course', () => {
    expect(refusal(course({ id: 16, visibleOnlyToBuyers: true, price: 149, categoryId: 5 }), learner({ membershipCategories: new Set([5]) }))).toBe(
      'not-found',
    );
  });

  it('locks a course whose prerequisite is not completed (Real Vision 32 needs 31)', () => {
    const c32 = course({ id: 32, prerequisiteCourseId: 31 });
    expect(refusal(c32, learner())).toBe('prerequisite');
    expect(refusal(c32, learner({ completed: new Set([31]) }))).toBeNull();
    expect(refusal(c32, VISITOR)).toBe('prerequisite');
  });
});

describe('courseState', () => {
  it('shows the free icon for free-for-guests courses and the lock when the viewer cannot open it', () => {
    expect(courseState(course({ allowAll: true }), VISITOR)).toMatchObject({ free: true, locked: true, refusal: 'prospect' });
    expect(courseState(course({ allowAll: true }), learner())).toMatchObject({ free: true, locked: false });
    expect(courseState(course({ id: 32, allowAll: true, prerequisiteCourseId: 31 }), learner())).toMatchObject({
      free: false,
      locked: true,
      refusal: 'prerequisite',
    });
    expect(courseState(course({ id: 6, price: 19.99 }), learner({ purchased: new Set([6]) }))).toMatchObject({
      showBuy: false,
      purchased: true,
      locked: false,
    });
  });
});
