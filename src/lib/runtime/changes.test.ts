import { describe, expect, it } from 'vitest';
import { catalogChange, distinctChanges, pagesChange, personChange, sessionChange, tellChanges, type Listeners } from './changes';

function recorder() {
  const told: string[] = [];
  const listeners: Listeners = {
    personChanged: async (ref) => void told.push(`person ${JSON.stringify(ref)}`),
    pagesChanged: (id) => void told.push(`pages ${id}`),
    sessionChanged: async (ref) => void told.push(`session ${JSON.stringify(ref)}`),
    catalogChanged: async () => void told.push('catalog'),
  };
  return { told, listeners };
}

describe('changes', () => {
  it('tells each kind of change to its listener, sessions first', async () => {
    const { told, listeners } = recorder();
    await tellChanges(listeners, [personChange({ userId: 1, contactId: 2 }), pagesChange(3), sessionChange({ tokenHash: 'h' })]);
    expect(told).toEqual(['session {"tokenHash":"h"}', 'person {"userId":1,"contactId":2}', 'pages 3']);
  });

  it('tells a catalogue change once, after sessions and before people', async () => {
    const { told, listeners } = recorder();
    await tellChanges(listeners, [personChange({ contactId: 4 }), catalogChange(), sessionChange({ userId: 1 }), catalogChange()]);
    expect(told).toEqual(['session {"userId":1}', 'catalog', 'person {"contactId":4}']);
  });

  it('tells nothing for no change', async () => {
    const { told, listeners } = recorder();
    await tellChanges(listeners, []);
    expect(told).toEqual([]);
  });

  it('drops repeats, and the pages of a contact whose person change is told anyway', () => {
    expect(distinctChanges([pagesChange(2), personChange({ contactId: 2 }), personChange({ contactId: 2 }), pagesChange(5)])).toEqual([personChange({ contactId: 2 }), pagesChange(5)]);
  });
});
