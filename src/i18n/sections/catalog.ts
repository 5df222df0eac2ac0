/** Messages of the catalog section of the site. */
import type { Shape } from '../types';

export const es = {
  catalog: {},
} as const;

export const en: Shape<typeof es> = {
  catalog: {},
};
