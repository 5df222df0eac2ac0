import { describe, expect, it } from 'vitest';
import {
  clampPosition,
  courseDuration,
  courseProgress,
  emptyCoverage,
  firstLessonOfModule,
  isLastVideo,
  lastVideo,
  markPlayed,
  nextStep,
  normalizeCoverage,
  placeOf,
  playedBetween,
  playedEnough,
  playedSeconds,
  previousLesson,
  progressEventSchema,
  resumePoint,
  withTrackingPosition,
  type LessonProgress,
  type Outline,
} from './learning';

/** A course from a compact description: each inner array is a module's lesson ids. */
function course(...modules: number[][]): Outline {
  return { id: 1, modules: modules.map((lessons, i) => ({ id: 100 + i, lessons: lessons.map((id) => ({ id, durationSeconds: 10 })) })) };
}

const three = course([1, 2], [3, 4], [5, 6]);

describe('nextStep', () => {
  it('goes to the next lesson of the same module', () => {
    expect(nextStep(three, 1)).toEqual({ kind: 'lesson', place: { lessonId: 2, moduleId: 100, moduleIndex: 0, lessonIndex: 1 } });
  });
  it('goes to the first lesson of the next module at the end of a module', () => {
    expect(nextStep(three, 2)).toEqual({ kind: 'module', place: { lessonId: 3, moduleId: 101, moduleIndex: 1, lessonIndex: 0 } });
  });
  it('skips empty modules', () => {
    const c = course([1], [], [], [7]);
    expect(nextStep(c, 1)).toEqual({ kind: 'module', place: { lessonId: 7, moduleId: 103, moduleIndex: 3, lessonIndex: 0 } });
  });
  it('ends after the last lesson', () => {
    expect(nextStep(three, 6)).toEqual({ kind: 'end' });
  });
  it('ends for a lesson that is not in the course', () => {
    expect(nextStep(three, 99)).toEqual({ kind: 'end' });
  });
  it('ends for a one-lesson course', () => {
    expect(nextStep(course([1]), 1)).toEqual({ kind: 'end' });
  });
  it('walks a one-module course lesson by lesson', () => {
    const c = course([1, 2, 3]);
    expect(nextStep(c, 2)).toMatchObject({ kind: 'lesson', place: { lessonId: 3 } });
  });
});

describe('previousLesson, placeOf, firstLessonOfModule', () => {
  it('finds the lesson before, across modules', () => {
    expect(previousLesson(three, 3)?.lessonId).toBe(2);
    expect(previousLesson(three, 1)).toBeNull();
  });
  it('locates a lesson and refuses one of another course', () => {
    expect(placeOf(three, 4)).toEqual({ lessonId: 4, moduleId: 101, moduleIndex: 1, lessonIndex: 1 });
    expect(placeOf(three, 42)).toBeNull();
  });
  it('gives the first lesson of a module, none for an empty or unknown module', () => {
    expect(firstLessonOfModule(three, 102)?.lessonId).toBe(5);
    expect(firstLessonOfModule(course([1], []), 101)).toBeNull();
    expect(firstLessonOfModule(three, 999)).toBeNull();
  });
});

describe('lastVideo', () => {
  it('is the last lesson of the second-to-last module while the exam is not passed', () => {
    expect(lastVideo(three, false)?.lessonId).toBe(4);
    expect(isLastVideo(three, 4, false)).toBe(true);
    expect(isLastVideo(three, 6, false)).toBe(false);
  });
  it('is the last lesson of the last module once the exam was passed', () => {
    expect(lastVideo(three, true)?.lessonId).toBe(6);
    expect(isLastVideo(three, 4, true)).toBe(false);
  });
  it('is the only module’s last lesson in a one-module course, passed or not', () => {
    const c = course([1, 2]);
    expect(lastVideo(c, false)?.lessonId).toBe(2);
    expect(lastVideo(c, true)?.lessonId).toBe(2);
  });
  it('falls back to the last lesson before an empty chosen module', () => {
    expect(lastVideo(course([1, 2], [], [5]), false)?.lessonId).toBe(2);
    expect(lastVideo(course([1], [3], []), true)?.lessonId).toBe(3);
  });
  it('is the first module’s last lesson in a two-module course before the exam', () => {
    expect(lastVideo(course([1, 2], [3]), false)?.lessonId).toBe(2);
  });
  it('does not exist for a course without lessons', () => {
    expect(lastVideo(course(), false)).toBeNull();
    expect(lastVideo(course([], []), true)).toBeNull();
    expect(isLastVideo(course([], []), 1, false)).toBe(false);
  });
});

