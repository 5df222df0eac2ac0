/** Tracking limits and wire format: the token bucket against floods, and the schemas and helpers of what clients send. */
import { describe, expect, it } from 'vitest';
import { courseIdSchema, newBucket, progressRoom, takeToken, trackingRequestSchema } from './tracking';

describe('token bucket', () => {
  const spec = { ratePerSecond: 8, burst: 20 };
  it('allows a burst, then refuses, then refills with time', () => {
    const b = newBucket(spec, 0);
    let allowed = 0;
    for (let i = 0; i < 50; i++) if (takeToken(b, spec, 0)) allowed++;
    expect(allowed).toBe(20);
    expect(takeToken(b, spec, 100)).toBe(false);
    expect(takeToken(b, spec, 125)).toBe(true);
    // A full second refills 8 tokens, never more than the burst.
    let later = 0;
    for (let i = 0; i < 50; i++) if (takeToken(b, spec, 1125)) later++;
    expect(later).toBe(8);
    for (let i = 0; i < 50; i++) takeToken(b, spec, 100_000);
    expect(b.tokens).toBeLessThan(1);
  });

  it('a steady event every 5 s is never refused', () => {
    const b = newBucket(spec, 0);
    for (let t = 0; t < 600_000; t += 5000) expect(takeToken(b, spec, t)).toBe(true);
  });
});

describe('wire helpers', () => {
  it('accepts a course id as a positive integer or its digits only', () => {
    expect(courseIdSchema.parse(31)).toBe(31);
    expect(courseIdSchema.parse('31')).toBe(31);
    for (const bad of [0, -1, 1.5, '1e3', '', 'abc', null, undefined, {}, 2 ** 40, Number.NaN]) expect(courseIdSchema.safeParse(bad).success).toBe(false);
  });

  it('checks the HTTP fallback body shape', () => {
    expect(trackingRequestSchema.safeParse({ event: 'tracking', courseId: 1, payload: {} }).success).toBe(true);
    expect(trackingRequestSchema.safeParse({ event: 'tracking pause', courseId: 1, payload: {} }).success).toBe(false);
    expect(trackingRequestSchema.safeParse({ event: 'tracking', courseId: 'x', payload: {} }).success).toBe(false);
  });

  it('names one room per person and course', () => {
    expect(progressRoom(42, 31)).toBe('progress:42:31');
    expect(progressRoom(42, 32)).not.toBe(progressRoom(42, 31));
    expect(progressRoom(4, 231)).not.toBe(progressRoom(42, 31));
  });
});
