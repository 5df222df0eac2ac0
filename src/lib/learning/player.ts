/**
 * The lesson player's rules that need no I/O: reading a `/course-tracking/…` address, choosing the
 * lesson it opens and where the video starts, the page's view model (outline, resources, progress),
 * and what the player does when a lesson ends. Safe to bundle for the browser: the player island
 * imports this module (never `index.ts`, which also exports database code).
 */
import { z } from '../zod';
import type { Locale } from '~/i18n/locales';
import { localePath, paths } from '~/lib/paths';
import {
  courseProgress,
  isLastVideo,
  lessonsInOrder,
  nextStep,
  placeOf,
  previousLesson,
  resumePoint,
  type CourseProgress,
  type LessonPlace,
  type LessonProgress,
  type TrackingPosition,
} from './learning';

/* ───────────── the address ───────────── */

/** What a player address asks for: the course's resume point, a module, or one lesson. */
export type PlayerTarget = { kind: 'course' } | { kind: 'module'; moduleId: number } | { kind: 'lesson'; lessonId: number };

/** A parsed player address. */
export interface PlayerRoute {
  courseId: number;
  target: PlayerTarget;
}

const idSegment = z
  .string()
  .regex(/^[1-9]\d{0,8}$/)
  .transform(Number);
/** Slugs are decorative (ids decide), but still a bounded, non-empty segment. */
const slugSegment = z.string().min(1).max(200);

/**
 * Reads the rest parameter of `/course-tracking/[...path]`: `{course}`, `{course}/{topic}/{topicId}`
 * or `{course}/{topic}/{lesson}/{lessonId}`. Anything else (other segment counts, ids that are not
 * positive whole numbers) is `null`: the page answers 404.
 */
export function parsePlayerPath(raw: string | undefined): PlayerRoute | null {
  if (!raw) return null;
  const parts = raw.split('/');
  const course = idSegment.safeParse(parts[0]);
  if (!course.success) return null;
  const courseId = course.data;
  if (parts.length === 1) return { courseId, target: { kind: 'course' } };
  if (!parts.slice(1, -1).every((p) => slugSegment.safeParse(p).success)) return null;
  const last = idSegment.safeParse(parts.at(-1));
  if (!last.success) return null;
  if (parts.length === 3) return { courseId, target: { kind: 'module', moduleId: last.data } };
  if (parts.length === 4) return { courseId, target: { kind: 'lesson', lessonId: last.data } };
  return null;
}

/* ───────────── which lesson, from where ───────────── */

/** The outline fields the player reads (a catalogue course has them all). */
export interface PlayerCourse {
  id: number;
  nameEs: string;
  nameEn: string;
  modules: readonly {
    id: number;
    nameEs: string;
    nameEn: string;
    lessons: readonly { id: number; nameEs: string; nameEn: string; summaryEs: string; summaryEn: string; durationSeconds: number }[];
  }[];
}

/**
 * Where a video starts: the server's last position for the lesson, except at (or within a second
 * of) its end, where it starts over: resuming there would end the lesson at once.
 */
export function startPosition(progress: LessonProgress | undefined, durationSeconds: number): number {
  if (!progress || !Number.isFinite(progress.lastPosition) || progress.lastPosition <= 0) return 0;
  if (durationSeconds > 0 && progress.lastPosition >= durationSeconds - 1) return 0;
  return progress.lastPosition;
}

/** The lesson an address opens, or why none: an id that is not the course's, or a course without lessons. */
export type TargetResolution = { status: 'ok'; place: LessonPlace; position: number } | { status: 'not-found' } | { status: 'empty' };

/**
 * Resolves an address against a course: the course opens at its resume point, a module at its
 * first lesson (an empty module at the first lesson after it), a lesson at itself. The position is
 * the server's last one for that lesson (see `startPosition`).
 */
export function resolveTarget(course: PlayerCourse, target: PlayerTarget, progress: readonly LessonProgress[]): TargetResolution {
  const order = lessonsInOrder(course);
  const duration = (lessonId: number) => course.modules.flatMap((m) => m.lessons).find((l) => l.id === lessonId)?.durationSeconds ?? 0;
  const at = (place: LessonPlace): TargetResolution => ({
    status: 'ok',
    place,
    position: startPosition(
      progress.find((p) => p.lessonId === place.lessonId),
      duration(place.lessonId),
    ),
  });
  if (target.kind === 'lesson') {
    const place = placeOf(course, target.lessonId);
    return place ? at(place) : { status: 'not-found' };
  }
  if (target.kind === 'module') {
    const index = course.modules.findIndex((m) => m.id === target.moduleId);
    if (index < 0) return { status: 'not-found' };
    const place = order.find((p) => p.moduleIndex >= index);
    return place ? at(place) : order.length ? at(order[0]!) : { status: 'empty' };
  }
  const resume = resumePoint(course, progress);
  return resume ? at(resume.place) : { status: 'empty' };
}

