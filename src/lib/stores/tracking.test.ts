import { beforeEach, describe, expect, it } from 'vitest';
import { $tracking, decodeTracking, rememberPosition } from './tracking';

const entry = (courseId: number, id: number, playing = false) => ({
  courseId,
  topicName: 'Módulo',
  subtopicName: 'Lección',
  id,
  sonPosition: 0,
  fatherPosition: 1,
  fatherIsPlayingVal: playing,
});

describe('the stored tracking list (browser storage key `tracking`)', () => {
  beforeEach(() => $tracking.set([]));

  it('keeps one entry per course, the latest lesson and whether it plays', () => {
    rememberPosition(entry(1, 10));
    rememberPosition(entry(2, 20));
    rememberPosition(entry(1, 11, true));
    expect($tracking.get()).toEqual([entry(2, 20), entry(1, 11, true)]);
  });

  it('reads anything that is not a list of valid entries as an empty list (it must be a list)', () => {
    expect(decodeTracking('{"courseId":1}')).toEqual([]);
    expect(decodeTracking('not json')).toEqual([]);
    expect(decodeTracking(JSON.stringify([entry(1, 10), { courseId: 'x' }, null]))).toEqual([entry(1, 10)]);
  });
});
