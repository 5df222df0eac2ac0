import { describe, expect, it } from 'vitest';
import { announcement, arrangement, reorder, type SorterLabels, type SorterModule } from './sorter-model';

const outline: SorterModule[] = [
  { key: 'm1', name: 'Start', lessons: [{ key: 'l1', name: 'Hello' }, { key: 'l2', name: 'Payments' }] },
  { key: 'm2', name: 'Closing', lessons: [{ key: 'l3', name: 'End' }] },
];
const labels = { picked: 'Picked up {name}.', over: '{name} is now at position {n} of {total}.', dropped: 'Dropped {name} at position {n} of {total}.', cancelled: '{name} is back.' } as SorterLabels;

describe('the drag-and-drop outline', () => {
  it('moves modules, and lessons inside their module', () => {
    expect(arrangement(reorder(outline, 'm2', 'm1'))).toEqual([{ module: 'm2', lessons: ['l3'] }, { module: 'm1', lessons: ['l1', 'l2'] }]);
    expect(arrangement(reorder(outline, 'l2', 'l1'))).toEqual([{ module: 'm1', lessons: ['l2', 'l1'] }, { module: 'm2', lessons: ['l3'] }]);
    // A lesson dropped on another module's lesson stays where it was (moving between modules has its own form).
    expect(arrangement(reorder(outline, 'l1', 'l3'))).toEqual(arrangement(outline));
  });

  it('says what happens in words', () => {
    expect(announcement(labels, outline, 'picked', 'l2')).toBe('Picked up Payments.');
    expect(announcement(labels, outline, 'over', 'l2', 'l1')).toBe('Payments is now at position 1 of 2.');
    expect(announcement(labels, outline, 'dropped', 'm1', 'm2')).toBe('Dropped Start at position 2 of 2.');
    expect(announcement(labels, outline, 'cancelled', 'm9')).toBe('');
  });
});
