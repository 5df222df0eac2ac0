/** Where the project's files are (media, fonts, the build), wherever the code runs from. */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The project folder: the nearest one holding package.json above this module (`src/lib/config/`, or a
 * compiled bundle under `dist/`), else the working directory.
 */
export function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return existsSync(join(dir, 'package.json')) ? dir : process.cwd();
}
