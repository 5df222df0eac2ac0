/** Messages of the ibo part of the site. */
import type { Shape } from '../types';

export const es = {
  ibo: {},
} as const;

export const en: Shape<typeof es> = {
  ibo: {},
};
