// @vitest-environment happy-dom
import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TICK_MS, usePlaybackTick } from './usePlaybackTick';

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('usePlaybackTick', () => {
  it('reports every 5 s while started and not after it stops', () => {
    const onTick = vi.fn();
    const { result } = renderHook(() => usePlaybackTick(onTick));
    vi.advanceTimersByTime(TICK_MS * 3);
    expect(onTick).not.toHaveBeenCalled();
    act(() => result.current.start());
    vi.advanceTimersByTime(TICK_MS - 1);
    expect(onTick).toHaveBeenCalledTimes(0);
    vi.advanceTimersByTime(1);
    expect(onTick).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(TICK_MS * 2);
    expect(onTick).toHaveBeenCalledTimes(3);
    act(() => result.current.stop());
    vi.advanceTimersByTime(TICK_MS * 4);
    expect(onTick).toHaveBeenCalledTimes(3);
  });

  it('starting again restarts the count instead of adding a second heartbeat', () => {
    const onTick = vi.fn();
    const { result } = renderHook(() => usePlaybackTick(onTick));
    act(() => result.current.start());
    vi.advanceTimersByTime(TICK_MS - 1000);
    act(() => result.current.start());
    vi.advanceTimersByTime(TICK_MS - 1);
    expect(onTick).toHaveBeenCalledTimes(0);
    vi.advanceTimersByTime(1);
    vi.advanceTimersByTime(TICK_MS);
    expect(onTick).toHaveBeenCalledTimes(2);
  });

  it('calls the latest callback (the lesson on screen), and stops when the player goes away', () => {
    const seen: string[] = [];
    const { result, rerender, unmount } = renderHook(({ lesson }) => usePlaybackTick(() => seen.push(lesson)), { initialProps: { lesson: 'a' } });
    act(() => result.current.start());
    vi.advanceTimersByTime(TICK_MS);
    rerender({ lesson: 'b' });
    vi.advanceTimersByTime(TICK_MS);
    unmount();
    vi.advanceTimersByTime(TICK_MS * 3);
    expect(seen).toEqual(['a', 'b']);
  });
});
