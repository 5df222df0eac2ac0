/** Messages of the contact section of the site. */
import type { Shape } from '../types';

export const es = {
  contact: {},
} as const;

export const en: Shape<typeof es> = {
  contact: {},
};
