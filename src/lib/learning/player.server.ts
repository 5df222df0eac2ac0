/**
 * Loads the lesson player page: the access decision (the server decides who may watch), the person's
 * progress in the course, the lessons' resources and the exam result, assembled by `playerView`.
 */
import type { Db } from '../db/client';
import { refusal, type Refusal, type Viewer } from '../access';
import { courseDetails, type CatalogSnapshot, type CourseDetails } from '../catalog';
import type { Locale } from '~/i18n/locales';
import { passedExams, lessonResources, progressInCourse } from './progress.server';
import { playerView, resolveTarget, type PlayerTarget, type PlayerView } from './player';

/** What the player address shows this viewer. */
export type PlayerPage =
  /** Unknown course, a course the viewer may not know of, or an id that is not the course's: 404. */
  | { kind: 'not-found' }
  /** The course exists for the viewer but may not be watched now: 403 with the next step. */
  | { kind: 'refused'; refusal: Exclude<Refusal, 'not-found'>; course: CourseDetails }
  /** A course without lessons. */
  | { kind: 'empty'; course: CourseDetails }
  | { kind: 'player'; view: PlayerView; contactId: number; userId: number | null };

/** Decides and loads what `/course-tracking/…` shows for one viewer. */
export async function loadPlayer(db: Db, catalog: CatalogSnapshot, viewer: Viewer, courseId: number, target: PlayerTarget, locale: Locale): Promise<PlayerPage> {
  const course = catalog.byId.get(courseId);
  if (!course) return { kind: 'not-found' };
  const refused = refusal(course, viewer);
  if (refused === 'not-found') return { kind: 'not-found' };
  // An id that is not this course's is a 404 whoever asks (checked before access: nothing to hide).
  if (resolveTarget(course, target, []).status === 'not-found') return { kind: 'not-found' };
  const details = courseDetails(catalog, courseId, viewer, locale);
  if (!details) return { kind: 'not-found' };
  if (refused !== null) return { kind: 'refused', refusal: refused, course: details };
  // `refusal` lets nobody in without a contact (learners have their own, guests and IBOs a prospect).
  const contactId = viewer.contactId;
  if (contactId === null) return { kind: 'refused', refusal: viewer.kind === 'learner' ? 'login' : 'prospect', course: details };
  const [progress, resources, passed] = await Promise.all([
    progressInCourse(db, contactId, courseId),
    lessonResources(db, { courseId }),
    passedExams(db, contactId, [courseId]),
  ]);
  const result = playerView({ course, target, progress, resources, examPassed: passed.has(courseId), locale });
  if (result.status === 'not-found') return { kind: 'not-found' };
  if (result.status === 'empty') return { kind: 'empty', course: details };
  return { kind: 'player', view: result.view, contactId, userId: viewer.userId };
}
