/** Messages of the identity part of the site. */
import type { Shape } from '../types';

export const es = {
  identity: {},
} as const;

export const en: Shape<typeof es> = {
  identity: {},
};
