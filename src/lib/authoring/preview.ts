/**
 * A draft as a learner would see its course page: the draft placed in a copy of the live catalogue and
 * read by the catalogue's own `courseDetails`, so the preview and the live page can never disagree on
 * what they show. Pure.
 */
import type { Locale } from '~/i18n';
import { VISITOR } from '../access/access';
import { courseDetails, type CatalogCourse, type CatalogSnapshot, type CourseDetails } from '../catalog/catalog';
import type { CourseDoc, DocLesson } from './authoring';

const hasVideo = (l: DocLesson) => l.resources.some((r) => r.kind === 'video' && r.mediaFileId !== null);

/** The lessons of the draft learners will not see yet: those without a video. */
export function lessonsWithoutVideo(doc: CourseDoc): number {
  return doc.modules.reduce((n, m) => n + m.lessons.filter((l) => !hasVideo(l)).length, 0);
}

/**
 * The course page of `doc` (course `courseId`) in `locale`, as a visitor sees a listed course (hidden,
 * test and buyers-only are previewed as shown). As in the catalogue, a lesson without its video is not
 * shown (`lessonsWithoutVideo` counts them for the preview's note). Lessons keep their video's length
 * when they already exist; new items get negative ids, which no link resolves.
 */
export function previewDetails(catalog: CatalogSnapshot, courseId: number, doc: CourseDoc, locale: Locale): CourseDetails | null {
  const live = catalog.byId.get(courseId);
  const lengths = new Map((live?.modules ?? []).flatMap((m) => m.lessons.map((l) => [l.id, l.durationSeconds] as const)));
  let synthetic = 0;
  const idOf = (id: number | null) => id ?? --synthetic;
  const modules: CatalogCourse['modules'] = doc.modules.map((m, mi) => {
    const moduleId = idOf(m.id);
    return {
      id: moduleId,
      courseId,
      code: m.key,
      nameEs: m.nameEs,
      nameEn: m.nameEn,
      position: mi + 1,
      lessons: m.lessons.filter(hasVideo).map((l, li) => ({
        id: idOf(l.id),
        topicId: moduleId,
        code: l.key,
        nameEs: l.nameEs,
        nameEn: l.nameEn,
        summaryEs: l.summaryEs,
        summaryEn: l.summaryEn,
        position: li + 1,
        durationSeconds: (l.id !== null ? lengths.get(l.id) : undefined) ?? 0,
      })),
    };
  });
  const lessons = modules.flatMap((m) => m.lessons);
  const now = new Date(0);
  const course: CatalogCourse = {
    id: courseId,
    code: doc.code,
    nameEs: doc.nameEs,
    nameEn: doc.nameEn,
    descriptionEs: doc.descriptionEs,
    descriptionEn: doc.descriptionEn,
    thumbnail: doc.thumbnail,
    categoryId: doc.categoryId,
    businessId: doc.businessId,
    allowAll: doc.allowAll,
    isTest: false,
    hidden: false,
    visibleOnlyToBuyers: false,
    price: doc.priceCents / 100,
    prerequisiteCourseId: doc.prerequisiteCourseId,
    applicationId: live?.applicationId ?? 10,
    version: live?.version ?? 1,
    createdAt: live?.createdAt ?? now,
    updatedAt: live?.updatedAt ?? now,
    modules,
    lessonCount: lessons.length,
    durationSeconds: lessons.reduce((s, l) => s + l.durationSeconds, 0),
  };
  const byId = new Map(catalog.byId);
  byId.set(courseId, course);
  return courseDetails({ ...catalog, courses: catalog.courses.map((c) => (c.id === courseId ? course : c)), byId }, courseId, VISITOR, locale);
}
