/** Catalogue rules and shapes that need no I/O: localisation of rows, grouping for the home page. */
import type { Locale } from '~/i18n';

/** Category ids the specification gives meaning to. */
export const CATEGORY = { introductory: 2, basic: 3, intermediate: 4, trainings: 5 } as const;

/** A bilingual row's text in one language (`pick(row, 'name', 'en')` reads `row.nameEn`). */
export function pick<K extends string>(row: Record<`${K}Es` | `${K}En`, string>, key: K, locale: Locale): string {
  return locale === 'en' ? row[`${key}En`] : row[`${key}Es`];
}

/** A menu entry (category or business line). */
export interface MenuItem {
  id: number;
  name: string;
}

/** What a course card shows. */
export interface CourseCardData {
  id: number;
  name: string;
  categoryId: number;
  categoryName: string;
  thumbnail: string;
  free: boolean;
  price: number;
}

/** True when a course costs money (spec: value above 0). */
export function isPaid(price: number | string): boolean {
  return Number(price) > 0;
}

/** The home page's lists (spec: introductory; basic and intermediate; paid; trainings). */
export interface HomeSections {
  introductory: CourseCardData[];
  basicAndIntermediate: CourseCardData[];
  paid: CourseCardData[];
  trainings: CourseCardData[];
}

/** Splits visible courses into the home page's lists; a paid course appears in the paid list only. */
export function homeSections(cards: CourseCardData[]): HomeSections {
  const free = cards.filter((c) => !isPaid(c.price));
  return {
    introductory: free.filter((c) => c.categoryId === CATEGORY.introductory),
    basicAndIntermediate: free.filter((c) => c.categoryId === CATEGORY.basic || c.categoryId === CATEGORY.intermediate),
    paid: cards.filter((c) => isPaid(c.price)),
    trainings: free.filter((c) => c.categoryId === CATEGORY.trainings),
  };
}

/** A price as the cart shows it: two decimals, USD (spec). */
export function formatPrice(amount: number, locale: Locale): string {
  return new Intl.NumberFormat(locale === 'en' ? 'en-US' : 'es-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2 }).format(amount);
}
