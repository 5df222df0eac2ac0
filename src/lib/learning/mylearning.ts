/**
 * "My learning" (/mylearning) without I/O: which courses a person sees there (the ones they
 * bought and the ones they started, as long as they may still see them), how far they are, the last
 * lesson they watched, where they stand in the course's exam (status and best score), whether the
 * course is completed (every lesson and the exam passed), and what comes next (the exam, or the
 * certificate once it is passed).
 */
import type { Locale } from '~/i18n/locales';
import { localePath, paths } from '~/lib/paths';
import { isListed, type Viewer } from '../access';
import { courseCompleted, type ExamSummary } from '../exams/exams';
import { pick, type CatalogSnapshot } from '../catalog';
import { courseProgress, lessonsInOrder, placeOf, type CourseProgress, type LessonProgress } from './learning';

/** One course card of "my learning". */
export interface MyLearningCourse {
  id: number;
  name: string;
  categoryName: string;
  thumbnail: string;
  progress: CourseProgress;
  /** The lesson watched most recently, or `null` before the first one. */
  lastLesson: { name: string; href: string } | null;
  /** Start (never watched) or resume (the player opens the course's resume point). */
  action: 'start' | 'resume';
  playerHref: string;
  courseHref: string;
  /** The person's standing in the course's exam, `null` for a course without one. */
  exam: ExamSummary | null;
  /** Every lesson completed and, when the course has an exam, the exam passed. */
  completed: boolean;
  /**
   * What comes next: once every lesson is completed, the exam (`exam-resume` while an attempt is in
   * progress), until it is passed, then the certificate. Nothing once no attempt is left.
   */
  after: { kind: 'exam' | 'exam-resume' | 'certificate'; href: string } | null;
  /** When the person last watched it (ms since epoch), for the order of the list. */
  lastActivity: number | null;
  /** The first lesson in the course's order not completed yet (`null` once every lesson is). */
  nextLesson: { id: number; name: string; href: string } | null;
  /** The lessons completed, for the ticks of the course's outline. */
  completedLessonIds: number[];
  /** Started and not completed: what the home page's "Continue learning" row lists. */
  inProgress: boolean;
  /** Once completed: the visible courses that needed this one first (what its certificate unlocked). */
  unlocks: { id: number; name: string; href: string }[];
}

/** What `myLearningCourses` needs. */
export interface MyLearningInput {
  catalog: Pick<CatalogSnapshot, 'byId' | 'categories' | 'courses'>;
  viewer: Viewer;
  /** The person's progress by course (see `progressByCourse`). */
  progress: ReadonlyMap<number, readonly LessonProgress[]>;
  /** The person's standing in each course's exam, by course id; a course not in it has no exam. */
  exams: ReadonlyMap<number, ExamSummary>;
  locale: Locale;
}

/**
 * The courses of "my learning": bought or started, still visible to the person, the most recently
 * watched first, then the ones not started yet in catalogue order.
 */
export function myLearningCourses({ catalog, viewer, progress, exams, locale }: MyLearningInput): MyLearningCourse[] {
  const href = (p: string) => localePath(locale, p);
  const ids = new Set<number>([...viewer.purchased, ...[...progress.entries()].filter(([, list]) => list.length > 0).map(([id]) => id)]);
  const cards: MyLearningCourse[] = [];
  for (const course of catalog.courses) {
    if (!ids.has(course.id) || !isListed(course, viewer)) continue;
    const mine = progress.get(course.id) ?? [];
    const inCourse = mine.filter((p) => placeOf(course, p.lessonId) !== null);
    const latest = inCourse.length ? inCourse.reduce((a, b) => (b.updatedAt > a.updatedAt ? b : a)) : null;
    const completedLessonIds = inCourse.filter((p) => p.completed).map((p) => p.lessonId);
    const done = courseProgress(course, completedLessonIds);
    let lastLesson: MyLearningCourse['lastLesson'] = null;
    if (latest) {
      const module = course.modules.find((m) => m.lessons.some((l) => l.id === latest.lessonId))!;
      const lesson = module.lessons.find((l) => l.id === latest.lessonId)!;
      lastLesson = { name: pick(lesson, 'name', locale), href: href(paths.courseTrackingLesson(course.id, pick(module, 'name', locale), pick(lesson, 'name', locale), lesson.id)) };
    }
    const exam = exams.get(course.id) ?? null;
    const lessonsDone = done.total > 0 && done.completed >= done.total;
    let after: MyLearningCourse['after'] = null;
    // The certificate link is the issue page: it issues the certificate the first time, and goes straight to it after.
    if (exam?.status === 'passed') after = { kind: 'certificate', href: href(paths.courseGenerate(course.id)) };
    else if (exam && lessonsDone && exam.status !== 'out-of-attempts') after = { kind: exam.status === 'in-progress' ? 'exam-resume' : 'exam', href: href(paths.courseExamInfo(course.id)) };
    const category = catalog.categories.find((c) => c.id === course.categoryId);
    // A course completed before a publication added lessons stays completed (the viewer's kept completions).
    const completed = courseCompleted({ lessonsTotal: done.total, lessonsCompleted: done.completed, hasExam: exam !== null, examPassed: exam?.status === 'passed' }) || viewer.completed.has(course.id);
    const finished = new Set(completedLessonIds);
    const next = lessonsInOrder(course).find((p) => !finished.has(p.lessonId));
    let nextLesson: MyLearningCourse['nextLesson'] = null;
    if (next) {
      const module = course.modules.find((m) => m.id === next.moduleId)!;
      const lesson = module.lessons.find((l) => l.id === next.lessonId)!;
      const name = pick(lesson, 'name', locale);
      nextLesson = { id: lesson.id, name, href: href(paths.courseTrackingLesson(course.id, pick(module, 'name', locale), name, lesson.id)) };
    }
    const unlocks = completed
      ? catalog.courses
          .filter((c) => c.prerequisiteCourseId === course.id && isListed(c, viewer))
          .map((c) => ({ id: c.id, name: pick(c, 'name', locale), href: href(paths.course(c.id)) }))
      : [];
    cards.push({
      id: course.id,
      name: pick(course, 'name', locale),
      categoryName: category ? pick(category, 'name', locale) : '',
      thumbnail: course.thumbnail,
      progress: done,
      lastLesson,
      action: latest ? 'resume' : 'start',
      playerHref: href(paths.courseTracking(course.id)),
      courseHref: href(paths.course(course.id)),
      exam,
      completed,
      after,
      lastActivity: latest?.updatedAt ?? null,
      nextLesson,
      completedLessonIds,
      inProgress: latest !== null && !completed,
      unlocks,
    });
  }
  // Stable sort: courses not started keep the catalogue's order after the started ones.
  return cards.sort((a, b) => (b.lastActivity ?? -Infinity) - (a.lastActivity ?? -Infinity) || 0);
}
