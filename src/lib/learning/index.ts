export * from './learning';
export { progressInCourse, progressByCourse, completedLessons, passedExams, examSummaries, lessonResources, type LessonResource } from './progress.server';
export * from './player';
export { loadPlayer, type PlayerPage } from './player.server';
export * from './mylearning';
export { loadMyLearning } from './mylearning.server';
export * from './tracking';
export {
  authorizeTracking,
  trackOverHttp,
  Tracker,
  TrackingWriter,
  MAX_STATEMENTS_PER_CHUNK,
  type Tracked,
  type TrackedCourse,
  type TrackingAuth,
  type TrackingRow,
  type StoredProgress,
  type TrackerOptions,
  type WriterOptions,
  type WriterStats,
  type HttpTrackingResult,
  type Announcer,
} from './tracking.server';
