export * from './learning';
export { progressInCourse, progressByCourse, completedLessons, passedExams, lessonResources, type LessonResource } from './progress.server';
