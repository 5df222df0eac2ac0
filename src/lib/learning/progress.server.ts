/**
 * Reads behind the lesson player and "my learning" (resources by module, completed
 * lessons by course and person, the exam result). Writes of progress go through the tracking writer.
 */
import { and, asc, count, eq, inArray, isNotNull, isNull } from 'drizzle-orm';
import type { Db } from '../db/client';
import { captions, mediaFiles, videoCaptions, videos, evaluations, examAttempts, questions, resources, RESOURCE_TYPE, subtopics, topics, tracking } from '../db/schema';
import { examSettings, examSummary, type AttemptOutcome, type ExamSummary } from '../exams/exams';
import type { LessonProgress } from './learning';

/** The tracking columns a `LessonProgress` is made of. */
const PROGRESS_COLUMNS = {
  lessonId: tracking.subtopicId,
  lastPosition: tracking.lastPosition,
  furthestPosition: tracking.furthestPosition,
  completedAt: tracking.completedAt,
  updatedAt: tracking.updatedAt,
};

/** One person's progress in every lesson of a course they touched. */
export async function progressInCourse(db: Db, contactId: number, courseId: number): Promise<LessonProgress[]> {
  const rows = await db
    .select(PROGRESS_COLUMNS)
    .from(tracking)
    .where(and(eq(tracking.contactId, contactId), eq(tracking.courseId, courseId)));
  return rows.map(toProgress);
}

/** One person's progress in every course they touched, by course id (for "my learning"). */
export async function progressByCourse(db: Db, contactId: number): Promise<Map<number, LessonProgress[]>> {
  const rows = await db
    .select({ courseId: tracking.courseId, ...PROGRESS_COLUMNS })
    .from(tracking)
    .where(eq(tracking.contactId, contactId));
  const byCourse = new Map<number, LessonProgress[]>();
  for (const r of rows) {
    const list = byCourse.get(r.courseId) ?? [];
    list.push(toProgress(r));
    byCourse.set(r.courseId, list);
  }
  return byCourse;
}

/** The lessons of a course a person completed. */
export async function completedLessons(db: Db, contactId: number, courseId: number): Promise<number[]> {
  const rows = await db
    .select({ id: tracking.subtopicId })
    .from(tracking)
    .where(and(eq(tracking.contactId, contactId), eq(tracking.courseId, courseId), isNotNull(tracking.completedAt)));
  return rows.map((r) => r.id);
}

/** The courses (among `courseIds`) whose exam the person passed. */
export async function passedExams(db: Db, contactId: number, courseIds: readonly number[]): Promise<Set<number>> {
  if (courseIds.length === 0) return new Set();
  const rows = await db
    .selectDistinct({ courseId: evaluations.courseId })
    .from(examAttempts)
    .innerJoin(evaluations, eq(evaluations.id, examAttempts.evaluationId))
    .where(and(eq(examAttempts.contactId, contactId), eq(examAttempts.passed, true), inArray(evaluations.courseId, [...courseIds])));
  return new Set(rows.map((r) => r.courseId));
}

/**
 * A person's standing in the exams of `courseIds` ("my learning"), by course id: status, best score and
 * attempts left. Courses without an exam, or whose exam has no question (it cannot be taken), are left
 * out. Reads only: an attempt past its deadline but not graded yet counts as in progress until the
 * server grades it (the scheduled job, or the exam pages' next read), which tells the person's pages.
 */
export async function examSummaries(db: Db, contactId: number, courseIds: readonly number[]): Promise<Map<number, ExamSummary>> {
  if (courseIds.length === 0) return new Map();
  const exams = await db
    .select({
      evaluationId: evaluations.id,
      courseId: evaluations.courseId,
      maxAttempts: evaluations.maxAttempts,
      questionCount: evaluations.questionCount,
      minutes: evaluations.minutes,
      passingScore: evaluations.passingScore,
      pool: count(questions.id),
    })
    .from(evaluations)
    // The pool: the questions not retired (versions kept for the attempts that drew them are not in it).
    .innerJoin(questions, and(eq(questions.evaluationId, evaluations.id), isNull(questions.retiredAt)))
    .where(inArray(evaluations.courseId, [...courseIds]))
    .groupBy(evaluations.id);
  if (exams.length === 0) return new Map();
  const attempts = await db
    .select({ evaluationId: examAttempts.evaluationId, score: examAttempts.score, passed: examAttempts.passed, submittedAt: examAttempts.submittedAt })
    .from(examAttempts)
    .where(and(eq(examAttempts.contactId, contactId), inArray(examAttempts.evaluationId, exams.map((e) => e.evaluationId))));
  const byExam = new Map<number, AttemptOutcome[]>();
  for (const a of attempts) byExam.set(a.evaluationId, [...(byExam.get(a.evaluationId) ?? []), { score: a.score, passed: a.passed, graded: a.submittedAt !== null }]);
  const summaries = new Map<number, ExamSummary>();
  for (const e of exams) {
    const { attempts: allowed } = examSettings({ attempts: e.maxAttempts, questions: e.questionCount, minutes: e.minutes, minimumScore: e.passingScore }, e.pool);
    summaries.set(e.courseId, examSummary(byExam.get(e.evaluationId) ?? [], allowed));
  }
  return summaries;
}

