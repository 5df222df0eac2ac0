/**
 * Temporary folders for the tests of the calling file (or `describe`): each call of the returned function
 * makes one (named by its prefix, in the system's temporary folder); all are removed after the last test.
 * Call it where `afterAll` may be called: at the top of a file, in a `describe`, or in a helper they call.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

export function useTempFolders(): (prefix: string) => string {
  const made: string[] = [];
  afterAll(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return (prefix) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    made.push(dir);
    return dir;
  };
}
