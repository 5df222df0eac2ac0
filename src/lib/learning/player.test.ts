import { describe, expect, it } from 'vitest';
import type { LessonProgress } from './learning';
import {
  afterEnd,
  completedIds,
  findLesson,
  formatClock,
  lessonMedia,
  neighbours,
  parsePlaybackRate,
  parsePlayerPath,
  playerView,
  progressOf,
  resolveTarget,
  showsExamPanel,
  startPosition,
  trackingEntry,
  type PlayerCourse,
  type PlayerInput,
  type PlayerView,
  type ResourceInput,
} from './player';

const lesson = (id: number, durationSeconds = 8) => ({
  id,
  nameEs: `Lección ${id}`,
  nameEn: `Lesson ${id}`,
  summaryEs: `Resumen ${id}`,
  summaryEn: `Summary ${id}`,
  durationSeconds,
});
const module = (id: number, lessons: ReturnType<typeof lesson>[]) => ({ id, nameEs: `Módulo ${id}`, nameEn: `Module ${id}`, lessons });

/** Three modules: 10 (lessons 101, 102), 20 (empty), 30 (301), 40 (401, 402). */
const course: PlayerCourse = {
  id: 7,
  nameEs: 'Curso de prueba',
  nameEn: 'Test course',
  modules: [module(10, [lesson(101), lesson(102, 20)]), module(20, []), module(30, [lesson(301)]), module(40, [lesson(401), lesson(402)])],
};

const progress = (lessonId: number, lastPosition: number, completed = false, updatedAt = 1): LessonProgress => ({
  lessonId,
  lastPosition,
  furthestPosition: lastPosition,
  completed,
  updatedAt,
});

const input = (over: Partial<PlayerInput> = {}): PlayerInput => ({
  course,
  target: { kind: 'course' },
  progress: [],
  resources: new Map(),
  examPassed: false,
  locale: 'es',
  ...over,
});

function view(over: Partial<PlayerInput> = {}): PlayerView {
  const r = playerView(input(over));
  if (r.status !== 'ok') throw new Error(`expected a view, got ${r.status}`);
  return r.view;
}

describe('player addresses', () => {
  it('read the three player routes: course, module and lesson (slugs are decorative)', () => {
    expect(parsePlayerPath('7')).toEqual({ courseId: 7, target: { kind: 'course' } });
    expect(parsePlayerPath('7/modulo-1/10')).toEqual({ courseId: 7, target: { kind: 'module', moduleId: 10 } });
    expect(parsePlayerPath('7/modulo-1/leccion-1/101')).toEqual({ courseId: 7, target: { kind: 'lesson', lessonId: 101 } });
    expect(parsePlayerPath('7/anything/at-all/101')).toEqual({ courseId: 7, target: { kind: 'lesson', lessonId: 101 } });
  });

  it('refuse anything else: no path, other segment counts, ids that are not positive whole numbers', () => {
    for (const bad of [undefined, '', 'x', '0', '-1', '07', '1.5', '1e3', '9999999999', '7/10', '7/a/b/c/101', '7/m/x', '7/m/l/0', '7//101', '7/m//101', ' 7']) {
      expect(parsePlayerPath(bad), String(bad)).toBeNull();
    }
    expect(parsePlayerPath(`7/${'s'.repeat(201)}/10`)).toBeNull();
  });
});