/** A lesson resource as the player lists it. */
export interface LessonResource {
  id: number;
  kind: 'video' | 'pdf' | 'link';
  titleEs: string;
  titleEn: string;
  /** External address of a link resource; files are served by the access-checked media endpoint. */
  url: string | null;
  /** Caption languages of a video. */
  captionLangs: string[];
  /** A video played as HLS (a library video's master playlist, or a shipped clip's conversion once ready). */
  hls?: boolean;
}

/** The type of an HLS master playlist (a library video). */
const HLS_MIME = 'application/vnd.apple.mpegurl';

const KIND = { [RESOURCE_TYPE.video]: 'video', [RESOURCE_TYPE.pdf]: 'pdf', [RESOURCE_TYPE.link]: 'link' } as Record<number, LessonResource['kind']>;

/** The resources of every lesson of a course (or of one module), video first. */
export async function lessonResources(db: Db, scope: { courseId: number } | { moduleId: number }): Promise<Map<number, LessonResource[]>> {
  const where = 'courseId' in scope ? eq(topics.courseId, scope.courseId) : eq(topics.id, scope.moduleId);
  const [rows, caps, libraryCaps] = await Promise.all([
    db
      .select({ r: resources, mimeType: mediaFiles.mimeType, converted: videos.id })
      .from(resources)
      .leftJoin(mediaFiles, eq(mediaFiles.id, resources.mediaFileId))
      // A shipped clip converted by the video worker plays as its HLS (the media route's `hls` files).
      .leftJoin(videos, and(eq(videos.sourceMediaFileId, resources.mediaFileId), eq(videos.state, 'ready')))
      .innerJoin(subtopics, eq(subtopics.id, resources.subtopicId))
      .innerJoin(topics, eq(topics.id, subtopics.topicId))
      .where(where)
      .orderBy(asc(resources.subtopicId), asc(resources.typeId), asc(resources.position)),
    db
      .select({ resourceId: captions.resourceId, lang: captions.lang })
      .from(captions)
      .innerJoin(resources, eq(resources.id, captions.resourceId))
      .innerJoin(subtopics, eq(subtopics.id, resources.subtopicId))
      .innerJoin(topics, eq(topics.id, subtopics.topicId))
      .where(where)
      .orderBy(asc(captions.lang)),
    // A library video brings its own caption tracks.
    db
      .select({ resourceId: resources.id, lang: videoCaptions.lang })
      .from(resources)
      .innerJoin(videos, eq(videos.mediaFileId, resources.mediaFileId))
      .innerJoin(videoCaptions, eq(videoCaptions.videoId, videos.id))
      .innerJoin(subtopics, eq(subtopics.id, resources.subtopicId))
      .innerJoin(topics, eq(topics.id, subtopics.topicId))
      .where(where)
      .orderBy(asc(videoCaptions.lang)),
  ]);
  const langs = new Map<number, string[]>();
  for (const c of [...caps, ...libraryCaps]) {
    const list = langs.get(c.resourceId) ?? [];
    if (!list.includes(c.lang)) langs.set(c.resourceId, [...list, c.lang]);
  }
  const byLesson = new Map<number, LessonResource[]>();
  for (const { r, mimeType, converted } of rows) {
    const kind = KIND[r.typeId];
    if (!kind) continue;
    const list = byLesson.get(r.subtopicId) ?? [];
    list.push({ id: r.id, kind, titleEs: r.titleEs, titleEn: r.titleEn, url: r.mediaFileId === null ? r.url : null, captionLangs: langs.get(r.id) ?? [], ...(mimeType === HLS_MIME || converted !== null ? { hls: true } : {}) });
    byLesson.set(r.subtopicId, list);
  }
  return byLesson;
}

function toProgress(r: { lessonId: number; lastPosition: string; furthestPosition: string; completedAt: Date | null; updatedAt: Date }): LessonProgress {
  return {
    lessonId: r.lessonId,
    lastPosition: Number(r.lastPosition),
    furthestPosition: Number(r.furthestPosition),
    completed: r.completedAt !== null,
    updatedAt: r.updatedAt.getTime(),
  };
}
