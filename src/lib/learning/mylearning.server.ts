/** Loads "my learning" (/mylearning): the person's progress in every course and their standing in each course's exam. */
import type { Db } from '../db/client';
import type { Viewer } from '../access';
import type { CatalogSnapshot } from '../catalog';
import type { Locale } from '~/i18n/locales';
import { examSummaries, progressByCourse, progressInCourse } from './progress.server';
import { myLearningCourses, type MyLearningCourse } from './mylearning';

/** The courses "my learning" lists for a viewer (nothing for someone without a contact). */
export async function loadMyLearning(db: Db, catalog: CatalogSnapshot, viewer: Viewer, locale: Locale): Promise<MyLearningCourse[]> {
  const contactId = viewer.contactId;
  const progress = contactId === null ? new Map() : await progressByCourse(db, contactId);
  const candidates = [...new Set([...viewer.purchased, ...progress.keys()])];
  const exams = contactId === null ? new Map() : await examSummaries(db, contactId, candidates);
  return myLearningCourses({ catalog, viewer, progress, exams, locale });
}

/**
 * Where a learner stands in one course (the course page's progress, ticks and next step): `null` for
 * someone without a contact, or when the course is neither bought nor started.
 */
export async function loadCourseStanding(db: Db, catalog: CatalogSnapshot, viewer: Viewer, locale: Locale, courseId: number): Promise<MyLearningCourse | null> {
  const contactId = viewer.contactId;
  if (contactId === null) return null;
  const [mine, exams] = await Promise.all([progressInCourse(db, contactId, courseId), examSummaries(db, contactId, [courseId])]);
  return myLearningCourses({ catalog, viewer, progress: new Map([[courseId, mine]]), exams, locale }).find((c) => c.id === courseId) ?? null;
}