/* ───────────── the view model ───────────── */

/** A lesson resource as the server lists it (see `lessonResources`). */
export interface ResourceInput {
  id: number;
  kind: 'video' | 'pdf' | 'link';
  titleEs: string;
  titleEn: string;
  url: string | null;
  captionLangs: readonly string[];
  /** Played as HLS (a library video). */
  hls?: boolean | undefined;
}

/** The caption languages the player offers (the academy's two). */
export const CAPTION_LANGS = ['es', 'en'] as const;
export type CaptionLang = (typeof CAPTION_LANGS)[number];

/** A lesson's video as the player plays it. */
export interface PlayerVideo {
  resourceId: number;
  src: string;
  /** `src` is an HLS playlist: native where the browser plays HLS, hls.js otherwise. */
  hls?: boolean;
  captions: { lang: CaptionLang; src: string }[];
}

/** A resource listed under the lesson (the video first). */
export interface PlayerResource {
  id: number;
  kind: 'video' | 'pdf' | 'link';
  title: string;
  /** Where it opens (new tab); `null` for the video played above. */
  href: string | null;
}

/** One lesson of the outline, with everything the player needs to switch to it in place. */
export interface PlayerLesson {
  id: number;
  moduleId: number;
  /** 1-based position in the whole course. */
  number: number;
  name: string;
  summary: string;
  durationSeconds: number;
  href: string;
  video: PlayerVideo | null;
  resources: PlayerResource[];
  completed: boolean;
  /** Where its video starts (the server's last position). */
  resumeAt: number;
}

/** One module of the outline. */
export interface PlayerModule {
  id: number;
  /** 1-based. */
  number: number;
  name: string;
  href: string;
  lessons: PlayerLesson[];
}

/** Everything the player page and island show (serialisable: it is the island's props). */
export interface PlayerView {
  /** The course id (so the view is an `Outline` for the navigation rules). */
  id: number;
  name: string;
  /** The course page. */
  courseHref: string;
  modules: PlayerModule[];
  lessonCount: number;
  /** The lesson the address opens. */
  currentLessonId: number;
  examPassed: boolean;
  examHref: string;
  certificateHref: string;
}

/** Only web addresses are offered as link resources (never `javascript:` or other schemes). */
function safeExternalUrl(url: string | null): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.href : null;
  } catch {
    return null;
  }
}

/** The player video and the listed resources of a lesson. */
export function lessonMedia(resources: readonly ResourceInput[], locale: Locale): { video: PlayerVideo | null; resources: PlayerResource[] } {
  const title = (r: ResourceInput) => (locale === 'en' ? r.titleEn : r.titleEs);
  const first = resources.find((r) => r.kind === 'video');
  const video: PlayerVideo | null = first
    ? {
        resourceId: first.id,
        src: first.hls ? paths.resourceHls(first.id) : paths.resourceFile(first.id),
        ...(first.hls ? { hls: true } : {}),
        captions: CAPTION_LANGS.filter((l) => first.captionLangs.includes(l)).map((lang) => ({ lang, src: paths.captionFile(first.id, lang) })),
      }
    : null;
  const listed: PlayerResource[] = [];
  for (const r of resources) {
    if (r === first) listed.push({ id: r.id, kind: 'video', title: title(r), href: null });
    else if (r.kind === 'link') {
      const href = safeExternalUrl(r.url);
      if (href) listed.push({ id: r.id, kind: 'link', title: title(r), href });
    } else listed.push({ id: r.id, kind: r.kind, title: title(r), href: paths.resourceFile(r.id) });
  }
  // Video first (the server already orders them so; keep it true whatever the input order).
  listed.sort((a, b) => Number(b.kind === 'video') - Number(a.kind === 'video'));
  return { video, resources: listed };
}

/** What `playerView` needs. */
export interface PlayerInput {
  course: PlayerCourse;
  target: PlayerTarget;
  progress: readonly LessonProgress[];
  resources: ReadonlyMap<number, readonly ResourceInput[]>;
  examPassed: boolean;
  locale: Locale;
}

/** The player page's view, or why there is none (`not-found`: 404; `empty`: a course without lessons). */
export type PlayerViewResult = { status: 'ok'; view: PlayerView } | { status: 'not-found' } | { status: 'empty' };

