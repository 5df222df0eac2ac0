// @vitest-environment happy-dom
import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useExamClock } from './useExamClock';

beforeEach(() => vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'performance', 'Date'] }));
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const MIN = 60_000;

describe('useExamClock', () => {
  it('counts down from the server’s figure as time passes', () => {
    const { result } = renderHook(() => useExamClock(10 * MIN, () => undefined));
    expect(result.current.left).toBe(10 * MIN);
    act(() => vi.advanceTimersByTime(90_000));
    expect(result.current.left).toBe(10 * MIN - 90_000);
  });

  it('goes by the monotonic clock: a device clock set back or forward changes nothing', () => {
    const { result } = renderHook(() => useExamClock(10 * MIN, () => undefined));
    vi.setSystemTime(Date.now() + 3_600_000);
    act(() => vi.advanceTimersByTime(2000));
    expect(result.current.left).toBe(10 * MIN - 2000);
  });

  it('announces 5 and then 1 minute left, each once', () => {
    const { result } = renderHook(() => useExamClock(5 * MIN + 3000, () => undefined));
    expect(result.current.announced).toBeNull();
    act(() => vi.advanceTimersByTime(4000));
    expect(result.current.announced).toBe(5);
    act(() => vi.advanceTimersByTime(3 * MIN + 30_000));
    expect(result.current.announced).toBe(5);
    act(() => vi.advanceTimersByTime(31_000));
    expect(result.current.announced).toBe(1);
  });

  it('opened with 3 minutes left, it says nothing about 5 minutes', () => {
    const { result } = renderHook(() => useExamClock(3 * MIN, () => undefined));
    act(() => vi.advanceTimersByTime(MIN + 30_000));
    expect(result.current.announced).toBeNull();
  });

  it('reaches the deadline once: stops at zero and calls for the submission a single time', () => {
    const onExpire = vi.fn();
    const { result } = renderHook(() => useExamClock(2500, onExpire));
    act(() => vi.advanceTimersByTime(2000));
    expect(onExpire).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1000));
    expect(result.current.left).toBe(0);
    expect(onExpire).toHaveBeenCalledTimes(1);
    act(() => vi.advanceTimersByTime(10_000));
    expect(onExpire).toHaveBeenCalledTimes(1);
  });

  it('a page made after the deadline submits at once', () => {
    const onExpire = vi.fn();
    renderHook(() => useExamClock(0, onExpire));
    expect(onExpire).toHaveBeenCalledTimes(1);
  });
});
