import { describe, expect, it } from 'vitest';
import { VISITOR, type Viewer } from '../access';
import type { CatalogCourse, CatalogSnapshot } from '../catalog';
import type { ExamSummary } from '../exams/exams';
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

const input = (over: Partial<MyLearningInput>): MyLearningInput => ({ catalog, viewer: learner(), progress: new Map(), exams: new Map(), locale: 'es', ...over });

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

  const all = new Map([[1, [p(101, 1, true), p(102, 2, true), p(103, 3, true), p(104, 4, true)]]]);
  const exam = (status: ExamSummary['status'], best: number | null = null, attemptsLeft = 3): ReadonlyMap<number, ExamSummary> => new Map([[1, { status, best, attemptsLeft }]]);

  it('a course whose lessons are all completed links to its exam, and is completed only once the exam is passed', () => {
    const [done] = myLearningCourses(input({ progress: all, exams: exam('not-taken'), locale: 'en' }));
    expect(done).toMatchObject({ progress: { percent: 100 }, completed: false, exam: { status: 'not-taken', best: null }, after: { kind: 'exam', href: '/en/course-exam-info/1' }, lastLesson: { name: 'Lesson 4' } });
    const [passed] = myLearningCourses(input({ progress: all, exams: exam('passed', 100, 2) }));
    expect(passed).toMatchObject({ completed: true, exam: { status: 'passed', best: 100 }, after: { kind: 'certificate', href: '/course-generate?course=1' } });
  });

  it('a course without an exam is completed with its lessons, and has nothing after them', () => {
    const [done] = myLearningCourses(input({ progress: all }));
    expect(done).toMatchObject({ completed: true, exam: null, after: null });
    const [half] = myLearningCourses(input({ progress: new Map([[1, [p(101, 1, true)]]]) }));
    expect(half).toMatchObject({ completed: false, exam: null, after: null });
  });

  it('shows the exam status and best score; the exam link only once the lessons are done and while an attempt is left', () => {
    const card = (progress: typeof all, summary: ReadonlyMap<number, ExamSummary>) => myLearningCourses(input({ progress, exams: summary }))[0]!;
    const started = new Map([[1, [p(101, 1, true)]]]);
    expect(card(started, exam('not-taken'))).toMatchObject({ completed: false, exam: { status: 'not-taken' }, after: null });
    expect(card(all, exam('in-progress', null, 2))).toMatchObject({ completed: false, after: { kind: 'exam-resume', href: '/course-exam-info/1' } });
    expect(card(all, exam('failed', 40, 2))).toMatchObject({ completed: false, exam: { status: 'failed', best: 40, attemptsLeft: 2 }, after: { kind: 'exam', href: '/course-exam-info/1' } });
    expect(card(all, exam('out-of-attempts', 65, 0))).toMatchObject({ completed: false, exam: { status: 'out-of-attempts', best: 65 }, after: null });
    // Passed is passed, even if lessons were added to the course since.
    expect(card(started, exam('passed', 90, 1))).toMatchObject({ completed: false, after: { kind: 'certificate' } });
  });

  it('names the next lesson to watch (the first not completed, in the course’s order) and the lessons done', () => {
    const [c] = myLearningCourses(input({ progress: new Map([[1, [p(101, 1, true), p(103, 2, true), p(102, 3)]]]), locale: 'en' }));
    expect(c).toMatchObject({ nextLesson: { id: 102, name: 'Lesson 2', href: '/en/course-tracking/1/first/lesson-2/102' }, inProgress: true, unlocks: [] });
    expect(c!.completedLessonIds.sort()).toEqual([101, 103]);
    const [done] = myLearningCourses(input({ progress: all }));
    expect(done).toMatchObject({ nextLesson: null, inProgress: false });
  });

  it('a bought course not started yet is not in progress; a started one stays in progress until completed', () => {
    const list = myLearningCourses(input({ viewer: learner([6]), progress: new Map([[1, [p(101, 1)]]]) }));
    expect(list.map((c) => [c.id, c.inProgress])).toEqual([
      [1, true],
      [6, false],
    ]);
    const [awaitingExam] = myLearningCourses(input({ progress: all, exams: exam('not-taken') }));
    expect(awaitingExam!.inProgress).toBe(true);
  });

  it('a completed course names the visible courses that required it (what its certificate unlocked)', () => {
    const withNext = [course(1), course(32, { prerequisiteCourseId: 1 }), course(33, { prerequisiteCourseId: 1, isTest: true })];
    const next = { courses: withNext, byId: new Map(withNext.map((c) => [c.id, c])), categories: catalog.categories } as unknown as MyLearningInput['catalog'];
    const [passed] = myLearningCourses(input({ catalog: next, progress: all, exams: exam('passed', 100, 2), locale: 'en' }));
    expect(passed!.unlocks).toEqual([{ id: 32, name: 'Course 32', href: '/en/courses-details/32' }]);
    const [failed] = myLearningCourses(input({ catalog: next, progress: all, exams: exam('failed', 40, 2) }));
    expect(failed!.unlocks).toEqual([]);
  });
});
