/**
 * Home page variants as data (design rule 5): `/`, `/index-2` and `/index-3` are the same sections
 * in a different order with a different hero, never copies of a page.
 */

/** A block of the home page. */
export type HomeBlock = 'intro' | 'basic' | 'paid' | 'training' | 'testimonials';

/** One layout of the home page. */
export interface HomeLayout {
  hero: 'slider' | 'compact';
  blocks: readonly HomeBlock[];
  /** Only the main home offers the welcome modal. */
  welcome: boolean;
}

/** Every home layout, by variant key. */
export const HOME_LAYOUTS = {
  home: { hero: 'slider', blocks: ['intro', 'basic', 'paid', 'training', 'testimonials'], welcome: true },
  'index-2': { hero: 'compact', blocks: ['paid', 'intro', 'training', 'basic', 'testimonials'], welcome: false },
  'index-3': { hero: 'compact', blocks: ['training', 'basic', 'intro', 'testimonials', 'paid'], welcome: false },
} as const satisfies Record<string, HomeLayout>;

export type HomeVariant = keyof typeof HOME_LAYOUTS;
