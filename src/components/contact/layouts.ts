/**
 * The contact pages are one page in three layouts (design rule 5: variants are data). Each entry
 * says where the same form and the same company details go; `ContactPage.astro` draws them.
 */
import { z } from '~/lib/zod';
import { paths } from '~/lib/paths';

/** How one contact page arranges the form and the company details. */
export interface ContactLayout {
  /** The page's address (without the language prefix). */
  path: string;
  /** A map-like picture of the office, with its address, under the title banner. */
  map: boolean;
  /**
   * `beside`: the form with the company details in a column beside it;
   * `stacked`: the company details as a row of cards, the form under them;
   * `card`: one compact card holding the details strip and the form.
   */
  arrangement: 'beside' | 'stacked' | 'card';
}

export const contactLayouts = {
  classic: { path: paths.contactUs, map: false, arrangement: 'beside' },
  map: { path: paths.contactVariant(1), map: true, arrangement: 'stacked' },
  card: { path: paths.contactVariant(2), map: false, arrangement: 'card' },
} as const satisfies Record<string, ContactLayout>;

/** The name of a contact layout, checked wherever one comes in. */
export const contactLayoutKey = z.enum(['classic', 'map', 'card']);
export type ContactLayoutKey = z.infer<typeof contactLayoutKey>;
