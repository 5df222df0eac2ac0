// @vitest-environment happy-dom
import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useConnectivity } from './useConnectivity';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('useConnectivity', () => {
  it('starts from what the browser says once mounted', () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const { result } = renderHook(() => useConnectivity());
    expect(result.current).toBe(false);
  });

  it('follows the network going and coming back, calling the latest handlers', () => {
    const calls: string[] = [];
    const { result, rerender } = renderHook(({ tag }) => useConnectivity({ onOnline: () => calls.push(`${tag} online`), onOffline: () => calls.push(`${tag} offline`) }), {
      initialProps: { tag: 'first' },
    });
    expect(result.current).toBe(true);
    act(() => void window.dispatchEvent(new Event('offline')));
    expect(result.current).toBe(false);
    rerender({ tag: 'second' });
    act(() => void window.dispatchEvent(new Event('online')));
    expect(result.current).toBe(true);
    expect(calls).toEqual(['first offline', 'second online']);
  });

  it('stops listening when unmounted', () => {
    const onOffline = vi.fn();
    const { unmount } = renderHook(() => useConnectivity({ onOffline }));
    unmount();
    window.dispatchEvent(new Event('offline'));
    expect(onOffline).not.toHaveBeenCalled();
  });
});
