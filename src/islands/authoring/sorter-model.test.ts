import { describe, expect, it } from 'vitest';
import { announcement, arrangement, listTarget, reorder, type SorterLabels, type SorterModule } from './sorter-model';

const outline: SorterModule[] = [
  { key: 'm1', name: 'Start', lessons: [{ key: 'l1', name: 'Hello' }, { key: 'l2', name: 'Payments' }] },
  { key: 'm2', name: 'Closing', lessons: [{ key: 'l3', name: 'End' }] },
];
const labels = {
  module: 'Module {n}',
  picked: 'Picked up {name}.',
  over: '{name} is now at position {n} of {total}.',
  overModule: '{name} would go to {module}, at position {n} of {total}.',
  dropped: 'Dropped {name} at position {n} of {total}.',
  droppedModule: 'Dropped {name} in {module}, at position {n} of {total}.',
  cancelled: '{name} is back.',
} as SorterLabels;

describe('the drag-and-drop outline', () => {
  it('moves modules, and lessons inside their module', () => {
    expect(arrangement(reorder(outline, 'm2', 'm1'))).toEqual([{ module: 'm2', lessons: ['l3'] }, { module: 'm1', lessons: ['l1', 'l2'] }]);
    expect(arrangement(reorder(outline, 'l2', 'l1'))).toEqual([{ module: 'm1', lessons: ['l2', 'l1'] }, { module: 'm2', lessons: ['l3'] }]);
  });

  it("moves a lesson into another module, onto a lesson's place or the end of its list", () => {
    expect(arrangement(reorder(outline, 'l1', 'l3'))).toEqual([{ module: 'm1', lessons: ['l2'] }, { module: 'm2', lessons: ['l1', 'l3'] }]);
    expect(arrangement(reorder(outline, 'l3', listTarget('m1')))).toEqual([{ module: 'm1', lessons: ['l1', 'l2', 'l3'] }, { module: 'm2', lessons: [] }]);
    // Into a module left empty, and back.
    const emptied = reorder(outline, 'l3', listTarget('m1'));
    expect(arrangement(reorder(emptied, 'l2', listTarget('m2')))).toEqual([{ module: 'm1', lessons: ['l1', 'l3'] }, { module: 'm2', lessons: ['l2'] }]);
    // Its own list's end, a module, or an unknown place: nothing moves.
    expect(arrangement(reorder(outline, 'l1', listTarget('m1')))).toEqual(arrangement(outline));
    expect(arrangement(reorder(outline, 'l1', 'm2'))).toEqual(arrangement(outline));
    expect(arrangement(reorder(outline, 'l1', listTarget('m9')))).toEqual(arrangement(outline));
  });

  it('says what happens in words', () => {
    expect(announcement(labels, outline, 'picked', 'l2')).toBe('Picked up Payments.');
    expect(announcement(labels, outline, 'over', 'l2', 'l1')).toBe('Payments is now at position 1 of 2.');
    expect(announcement(labels, outline, 'dropped', 'm1', 'm2')).toBe('Dropped Start at position 2 of 2.');
    expect(announcement(labels, outline, 'cancelled', 'm9')).toBe('');
    // A lesson over another module says which module, and where it would land there.
    expect(announcement(labels, outline, 'over', 'l1', 'l3')).toBe('Hello would go to Module 2: Closing, at position 1 of 2.');
    expect(announcement(labels, outline, 'dropped', 'l3', listTarget('m1'))).toBe('Dropped End in Module 1: Start, at position 3 of 3.');
  });
});
