/** Messages of the content section of the site. */
import type { Shape } from '../types';

export const es = {
  content: {},
} as const;

export const en: Shape<typeof es> = {
  content: {},
};
