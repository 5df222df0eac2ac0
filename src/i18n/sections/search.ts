/** Messages of the search section of the site. */
import type { Shape } from '../types';

export const es = {
  search: {},
} as const;

export const en: Shape<typeof es> = {
  search: {},
};
