import { existsSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { useTempFolders } from './temp-folders';

const kept: string[] = [];

describe('temporary folders of a describe', () => {
  const tempFolder = useTempFolders();

  it('makes a new folder for each call, named by its prefix', () => {
    const a = tempFolder('academy-temp-test-');
    const b = tempFolder('academy-temp-test-');
    kept.push(a, b);
    expect(a).not.toBe(b);
    expect(a).toMatch(/academy-temp-test-[^/]+$/);
    expect([existsSync(a), existsSync(b)]).toEqual([true, true]);
  });
});

afterAll(() => {
  // The describe's own afterAll has run: its folders are gone.
  expect(kept).toHaveLength(2);
  expect(kept.map((dir) => existsSync(dir))).toEqual([false, false]);
});
