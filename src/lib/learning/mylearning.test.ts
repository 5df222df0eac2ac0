import { describe, expect, it } from 'vitest';
import { VISITOR, type Viewer } from '../access';
import type { CatalogCourse, CatalogSnapshot } from '../catalog';
import type { LessonProgress } from './learning';
import { myLearningCourses, type MyLearningInput } from './mylearning';

/** A catalogue course with two modules of two lessons (ids `id*100 + n`). */
function course(id: number, over: Partial<CatalogCourse> = {}): CatalogCourse {
  const l = (n: number) => ({ id: id * 100 + n, nameEs: `Lección ${n}`, nameEn: `Lesson ${n}`, summaryEs: '', summaryEn: '', durationSeconds: 8 });
  return {
    id,
    nameEs: `Curso ${id}`,
    nameEn: `Course ${id}`,
    categoryId: 2,
    thumbnail: `/images/courses/${id}.webp`,
    isTest: false,
    visibleOnlyToBuyers: false,
    allowAll: true,
    price: 0,
    prerequisiteCourseId: null,
    modules: [
      { id: id * 10 + 1, nameEs: 'Primero', nameEn: 'First', lessons: [l(1), l(2)] },
      { id: id * 10 + 2, nameEs: 'Segundo', nameEn: 'Second', lessons: [l(3), l(4)] },
    ],
    ...over,
  } as unknown as CatalogCourse;
}

const courses = [course(1), course(2), course(3, { isTest: true }), course(10, { visibleOnlyToBuyers: true, price: 99 }), course(6, { price: 19.99 })];
const catalog = {
  courses,
  byId: new Map(courses.map((c) => [c.id, c])),
  categories: [{ id: 2, nameEs: 'Introductorio', nameEn: 'Introductory' }],
} as unknown as Pick<CatalogSnapshot, 'byId' | 'categories' | 'courses'>;

const learner = (purchased: number[] = []): Viewer => ({ ...VISITOR, kind: 'learner', userId: 1, contactId: 1, purchased: new Set(purchased) });
const p = (lessonId: number, updatedAt: number, completed = false): LessonProgress => ({ lessonId, lastPosition: 3, furthestPosition: 3, completed, updatedAt });

const input = (over: Partial<MyLearningInput>): MyLearningInput => ({ catalog, viewer: learner(), progress: new Map(), passedExams: new Set(), locale: 'es', ...over });

describe('my learning', () => {
  it('is empty for someone who bought and started nothing', () => {
    expect(myLearningCourses(input({}))).toEqual([]);
  });

  it('lists bought courses (to start) and started ones (to resume), the most recently watched first', () => {
    const list = myLearningCourses(
      input({
        viewer: learner([6]),
        progress: new Map([
          [1, [p(101, 10, true), p(102, 20)]],
          [2, [p(201, 30)]],
        ]),
      }),
    );
    expect(list.map((c) => [c.id, c.action])).toEqual([
      [2, 'resume'],
      [1, 'resume'],
      [6, 'start'],
    ]);
    const one = list.find((c) => c.id === 1)!;
    expect(one).toMatchObject({
      name: 'Curso 1',
      categoryName: 'Introductorio',
      progress: { completed: 1, total: 4, percent: 25 },
      lastLesson: { name: 'Lección 2', href: '/course-tracking/1/primero/leccion-2/102' },
      playerHref: '/course-tracking/1',
      after: null,
    });
    expect(list.find((c) => c.id === 6)).toMatchObject({ lastLesson: null, progress: { percent: 0 }, lastActivity: null });
  });

  it('leaves out courses the person may no longer see (a test course, a buyer-only course not bought)', () => {
    const list = myLearningCourses(input({ progress: new Map([[3, [p(301, 1)]], [10, [p(1001, 2)]], [1, [p(101, 3)]]]) }));
    expect(list.map((c) => c.id)).toEqual([1]);
    expect(myLearningCourses(input({ viewer: learner([10]), progress: new Map([[10, [p(1001, 2)]]]) })).map((c) => c.id)).toEqual([10]);
  });

  it('ignores progress rows of lessons that are not the course’s', () => {
    const [c] = myLearningCourses(input({ progress: new Map([[1, [p(999, 50, true), p(101, 5)]]]) }));
    expect(c).toMatchObject({ id: 1, progress: { completed: 0 }, lastLesson: { name: 'Lección 1' } });
  });

  it('a completed course links to its exam, or to its certificate once the exam was passed', () => {
    const all = new Map([[1, [p(101, 1, true), p(102, 2, true), p(103, 3, true), p(104, 4, true)]]]);
    const [done] = myLearningCourses(input({ progress: all, locale: 'en' }));
    expect(done).toMatchObject({ progress: { percent: 100 }, after: { kind: 'exam', href: '/en/course-exam-info/1' }, lastLesson: { name: 'Lesson 4' } });
    const [passed] = myLearningCourses(input({ progress: all, passedExams: new Set([1]) }));
    expect(passed!.after).toEqual({ kind: 'certificate', href: '/course-generate?course=1' });
  });
});
