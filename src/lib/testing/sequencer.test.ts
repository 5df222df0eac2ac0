import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ownEnvironment, SLOW_FILES, slowFirst } from '../../../vitest.sequencer';

describe('the order test files start in', () => {
  it('starts the slowest first, then the rest in the order given, and the files of another environment last', () => {
    const dom = new Set(['/r/src/islands/player/usePlayerProgress.test.ts', '/r/src/islands/exam/useExamClock.test.ts']);
    const files = ['/r/src/islands/player/usePlayerProgress.test.ts', '/r/src/lib/a.test.ts', `/r/${SLOW_FILES[1]}`, '/r/src/islands/exam/useExamClock.test.ts', '/r/src/lib/b.test.ts', `/r/${SLOW_FILES[0]}`].map((moduleId) => ({ moduleId }));
    const order = slowFirst(files, (file) => (dom.has(file) ? 'happy-dom' : null)).map((f) => f.moduleId);
    expect(order).toEqual([`/r/${SLOW_FILES[0]}`, `/r/${SLOW_FILES[1]}`, '/r/src/lib/a.test.ts', '/r/src/lib/b.test.ts', '/r/src/islands/player/usePlayerProgress.test.ts', '/r/src/islands/exam/useExamClock.test.ts']);
  });

  it('reads the environment a file asks for from its first lines', () => {
    expect(ownEnvironment(resolve('src/islands/player/usePlayerProgress.test.ts'))).toBe('happy-dom');
    expect(ownEnvironment(resolve('src/lib/commerce/money.test.ts'))).toBeNull();
  });
});