/** Builds the player's view model for one address and one person's progress. */
export function playerView({ course, target, progress, resources, examPassed, locale }: PlayerInput): PlayerViewResult {
  const resolved = resolveTarget(course, target, progress);
  if (resolved.status !== 'ok') return resolved;
  const href = (p: string) => localePath(locale, p);
  const name = (row: { nameEs: string; nameEn: string }) => (locale === 'en' ? row.nameEn : row.nameEs);
  const byLesson = new Map(progress.map((p) => [p.lessonId, p]));
  let number = 0;
  const modules: PlayerModule[] = course.modules.map((m, i) => ({
    id: m.id,
    number: i + 1,
    name: name(m),
    href: href(paths.courseTrackingModule(course.id, name(m), m.id)),
    lessons: m.lessons.map((l) => {
      const p = byLesson.get(l.id);
      return {
        id: l.id,
        moduleId: m.id,
        number: ++number,
        name: name(l),
        summary: locale === 'en' ? l.summaryEn : l.summaryEs,
        durationSeconds: l.durationSeconds,
        href: href(paths.courseTrackingLesson(course.id, name(m), name(l), l.id)),
        ...lessonMedia(resources.get(l.id) ?? [], locale),
        completed: p?.completed ?? false,
        resumeAt: l.id === resolved.place.lessonId ? resolved.position : startPosition(p, l.durationSeconds),
      };
    }),
  }));
  return {
    status: 'ok',
    view: {
      id: course.id,
      name: name(course),
      courseHref: href(paths.course(course.id)),
      modules,
      lessonCount: number,
      currentLessonId: resolved.place.lessonId,
      examPassed,
      examHref: href(paths.courseExamInfo(course.id)),
      // The issue page: it issues the certificate the first time, and goes straight to it after.
      certificateHref: href(paths.courseGenerate(course.id)),
    },
  };
}

/* ───────────── while playing ───────────── */

/** A lesson of the view with its module. */
export function findLesson(view: PlayerView, lessonId: number): { lesson: PlayerLesson; module: PlayerModule } | null {
  for (const module of view.modules) {
    const lesson = module.lessons.find((l) => l.id === lessonId);
    if (lesson) return { lesson, module };
  }
  return null;
}

/** The lessons before and after one (the previous/next buttons); `startsModule` when the next opens another module. */
export function neighbours(view: PlayerView, lessonId: number): { previous: PlayerLesson | null; next: PlayerLesson | null; startsModule: boolean } {
  const prev = previousLesson(view, lessonId);
  const step = nextStep(view, lessonId);
  return {
    previous: prev ? (findLesson(view, prev.lessonId)?.lesson ?? null) : null,
    next: step.kind === 'end' ? null : (findLesson(view, step.place.lessonId)?.lesson ?? null),
    startsModule: step.kind === 'module',
  };
}

/** What the player does when a lesson's video ends. */
export type AfterEnd =
  /** Show the exam (or certificate) panel and stay: the course's last video, or no lesson follows. */
  | { kind: 'exam' }
  /** Play the next lesson; `newModule` when it is the first lesson of the next module. */
  | { kind: 'next'; lesson: PlayerLesson; newModule: boolean };

/** After a lesson ends: the next lesson (or the next module's first), or the exam panel at the last video. */
export function afterEnd(view: PlayerView, lessonId: number): AfterEnd {
  if (showsExamPanel(view, lessonId)) return { kind: 'exam' };
  const { next, startsModule } = neighbours(view, lessonId);
  return next ? { kind: 'next', lesson: next, newModule: startsModule } : { kind: 'exam' };
}

/** True when the lesson is the course's last video or no lesson follows it. */
export function showsExamPanel(view: PlayerView, lessonId: number): boolean {
  return isLastVideo(view, lessonId, view.examPassed) || nextStep(view, lessonId).kind === 'end';
}

/** The course's progress for a set of completed lessons. */
export function progressOf(view: PlayerView, completed: Iterable<number>): CourseProgress {
  return courseProgress(view, completed);
}

/** The lessons of the view already completed. */
export function completedIds(view: PlayerView): number[] {
  return view.modules.flatMap((m) => m.lessons.filter((l) => l.completed).map((l) => l.id));
}

/** The stored tracking entry (local-storage `tracking`) for a lesson of the view. */
export function trackingEntry(view: PlayerView, lessonId: number, playing: boolean): TrackingPosition | null {
  const place = placeOf(view, lessonId);
  const found = findLesson(view, lessonId);
  if (!place || !found) return null;
  return {
    courseId: view.id,
    topicName: found.module.name,
    subtopicName: found.lesson.name,
    id: lessonId,
    sonPosition: place.lessonIndex,
    fatherPosition: place.moduleIndex,
    fatherIsPlayingVal: playing,
  };
}

/** A position as a clock ("0:07", "1:05:09"). */
export function formatClock(seconds: number): string {
  const s = Math.max(0, Math.floor(Number.isFinite(seconds) ? seconds : 0));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** The playback speeds the player offers (the fastest is the server's `MAX_PLAYBACK_RATE`). */
export const PLAYBACK_RATES = [0.5, 0.75, 1, 1.25, 1.5, 2] as const;

/** A stored speed if it is one the player offers, else normal speed. */
export function parsePlaybackRate(raw: string | null | undefined): number {
  const n = Number(raw);
  return (PLAYBACK_RATES as readonly number[]).includes(n) ? n : 1;
}
