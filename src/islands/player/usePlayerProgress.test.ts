// @vitest-environment happy-dom
import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { playerView, type PlayerView } from '~/lib/learning/player';
import { usePlayerProgress } from './usePlayerProgress';

const lesson = (id: number) => ({ id, nameEs: `Lección ${id}`, nameEn: `Lesson ${id}`, summaryEs: '', summaryEn: '', durationSeconds: 60 });
function view(): PlayerView {
  const r = playerView({
    course: { id: 7, nameEs: 'Curso', nameEn: 'Course', modules: [{ id: 1, nameEs: 'M', nameEn: 'M', lessons: [lesson(11), lesson(12), lesson(13), lesson(14)] }] },
    target: { kind: 'course' },
    progress: [{ lessonId: 11, lastPosition: 60, furthestPosition: 60, completed: true, updatedAt: 1 }, { lessonId: 12, lastPosition: 20, furthestPosition: 20, completed: false, updatedAt: 2 }],
    resources: new Map(),
    examPassed: false,
    locale: 'en',
  });
  if (r.status !== 'ok') throw new Error(r.status);
  return r.view;
}

afterEach(cleanup);

describe('usePlayerProgress', () => {
  it('starts from what the page rendered: completed lessons and resume positions', () => {
    const { result } = renderHook(() => usePlayerProgress(view()));
    expect([...result.current.completed]).toEqual([11]);
    expect(result.current.resumeAt[12]).toBe(20);
    expect(result.current.progress).toMatchObject({ completed: 1, total: 4, percent: 25 });
  });

  it('moves the resume position with every stored report and ticks a lesson once the server says it is completed', () => {
    const v = view();
    const { result } = renderHook(() => usePlayerProgress(v));
    act(() => result.current.record(12, 35, false));
    expect(result.current.resumeAt[12]).toBe(35);
    expect(result.current.completed.has(12)).toBe(false);
    act(() => result.current.record(12, 58, true));
    expect(result.current.completed.has(12)).toBe(true);
    expect(result.current.progress.percent).toBe(50);
  });

  it('keeps a completed lesson completed when a later report says otherwise (watching it again)', () => {
    const v = view();
    const { result } = renderHook(() => usePlayerProgress(v));
    const before = result.current.completed;
    act(() => result.current.record(11, 3, false));
    expect(result.current.resumeAt[11]).toBe(3);
    expect(result.current.completed.has(11)).toBe(true);
    act(() => result.current.record(11, 60, true));
    // Nothing new: the same set, so nothing re-renders for it.
    expect(result.current.completed).toBe(before);
  });
});