const p = (lessonId: number, lastPosition: number, completed: boolean, updatedAt: number): LessonProgress => ({
  lessonId,
  lastPosition,
  furthestPosition: lastPosition,
  completed,
  updatedAt,
});

describe('resumePoint', () => {
  it('starts at the first lesson for someone who never started', () => {
    expect(resumePoint(three, [])).toEqual({ place: placeOf(three, 1), position: 0 });
  });
  it('resumes the most recently watched lesson at its last position', () => {
    expect(resumePoint(three, [p(1, 10, true, 1), p(3, 4.5, false, 5), p(2, 2, false, 3)])).toEqual({ place: placeOf(three, 3), position: 4.5 });
  });
  it('moves past a completed latest lesson to the next one not completed', () => {
    expect(resumePoint(three, [p(1, 10, true, 1), p(2, 10, true, 2), p(3, 10, true, 3)])?.place.lessonId).toBe(4);
  });
  it('wraps around to the first lesson not completed when the last one finished the course', () => {
    expect(resumePoint(three, [p(1, 3, false, 1), p(6, 10, true, 9)])?.place.lessonId).toBe(1);
    expect(resumePoint(three, [p(1, 10, true, 1), p(6, 10, true, 9)])?.place.lessonId).toBe(2);
  });
  it('stays on the last lesson when everything is completed', () => {
    const all = [1, 2, 3, 4, 5, 6].map((id) => p(id, 10, true, id));
    expect(resumePoint(three, all)).toEqual({ place: placeOf(three, 6), position: 0 });
  });
  it('ignores progress on lessons of other courses', () => {
    expect(resumePoint(three, [p(77, 5, false, 100)])).toEqual({ place: placeOf(three, 1), position: 0 });
  });
  it('has nowhere to go in a course without lessons', () => {
    expect(resumePoint(course([]), [])).toBeNull();
  });
});

describe('courseProgress and courseDuration', () => {
  it('counts only the course’s own completed lessons', () => {
    expect(courseProgress(three, [1, 2, 99])).toEqual({ completed: 2, total: 6, percent: 33 });
  });
  it('reaches 100 only when every lesson is completed', () => {
    const big = course(Array.from({ length: 300 }, (_, i) => i + 1));
    expect(courseProgress(big, Array.from({ length: 299 }, (_, i) => i + 1)).percent).toBe(99);
    expect(courseProgress(three, [1, 2, 3, 4, 5, 6]).percent).toBe(100);
  });
  it('is 0 of 0 for an empty course', () => {
    expect(courseProgress(course([]), [])).toEqual({ completed: 0, total: 0, percent: 0 });
  });
  it('adds up the videos', () => {
    expect(courseDuration(three)).toBe(60);
  });
});

