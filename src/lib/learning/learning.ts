/**
 * Learning rules that need no I/O: where a course resumes, what comes after a lesson, which lesson is
 * the course's "last video", how much of a lesson was really played, when a lesson
 * counts as completed, and the progress-event wire format of the realtime socket.
 */
import { z } from '../zod';

/* ───────────── outline ───────────── */

/** The outline fields these rules read (a catalogue course has them all). */
export interface OutlineLesson {
  id: number;
  durationSeconds: number;
}
export interface OutlineModule {
  id: number;
  lessons: readonly OutlineLesson[];
}
export interface Outline {
  id: number;
  modules: readonly OutlineModule[];
}

/** A lesson's place in its course. */
export interface LessonPlace {
  lessonId: number;
  moduleId: number;
  /** Index of the module in the course (stored as `fatherPosition`). */
  moduleIndex: number;
  /** Index of the lesson in its module (stored as `sonPosition`). */
  lessonIndex: number;
}

/** Every lesson of a course in viewing order (empty modules contribute nothing). */
export function lessonsInOrder(course: Outline): LessonPlace[] {
  return course.modules.flatMap((m, moduleIndex) => m.lessons.map((l, lessonIndex) => ({ lessonId: l.id, moduleId: m.id, moduleIndex, lessonIndex })));
}

/** Where a lesson sits in the course, or `null` when it is not one of the course's lessons. */
export function placeOf(course: Outline, lessonId: number): LessonPlace | null {
  return lessonsInOrder(course).find((p) => p.lessonId === lessonId) ?? null;
}

/** The first lesson of a module (skipping nothing: an empty module has none), or `null`. */
export function firstLessonOfModule(course: Outline, moduleId: number): LessonPlace | null {
  return lessonsInOrder(course).find((p) => p.moduleId === moduleId) ?? null;
}

/** What the player does when a lesson ends. */
export type NextStep =
  /** The next lesson of the same module. */
  | { kind: 'lesson'; place: LessonPlace }
  /** The first lesson of the next module that has lessons, reached at the end of a module. */
  | { kind: 'module'; place: LessonPlace }
  /** No lesson follows: the course's videos are over. */
  | { kind: 'end' };

/** What comes after a lesson: the next lesson, the first lesson of the next (non-empty) module, or the end. */
export function nextStep(course: Outline, lessonId: number): NextStep {
  const order = lessonsInOrder(course);
  const i = order.findIndex((p) => p.lessonId === lessonId);
  if (i < 0 || i === order.length - 1) return { kind: 'end' };
  const here = order[i]!;
  const next = order[i + 1]!;
  return next.moduleId === here.moduleId ? { kind: 'lesson', place: next } : { kind: 'module', place: next };
}

/** The lesson before this one in viewing order, or `null` for the first. */
export function previousLesson(course: Outline, lessonId: number): LessonPlace | null {
  const order = lessonsInOrder(course);
  const i = order.findIndex((p) => p.lessonId === lessonId);
  return i > 0 ? order[i - 1]! : null;
}

/**
 * The lesson the course marks as its "last video": the last lesson of the
 * second-to-last module, or of the last module when the exam was already passed; a one-module course
 * ends with its own last lesson. When the chosen module is empty, the last lesson before it counts.
 * `null` for a course without lessons.
 */
export function lastVideo(course: Outline, examPassed: boolean): LessonPlace | null {
  const n = course.modules.length;
  if (n === 0) return null;
  const target = examPassed || n === 1 ? n - 1 : n - 2;
  const upTo = lessonsInOrder(course).filter((p) => p.moduleIndex <= target);
  return upTo.at(-1) ?? null;
}

/** True when `lessonId` is the course's last video for this learner. */
export function isLastVideo(course: Outline, lessonId: number, examPassed: boolean): boolean {
  return lastVideo(course, examPassed)?.lessonId === lessonId;
}

/** What the server knows of one person's progress in one lesson. */
export interface LessonProgress {
  lessonId: number;
  lastPosition: number;
  furthestPosition: number;
  completed: boolean;
  /** When it last changed (ms since epoch); the most recent lesson is where the course resumes. */
  updatedAt: number;
}

/** Where to open a course: the lesson last watched (at its last position), or, when that lesson is
 * completed, the next lesson not yet completed; the first lesson for someone who never started. */
