/**
 * The crop frame over a chosen photo: a square in the picture's own pixels that starts as the largest
 * one in the centre and moves and resizes by pointer (drag the frame; drag its corner handle) or by
 * keyboard (arrow keys move it, + and - resize it around its centre), never leaving the picture. The
 * rules are `photo.ts`'s; this only keeps the state and reads the events.
 */
import { useCallback, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { centreCrop, cropStep, growCropFromCorner, moveCrop, resizeCrop, type PhotoCrop } from '~/lib/identity/photo';

/** A picture's size in pixels, as shown upright. */
export interface PictureSize {
  width: number;
  height: number;
}

type Drag = { mode: 'move' | 'resize'; pointerId: number; startX: number; startY: number; start: PhotoCrop; scale: number };

export interface CropFrame {
  crop: PhotoCrop | null;
  /** A new picture: the frame starts over in its centre (null: no picture). */
  reset: (picture: PictureSize | null) => void;
  onKeyDown: (event: KeyboardEvent<HTMLElement>) => void;
  /** A pointer pressed on the frame (`move`) or its handle (`resize`); `scale` is picture pixels per screen pixel. */
  onPointerDown: (event: PointerEvent<HTMLElement>, mode: 'move' | 'resize', scale: number) => void;
  onPointerMove: (event: PointerEvent<HTMLElement>) => void;
  onPointerUp: (event: PointerEvent<HTMLElement>) => void;
}

const MOVES: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
const GROW = new Set(['+', '=', 'Add']);
const SHRINK = new Set(['-', '_', 'Subtract', '−']);

export function useCropFrame(): CropFrame {
  const [picture, setPicture] = useState<PictureSize | null>(null);
  const [crop, setCrop] = useState<PhotoCrop | null>(null);
  const drag = useRef<Drag | null>(null);

  const reset = useCallback((next: PictureSize | null) => {
    drag.current = null;
    setPicture(next);
    setCrop(next ? centreCrop(next.width, next.height) : null);
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (!picture || !crop) return;
    const { width, height } = picture;
    // Shift moves five steps at a time.
    const step = cropStep(width, height) * (event.shiftKey ? 5 : 1);
    const move = MOVES[event.key];
    let next: PhotoCrop | null = null;
    if (move) next = moveCrop(crop, move[0] * step, move[1] * step, width, height);
    else if (GROW.has(event.key)) next = resizeCrop(crop, step, width, height);
    else if (SHRINK.has(event.key)) next = resizeCrop(crop, -step, width, height);
    if (!next) return;
    event.preventDefault();
    setCrop(next);
  };

  const onPointerDown = (event: PointerEvent<HTMLElement>, mode: 'move' | 'resize', scale: number) => {
    if (!crop || (event.pointerType === 'mouse' && event.button !== 0)) return;
    event.preventDefault();
    event.stopPropagation();
    event.currentTarget.setPointerCapture?.(event.pointerId);
    drag.current = { mode, pointerId: event.pointerId, startX: event.clientX, startY: event.clientY, start: crop, scale };
  };

  const onPointerMove = (event: PointerEvent<HTMLElement>) => {
    const d = drag.current;
    if (!d || !picture || d.pointerId !== event.pointerId) return;
    const dx = (event.clientX - d.startX) * d.scale;
    const dy = (event.clientY - d.startY) * d.scale;
    const { width, height } = picture;
    setCrop(d.mode === 'move' ? moveCrop(d.start, dx, dy, width, height) : growCropFromCorner(d.start, Math.max(dx, dy), width, height));
  };

  const onPointerUp = (event: PointerEvent<HTMLElement>) => {
    if (drag.current?.pointerId === event.pointerId) drag.current = null;
  };

  return { crop, reset, onKeyDown, onPointerDown, onPointerMove, onPointerUp };
}