describe('which lesson an address opens', () => {
  it('a course opens at its resume point: the first lesson for someone new', () => {
    expect(resolveTarget(course, { kind: 'course' }, [])).toEqual({ status: 'ok', place: expect.objectContaining({ lessonId: 101 }), position: 0 });
  });

  it('a course opens at the lesson last watched, at its last position', () => {
    const r = resolveTarget(course, { kind: 'course' }, [progress(101, 8, true, 1), progress(102, 12.5, false, 2)]);
    expect(r).toEqual({ status: 'ok', place: expect.objectContaining({ lessonId: 102 }), position: 12.5 });
  });

  it('after a completed lesson the course opens at the next one not completed, across an empty module', () => {
    const r = resolveTarget(course, { kind: 'course' }, [progress(101, 8, true, 1), progress(102, 20, true, 2)]);
    expect(r).toEqual({ status: 'ok', place: expect.objectContaining({ lessonId: 301, moduleId: 30 }), position: 0 });
  });

  it('a module opens at its first lesson; an empty module at the first lesson after it', () => {
    expect(resolveTarget(course, { kind: 'module', moduleId: 40 }, [])).toMatchObject({ status: 'ok', place: { lessonId: 401 } });
    expect(resolveTarget(course, { kind: 'module', moduleId: 20 }, [])).toMatchObject({ status: 'ok', place: { lessonId: 301 } });
  });

  it('a lesson opens at itself, resuming at the server’s position', () => {
    expect(resolveTarget(course, { kind: 'lesson', lessonId: 102 }, [progress(102, 9.25)])).toMatchObject({ status: 'ok', place: { lessonId: 102 }, position: 9.25 });
  });

  it('ids of other courses (or modules given as lessons, and the reverse) are not found', () => {
    expect(resolveTarget(course, { kind: 'lesson', lessonId: 999 }, [])).toEqual({ status: 'not-found' });
    expect(resolveTarget(course, { kind: 'lesson', lessonId: 10 }, [])).toEqual({ status: 'not-found' });
    expect(resolveTarget(course, { kind: 'module', moduleId: 101 }, [])).toEqual({ status: 'not-found' });
  });

  it('a course without lessons is empty, not an error', () => {
    const empty: PlayerCourse = { ...course, modules: [module(1, [])] };
    expect(resolveTarget(empty, { kind: 'course' }, [])).toEqual({ status: 'empty' });
    expect(resolveTarget(empty, { kind: 'module', moduleId: 1 }, [])).toEqual({ status: 'empty' });
    expect(playerView(input({ course: empty }))).toEqual({ status: 'empty' });
  });

  it('the video starts at the last position, but over again at (or within a second of) the end', () => {
    expect(startPosition(undefined, 8)).toBe(0);
    expect(startPosition(progress(1, 4.5), 8)).toBe(4.5);
    expect(startPosition(progress(1, 7.2), 8)).toBe(0);
    expect(startPosition(progress(1, 8), 8)).toBe(0);
    expect(startPosition(progress(1, -3), 8)).toBe(0);
    expect(startPosition(progress(1, Number.NaN), 8)).toBe(0);
  });
});

describe('the player’s view model', () => {
  const resources = new Map<number, ResourceInput[]>([
    [
      101,
      [
        { id: 5, kind: 'pdf', titleEs: 'Guía', titleEn: 'Guide', url: null, captionLangs: [] },
        { id: 4, kind: 'video', titleEs: 'Video 1', titleEn: 'Video 1', url: null, captionLangs: ['en', 'es', 'fr'] },
        { id: 6, kind: 'link', titleEs: 'Glosario', titleEn: 'Glossary', url: 'https://example.com/glosario', captionLangs: [] },
        { id: 7, kind: 'link', titleEs: 'Malo', titleEn: 'Bad', url: 'javascript:alert(1)', captionLangs: [] },
      ],
    ],
  ]);

  it('lists modules and lessons with their addresses in the page’s language, numbered across the course', () => {
    const es = view();
    expect(es.name).toBe('Curso de prueba');
    expect(es.lessonCount).toBe(5);
    expect(es.modules.map((m) => [m.number, m.href])).toEqual([
      [1, '/course-tracking/7/modulo-10/10'],
      [2, '/course-tracking/7/modulo-20/20'],
      [3, '/course-tracking/7/modulo-30/30'],
      [4, '/course-tracking/7/modulo-40/40'],
    ]);
    expect(es.modules[3]!.lessons.map((l) => [l.number, l.name, l.href])).toEqual([
      [4, 'Lección 401', '/course-tracking/7/modulo-40/leccion-401/401'],
      [5, 'Lección 402', '/course-tracking/7/modulo-40/leccion-402/402'],
    ]);
    const en = view({ locale: 'en' });
    expect(en.modules[0]!.lessons[0]).toMatchObject({ name: 'Lesson 101', summary: 'Summary 101', href: '/en/course-tracking/7/module-10/lesson-101/101' });
    expect([en.courseHref, en.examHref, en.certificateHref]).toEqual(['/en/courses-details/7', '/en/course-exam-info/7', '/en/course-generate?course=7']);
  });

  it('marks completed lessons and each lesson’s resume position from the server’s progress', () => {
    const v = view({ target: { kind: 'lesson', lessonId: 401 }, progress: [progress(101, 8, true), progress(102, 6), progress(401, 3)] });
    expect(v.currentLessonId).toBe(401);
    expect(completedIds(v)).toEqual([101]);
    expect(findLesson(v, 102)!.lesson.resumeAt).toBe(6);
    expect(findLesson(v, 101)!.lesson.resumeAt).toBe(0);
    expect(findLesson(v, 401)!.lesson.resumeAt).toBe(3);
  });

  it('plays the first video with the academy’s caption tracks and lists the video first, then documents and web links', () => {
    const v = view({ resources, locale: 'en' });
    const first = findLesson(v, 101)!.lesson;
    expect(first.video).toEqual({
      resourceId: 4,
      src: '/media/resource/4',
      captions: [
        { lang: 'es', src: '/media/resource/4/captions/es.vtt' },
        { lang: 'en', src: '/media/resource/4/captions/en.vtt' },
      ],
    });
    expect(first.resources).toEqual([
      { id: 4, kind: 'video', title: 'Video 1', href: null },
      { id: 5, kind: 'pdf', title: 'Guide', href: '/media/resource/5' },
      { id: 6, kind: 'link', title: 'Glossary', href: 'https://example.com/glosario' },
    ]);
    expect(findLesson(v, 102)!.lesson).toMatchObject({ video: null, resources: [] });
  });

  it('never offers a link resource that is not a web address', () => {
    expect(lessonMedia([{ id: 1, kind: 'link', titleEs: 'x', titleEn: 'x', url: 'data:text/html,hi', captionLangs: [] }], 'es').resources).toEqual([]);
    expect(lessonMedia([{ id: 1, kind: 'link', titleEs: 'x', titleEn: 'x', url: null, captionLangs: [] }], 'es').resources).toEqual([]);
  });

  it('answers not-found for an id outside the course', () => {
    expect(playerView(input({ target: { kind: 'lesson', lessonId: 12345 } }))).toEqual({ status: 'not-found' });
    expect(playerView(input({ target: { kind: 'module', moduleId: 12345 } }))).toEqual({ status: 'not-found' });
  });

  it('counts course progress from completed lessons', () => {
    const v = view({ progress: [progress(101, 8, true), progress(301, 8, true)] });
    expect(progressOf(v, completedIds(v))).toEqual({ completed: 2, total: 5, percent: 40 });
    expect(progressOf(v, [101, 102, 301, 401, 402])).toEqual({ completed: 5, total: 5, percent: 100 });
  });
});