export function resumePoint(course: Outline, progress: readonly LessonProgress[]): { place: LessonPlace; position: number } | null {
  const order = lessonsInOrder(course);
  if (order.length === 0) return null;
  const inCourse = progress.filter((p) => order.some((o) => o.lessonId === p.lessonId));
  if (inCourse.length === 0) return { place: order[0]!, position: 0 };
  const latest = inCourse.reduce((a, b) => (b.updatedAt > a.updatedAt ? b : a));
  const i = order.findIndex((o) => o.lessonId === latest.lessonId);
  if (!latest.completed) return { place: order[i]!, position: latest.lastPosition };
  const done = new Set(inCourse.filter((p) => p.completed).map((p) => p.lessonId));
  const after = order.slice(i + 1).find((o) => !done.has(o.lessonId)) ?? order.find((o) => !done.has(o.lessonId));
  return { place: after ?? order[i]!, position: 0 };
}

/** How far through a course someone is. */
export interface CourseProgress {
  completed: number;
  total: number;
  /** Whole percent, 0–100; 100 only when every lesson is completed. */
  percent: number;
}

/** The share of a course's lessons completed (lessons of other courses are ignored). */
export function courseProgress(course: Outline, completedLessonIds: Iterable<number>): CourseProgress {
  const order = lessonsInOrder(course);
  const done = new Set(completedLessonIds);
  const completed = order.filter((o) => done.has(o.lessonId)).length;
  const total = order.length;
  const percent = total === 0 ? 0 : completed === total ? 100 : Math.min(99, Math.floor((completed * 100) / total));
  return { completed, total, percent };
}

/** The total length of a course's videos in seconds (the "total course time"). */
export function courseDuration(course: Outline): number {
  return course.modules.reduce((s, m) => s + m.lessons.reduce((t, l) => t + l.durationSeconds, 0), 0);
}

/** The stored tracking position of a course (an entry of the local-storage `tracking` list). */
export interface TrackingPosition {
  courseId: number;
  topicName: string;
  subtopicName: string;
  /** The lesson (subtopic) id. */
  id: number;
  sonPosition: number;
  fatherPosition: number;
  /** True while the lesson is playing. */
  fatherIsPlayingVal: boolean;
}

/** Replaces (or adds) a course's entry in the stored tracking list; anything that is not a valid list starts over. */
export function withTrackingPosition(list: unknown, entry: TrackingPosition): TrackingPosition[] {
  const valid = Array.isArray(list) ? (list.filter((x) => trackingPositionSchema.safeParse(x).success) as TrackingPosition[]) : [];
  return [...valid.filter((x) => x.courseId !== entry.courseId), entry];
}

export const trackingPositionSchema = z.object({
  courseId: z.number().int().positive(),
  topicName: z.string().max(500),
  subtopicName: z.string().max(500),
  id: z.number().int().positive(),
  sonPosition: z.number().int().min(0),
  fatherPosition: z.number().int().min(0),
  fatherIsPlayingVal: z.boolean(),
});

/* ───────────── what was really played ───────────── */

/** Fastest playback speed the player offers; progress faster than this (plus slack) is a seek. */
export const MAX_PLAYBACK_RATE = 2;
/** Timer jitter allowed between two progress events, in seconds. */
export const PLAYBACK_SLACK_SECONDS = 1.5;
/** Share of a lesson that must really be played for it to count as completed. */
export const COMPLETION_SHARE = 0.9;
/** The entity id of lessons: progress events are about lessons of this entity. */
export const LESSON_ENTITY_ID = 3;

/**
 * Which seconds of a lesson were played, as a string of '0'/'1' (one character per started second;
 * the same text form as a PostgreSQL `bit varying`, so the database can merge two with `|`).
 */
export type Coverage = string;

/** Number of one-second slots of a lesson. */
export function coverageLength(durationSeconds: number): number {
  return Math.max(1, Math.ceil(Math.max(0, durationSeconds)));
}

/** Nothing played yet. */
export function emptyCoverage(durationSeconds: number): Coverage {
  return '0'.repeat(coverageLength(durationSeconds));
}

