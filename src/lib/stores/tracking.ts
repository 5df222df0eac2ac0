/**
 * The stored tracking positions (local-storage key `tracking`): one entry per course, the lesson
 * last opened there and whether it was playing. The server's progress is the authority; this list is
 * the browser-side record, kept a list whatever was stored before.
 */
import { persistentAtom } from '@nanostores/persistent';
import { trackingPositionSchema, withTrackingPosition, type TrackingPosition } from '../learning/learning';
import { STORAGE_KEYS } from './keys';

/** Reads the stored value: only a JSON list of valid entries survives (anything else reads as an empty list). */
export function decodeTracking(raw: string): TrackingPosition[] {
  try {
    const value: unknown = JSON.parse(raw);
    return Array.isArray(value) ? value.filter((x): x is TrackingPosition => trackingPositionSchema.safeParse(x).success) : [];
  } catch {
    return [];
  }
}

/** Every course's stored position. */
export const $tracking = persistentAtom<TrackingPosition[]>(STORAGE_KEYS.tracking, [], { encode: JSON.stringify, decode: decodeTracking });

/** Records where a course is (a lesson change, play or pause), replacing that course's entry. */
export function rememberPosition(entry: TrackingPosition): void {
  $tracking.set(withTrackingPosition($tracking.get(), entry));
}