describe('played coverage', () => {
  it('credits playback at normal and double speed', () => {
    expect(playedBetween({ position: 0, at: 0 }, { position: 5, at: 5000 })).toEqual([0, 5]);
    expect(playedBetween({ position: 0, at: 0 }, { position: 10, at: 5000 })).toEqual([0, 10]);
  });
  it('treats a jump faster than the fastest speed as a seek', () => {
    expect(playedBetween({ position: 0, at: 0 }, { position: 60, at: 5000 })).toBeNull();
  });
  it('never credits going backwards or standing still', () => {
    expect(playedBetween({ position: 8, at: 0 }, { position: 3, at: 5000 })).toBeNull();
    expect(playedBetween({ position: 3, at: 0 }, { position: 3, at: 5000 })).toBeNull();
  });
  it('marks started seconds and clips outside the lesson', () => {
    const bits = emptyCoverage(9.5);
    expect(bits).toBe('0000000000');
    expect(markPlayed(bits, 2.2, 4.1)).toBe('0011100000');
    expect(markPlayed(bits, -5, 2)).toBe('1100000000');
    expect(markPlayed(bits, 8, 999)).toBe('0000000011');
    expect(markPlayed(bits, 5, 5)).toBe(bits);
  });
  it('does not count the same second twice', () => {
    let bits = emptyCoverage(10);
    bits = markPlayed(bits, 0, 3);
    bits = markPlayed(bits, 0, 3);
    expect(playedSeconds(bits)).toBe(3);
  });
  it('completes at 90% played, not before', () => {
    const d = 10;
    expect(playedEnough(markPlayed(emptyCoverage(d), 0, 8), d)).toBe(false);
    expect(playedEnough(markPlayed(emptyCoverage(d), 0, 9), d)).toBe(true);
    // Seeking to the end plays only the last seconds.
    expect(playedEnough(markPlayed(emptyCoverage(d), 9, 10), d)).toBe(false);
  });
  it('handles short videos whose last second is partial', () => {
    const d = 8.01;
    const bits = markPlayed(emptyCoverage(d), 0, 8.01);
    expect(bits.length).toBe(9);
    expect(playedEnough(bits, d)).toBe(true);
  });
  it('starts over when the stored coverage does not fit the lesson', () => {
    expect(normalizeCoverage('111', 10)).toBe('0000000000');
    expect(normalizeCoverage('11x1', 4)).toBe('0000');
    expect(normalizeCoverage(null, 2)).toBe('00');
    expect(normalizeCoverage('1010', 4)).toBe('1010');
  });
  it('clamps positions into the lesson', () => {
    expect(clampPosition(-3, 10)).toBe(0);
    expect(clampPosition(1e9, 10)).toBe(10);
    expect(clampPosition(Number.NaN, 10)).toBe(0);
    expect(clampPosition(4.25, 10)).toBe(4.25);
  });
});

describe('progressEventSchema', () => {
  const ok = { Identificador: 5, IdEntidad: 3, IdContacto: 7, Avance: 12.5, Activo: true, CreadoPor: 2 };
  it('accepts the progress-event fields', () => {
    expect(progressEventSchema.parse(ok)).toEqual(ok);
    expect(progressEventSchema.parse({ Identificador: 5, Avance: 0 })).toEqual({ Identificador: 5, Avance: 0 });
  });
  it.each([
    ['negative Avance', { ...ok, Avance: -1 }],
    ['huge Avance', { ...ok, Avance: 1e12 }],
    ['text Avance', { ...ok, Avance: '12' }],
    ['infinite Avance', { ...ok, Avance: Number.POSITIVE_INFINITY }],
    ['missing lesson', { Avance: 3 }],
    ['fractional lesson id', { ...ok, Identificador: 1.5 }],
    ['other entity', { ...ok, IdEntidad: 4 }],
    ['not an object', 'tracking'],
  ])('refuses %s', (_, value) => {
    expect(progressEventSchema.safeParse(value).success).toBe(false);
  });
});

describe('withTrackingPosition (local-storage tracking list)', () => {
  const entry = { courseId: 3, topicName: 'M', subtopicName: 'L', id: 9, sonPosition: 1, fatherPosition: 0, fatherIsPlayingVal: true };
  it('replaces the course’s entry and keeps the others', () => {
    const other = { ...entry, courseId: 4 };
    expect(withTrackingPosition([{ ...entry, id: 1 }, other], entry)).toEqual([other, entry]);
  });
  it('starts a new list from anything that is not one, dropping invalid entries', () => {
    expect(withTrackingPosition('junk', entry)).toEqual([entry]);
    expect(withTrackingPosition([{ courseId: 'x' }, null], entry)).toEqual([entry]);
  });
});
