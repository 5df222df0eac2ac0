// @vitest-environment happy-dom
import { act, cleanup, renderHook } from '@testing-library/react';
import type { KeyboardEvent, PointerEvent } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CROP_MIN_SIZE } from '~/lib/identity/photo';
import { useCropFrame } from './useCropFrame';

afterEach(cleanup);

const key = (k: string, shiftKey = false) => ({ key: k, shiftKey, preventDefault: vi.fn() }) as unknown as KeyboardEvent<HTMLElement> & { preventDefault: ReturnType<typeof vi.fn> };
const pointer = (clientX: number, clientY: number, pointerId = 1) =>
  ({ clientX, clientY, pointerId, pointerType: 'mouse', button: 0, preventDefault: vi.fn(), stopPropagation: vi.fn(), currentTarget: { setPointerCapture: vi.fn() } }) as unknown as PointerEvent<HTMLElement>;

function framed() {
  const hook = renderHook(() => useCropFrame());
  act(() => hook.result.current.reset({ width: 900, height: 600 }));
  return hook;
}

describe('useCropFrame', () => {
  it('has no frame without a picture, and starts with the largest square in the centre of one', () => {
    const hook = renderHook(() => useCropFrame());
    expect(hook.result.current.crop).toBeNull();
    act(() => hook.result.current.reset({ width: 900, height: 600 }));
    expect(hook.result.current.crop).toEqual({ x: 150, y: 0, size: 600 });
    act(() => hook.result.current.reset(null));
    expect(hook.result.current.crop).toBeNull();
  });

  it('moves with the arrow keys and resizes with + and -, inside the picture; other keys pass', () => {
    const { result } = framed();
    act(() => result.current.onKeyDown(key('ArrowLeft')));
    expect(result.current.crop).toEqual({ x: 120, y: 0, size: 600 });
    act(() => result.current.onKeyDown(key('ArrowUp')));
    expect(result.current.crop).toEqual({ x: 120, y: 0, size: 600 });
    act(() => result.current.onKeyDown(key('-')));
    expect(result.current.crop).toEqual({ x: 135, y: 15, size: 570 });
    act(() => result.current.onKeyDown(key('ArrowRight', true)));
    expect(result.current.crop).toEqual({ x: 285, y: 15, size: 570 });
    act(() => result.current.onKeyDown(key('+')));
    expect(result.current.crop).toEqual({ x: 270, y: 0, size: 600 });
    const tab = key('Tab');
    act(() => result.current.onKeyDown(tab));
    expect(tab.preventDefault).not.toHaveBeenCalled();
    for (let i = 0; i < 40; i++) act(() => result.current.onKeyDown(key('-')));
    expect(result.current.crop!.size).toBe(CROP_MIN_SIZE);
  });

  it('follows a dragged frame and a dragged corner, in picture pixels, and stops when the pointer is let go', () => {
    const { result } = framed();
    // Shown at half size: a screen pixel is two of the picture's.
    act(() => result.current.onPointerDown(pointer(100, 100), 'move', 2));
    act(() => result.current.onPointerMove(pointer(80, 130)));
    expect(result.current.crop).toEqual({ x: 110, y: 0, size: 600 });
    act(() => result.current.onPointerUp(pointer(80, 130)));
    act(() => result.current.onPointerMove(pointer(0, 0)));
    expect(result.current.crop).toEqual({ x: 110, y: 0, size: 600 });
    act(() => result.current.onPointerDown(pointer(300, 300), 'resize', 2));
    act(() => result.current.onPointerMove(pointer(200, 250)));
    expect(result.current.crop).toEqual({ x: 110, y: 0, size: 500 });
    // Another pointer does not move it.
    act(() => result.current.onPointerMove(pointer(0, 0, 2)));
    expect(result.current.crop).toEqual({ x: 110, y: 0, size: 500 });
  });
});