describe('navigation while playing', () => {
  const v = view();

  it('previous and next lessons, with the module boundary (and an empty module) in between', () => {
    expect(neighbours(v, 101)).toMatchObject({ previous: null, next: { id: 102 }, startsModule: false });
    expect(neighbours(v, 102)).toMatchObject({ previous: { id: 101 }, next: { id: 301 }, startsModule: true });
    expect(neighbours(v, 402)).toMatchObject({ previous: { id: 401 }, next: null });
  });

  it('after a lesson ends: the next lesson, then the next module’s first lesson', () => {
    expect(afterEnd(v, 101)).toMatchObject({ kind: 'next', lesson: { id: 102 }, newModule: false });
    expect(afterEnd(v, 102)).toMatchObject({ kind: 'next', lesson: { id: 301 }, newModule: true });
  });

  it('the last lesson of the second-to-last module is the last video: the exam panel, no move', () => {
    expect(showsExamPanel(v, 301)).toBe(true);
    expect(afterEnd(v, 301)).toEqual({ kind: 'exam' });
    expect(showsExamPanel(v, 401)).toBe(false);
  });

  it('with the exam passed, the last video is the last lesson of the last module', () => {
    const passed = view({ examPassed: true });
    expect(showsExamPanel(passed, 301)).toBe(false);
    expect(afterEnd(passed, 301)).toMatchObject({ kind: 'next', lesson: { id: 401 }, newModule: true });
    expect(afterEnd(passed, 402)).toEqual({ kind: 'exam' });
  });

  it('the course’s very last lesson shows the exam panel too (nothing follows it)', () => {
    expect(afterEnd(v, 402)).toEqual({ kind: 'exam' });
  });

  it('a one-module course: its last lesson is the last video', () => {
    const one = view({ course: { ...course, modules: [module(1, [lesson(11), lesson(12)])] } });
    expect(afterEnd(one, 11)).toMatchObject({ kind: 'next', lesson: { id: 12 } });
    expect(afterEnd(one, 12)).toEqual({ kind: 'exam' });
  });

  it('the stored tracking entry holds module and lesson names and positions', () => {
    expect(trackingEntry(v, 301, true)).toEqual({
      courseId: 7,
      topicName: 'Módulo 30',
      subtopicName: 'Lección 301',
      id: 301,
      sonPosition: 0,
      fatherPosition: 2,
      fatherIsPlayingVal: true,
    });
    expect(trackingEntry(v, 999, false)).toBeNull();
  });
});

describe('small player helpers', () => {
  it('clock format', () => {
    expect([formatClock(0), formatClock(7.9), formatClock(65), formatClock(3669), formatClock(-4), formatClock(Number.NaN)]).toEqual(['0:00', '0:07', '1:05', '1:01:09', '0:00', '0:00']);
  });

  it('playback speed: only the offered ones', () => {
    expect([parsePlaybackRate('1.5'), parsePlaybackRate('2'), parsePlaybackRate('3'), parsePlaybackRate('abc'), parsePlaybackRate(null)]).toEqual([1.5, 2, 1, 1, 1]);
  });
});