/** Coverage of the right length: anything else (another lesson length, bad text) starts empty. */
export function normalizeCoverage(bits: string | null | undefined, durationSeconds: number): Coverage {
  const n = coverageLength(durationSeconds);
  return bits && bits.length === n && /^[01]*$/.test(bits) ? bits : '0'.repeat(n);
}

/** A position report as the server saw it: where the video was and when (ms since epoch). */
export interface Sample {
  position: number;
  at: number;
}

/**
 * The stretch of the video played between two reports, or `null` when it was not playback: the
 * video went backwards, or jumped further than the time elapsed allows at the fastest speed (a seek).
 */
export function playedBetween(prev: Sample, next: Sample): [number, number] | null {
  const advanced = next.position - prev.position;
  if (advanced <= 0) return null;
  const elapsed = Math.max(0, (next.at - prev.at) / 1000);
  if (advanced > elapsed * MAX_PLAYBACK_RATE + PLAYBACK_SLACK_SECONDS) return null;
  return [prev.position, next.position];
}

/** Marks the seconds [from, to) as played. Positions outside the lesson are clipped. */
export function markPlayed(bits: Coverage, from: number, to: number): Coverage {
  const n = bits.length;
  const start = Math.max(0, Math.floor(from));
  const end = Math.min(n, Math.ceil(to));
  if (end <= start) return bits;
  return bits.slice(0, start) + '1'.repeat(end - start) + bits.slice(end);
}

/** Seconds of the lesson played at least once. */
export function playedSeconds(bits: Coverage): number {
  let n = 0;
  for (let i = 0; i < bits.length; i++) if (bits.charCodeAt(i) === 49) n++;
  return n;
}

/** True when enough of the lesson was really played for its end to complete it (90%). */
export function playedEnough(bits: Coverage, durationSeconds: number): boolean {
  if (durationSeconds <= 0) return true;
  return playedSeconds(bits) >= Math.min(bits.length, COMPLETION_SHARE * durationSeconds);
}

/** A reported position made safe: never below 0 nor beyond the lesson's end. */
export function clampPosition(avance: number, durationSeconds: number): number {
  if (!Number.isFinite(avance) || avance < 0) return 0;
  return durationSeconds > 0 ? Math.min(avance, durationSeconds) : avance;
}

/* ───────────── the socket's wire format ───────────── */

/** Largest position accepted on the wire (a day); bigger numbers are not a lesson position. */
export const MAX_AVANCE = 86_400;

const id = z.number().int().positive().max(2_147_483_647);

/**
 * A progress event: `Identificador` the lesson, `IdEntidad` the entity (lessons are 3),
 * `IdContacto` the person, `Avance` the position in seconds, `Activo` whether the video is playing,
 * `CreadoPor` the user who sends it. The server trusts only the session for who the person is:
 * `IdContacto`/`CreadoPor` are checked against it, never used in its place.
 */
export const progressEventSchema = z.object({
  Identificador: id,
  IdEntidad: z.literal(LESSON_ENTITY_ID).optional(),
  IdContacto: id.nullable().optional(),
  Avance: z.number().finite().min(0).max(MAX_AVANCE),
  Activo: z.union([z.boolean(), z.literal(0), z.literal(1)]).optional(),
  CreadoPor: id.nullable().optional(),
});
export type ProgressEvent = z.infer<typeof progressEventSchema>;

/** The three socket events of progress tracking, and the matching HTTP fallback kinds. */
export const TRACKING_EVENTS = ['tracking play', 'tracking', 'tracking end'] as const;
export type TrackingEventName = (typeof TRACKING_EVENTS)[number];

/** Why an event was not stored. */
export type TrackingError = 'invalid' | 'unauthorized' | 'forbidden' | 'rate-limited' | 'unavailable';

/** The answer to each progress event (socket acknowledgement and HTTP fallback body). */
export type TrackingAck =
  | {
      ok: true;
      Identificador: number;
      /** Where to resume this lesson, in seconds (the server's last known position). */
      Avance: number;
      furthest: number;
      /** Seconds really played. */
      played: number;
      completed: boolean;
    }
  | { ok: false; error: TrackingError };

/** What other open tabs of the same person hear (`tracking` from the server). */
export interface TrackingBroadcast {
  Identificador: number;
  Avance: number;
  completed: boolean;
}
