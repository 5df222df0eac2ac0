/** Loads "my learning" (/mylearning): the person's progress in every course and their standing in each course's exam. */
import type { Db } from '../db/client';
import type { Viewer } from '../access';
import type { CatalogSnapshot } from '../catalog';
import type { Locale } from '~/i18n/locales';
import { examSummaries, progressByCourse } from './progress.server';
import { myLearningCourses, type MyLearningCourse } from './mylearning';

/** The courses "my learning" lists for a viewer (nothing for someone without a contact). */
export async function loadMyLearning(db: Db, catalog: CatalogSnapshot, viewer: Viewer, locale: Locale): Promise<MyLearningCourse[]> {
  const contactId = viewer.contactId;
  const progress = contactId === null ? new Map() : await progressByCourse(db, contactId);
  const candidates = [...new Set([...viewer.purchased, ...progress.keys()])];
  const exams = contactId === null ? new Map() : await examSummaries(db, contactId, candidates);
  return myLearningCourses({ catalog, viewer, progress, exams, locale });
}
