// @vitest-environment happy-dom
import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RATE_KEY, usePlaybackRate } from './usePlaybackRate';

beforeEach(() => sessionStorage.clear());
afterEach(cleanup);

describe('usePlaybackRate', () => {
  it('plays at normal speed when nothing was chosen', () => {
    const { result } = renderHook(() => usePlaybackRate());
    expect(result.current[0]).toBe(1);
  });

  it('takes the speed chosen earlier in the tab once mounted', () => {
    sessionStorage.setItem(RATE_KEY, '1.5');
    const { result } = renderHook(() => usePlaybackRate());
    expect(result.current[0]).toBe(1.5);
  });

  it('reads a stored speed the player does not offer as normal speed', () => {
    sessionStorage.setItem(RATE_KEY, '16');
    const { result } = renderHook(() => usePlaybackRate());
    expect(result.current[0]).toBe(1);
  });

  it('keeps a choice for the next lesson page of the tab, and refuses speeds it does not offer', () => {
    const first = renderHook(() => usePlaybackRate());
    act(() => first.result.current[1]('2'));
    expect(first.result.current[0]).toBe(2);
    expect(sessionStorage.getItem(RATE_KEY)).toBe('2');
    first.unmount();
    const next = renderHook(() => usePlaybackRate());
    expect(next.result.current[0]).toBe(2);
    act(() => next.result.current[1]('3'));
    expect(next.result.current[0]).toBe(1);
  });
});
