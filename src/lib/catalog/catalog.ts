/**
 * Catalogue rules and shapes that need no I/O: localisation of rows, what each list and page shows
 * for a viewer (through the access module), the home page's lists and the course filters.
 */
import type { Locale } from '~/i18n';
import type { Book, Business, Category, Course, Plan, Subtopic, Topic } from '../db/schema';
import { courseState, isListed, isPaid, type CourseState, type Viewer } from '../access/access';

export { isPaid };

/** Category ids with a fixed meaning: the home page's lists and the catalogue's rules name them. */
export const CATEGORY = { introductory: 2, basic: 3, intermediate: 4, trainings: 5 } as const;

/** A bilingual row's text in one language (`pick(row, 'name', 'en')` reads `row.nameEn`). */
export function pick<K extends string>(row: Record<`${K}Es` | `${K}En`, string>, key: K, locale: Locale): string {
  return locale === 'en' ? row[`${key}En`] : row[`${key}Es`];
}

/** A price as the cart shows it: two decimals, USD. */
export function formatPrice(amount: number, locale: Locale): string {
  return new Intl.NumberFormat(locale === 'en' ? 'en-US' : 'es-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2 }).format(amount);
}

/** A lesson with the length of its video. */
export type CatalogLesson = Subtopic & { durationSeconds: number };
/** A module with its lessons in order. */
export type CatalogModule = Topic & { lessons: CatalogLesson[] };
/** A course with its outline. */
export type CatalogCourse = Omit<Course, 'price'> & { price: number; modules: CatalogModule[]; lessonCount: number; durationSeconds: number };

/** The whole catalogue, loaded once and shared until a write invalidates it. */
export interface CatalogSnapshot {
  categories: Category[];
  businesses: Business[];
  courses: CatalogCourse[];
  byId: ReadonlyMap<number, CatalogCourse>;
  books: (Omit<Book, 'price'> & { price: number })[];
  plans: (Omit<Plan, 'price'> & { price: number })[];
}

/** A menu entry (category or business line). */
export interface MenuItem {
  id: number;
  name: string;
}

/** The header's category and business menus. */
export function menus(s: CatalogSnapshot, locale: Locale): { categories: MenuItem[]; businesses: MenuItem[] } {
  return {
    categories: s.categories.map((c) => ({ id: c.id, name: pick(c, 'name', locale) })),
    businesses: s.businesses.map((b) => ({ id: b.id, name: pick(b, 'name', locale) })),
  };
}

/** What a course card shows. */
export interface CourseCardData {
  id: number;
  name: string;
  description: string;
  categoryId: number;
  categoryName: string;
  businessId: number;
  thumbnail: string;
  price: number;
  lessonCount: number;
  durationSeconds: number;
  state: CourseState;
}

/** The card of one course for a viewer. */
export function toCard(s: CatalogSnapshot, c: CatalogCourse, viewer: Viewer, locale: Locale): CourseCardData {
  const category = s.categories.find((x) => x.id === c.categoryId);
  return {
    id: c.id,
    name: pick(c, 'name', locale),
    description: pick(c, 'description', locale),
    categoryId: c.categoryId,
    categoryName: category ? pick(category, 'name', locale) : '',
    businessId: c.businessId,
    thumbnail: c.thumbnail,
    price: c.price,
    lessonCount: c.lessonCount,
    durationSeconds: c.durationSeconds,
    state: courseState(c, viewer),
  };
}

/** Filters of the catalogue page; `null` means "all". */
export interface CourseFilter {
  categoryId: number | null;
  businessId: number | null;
}

/** The cards the viewer may see, optionally filtered, in catalogue order. */
export function listCards(s: CatalogSnapshot, viewer: Viewer, locale: Locale, filter: CourseFilter = { categoryId: null, businessId: null }): CourseCardData[] {
  return s.courses
    .filter((c) => isListed(c, viewer))
    .filter((c) => filter.categoryId === null || c.categoryId === filter.categoryId)
    .filter((c) => filter.businessId === null || c.businessId === filter.businessId)
    .sort((a, b) => a.categoryId - b.categoryId || a.id - b.id)
    .map((c) => toCard(s, c, viewer, locale));
}

/** The cards of the courses the viewer bought, in catalogue order (my learning, my shopping). */
export function purchasedCards(s: CatalogSnapshot, viewer: Viewer, locale: Locale): CourseCardData[] {
  return listCards(s, viewer, locale).filter((c) => viewer.purchased.has(c.id));
}

/**
 * Reads `category` and `business` from a query string. Values that are not the id of an existing
 * category or business line are ignored (the page shows everything and says the filter is unknown).
 */
export function parseFilter(s: CatalogSnapshot, params: URLSearchParams): { filter: CourseFilter; unknown: boolean } {
  const read = (name: string, ids: number[]) => {
    const raw = params.get(name);
    if (raw === null || raw === '') return { id: null, bad: false };
    const id = /^\d{1,9}$/.test(raw) ? Number(raw) : NaN;
    return ids.includes(id) ? { id, bad: false } : { id: null, bad: true };
  };
  const cat = read('category', s.categories.map((c) => c.id));
  const biz = read('business', s.businesses.map((b) => b.id));
  return { filter: { categoryId: cat.id, businessId: biz.id }, unknown: cat.bad || biz.bad };
}

/** The names of the active filter's category and business line, in that order (for the catalogue's heading). */
export function filterNames(filter: CourseFilter, categories: readonly MenuItem[], businesses: readonly MenuItem[]): string[] {
  const name = (items: readonly MenuItem[], id: number | null) => (id === null ? undefined : items.find((i) => i.id === id)?.name);
  return [name(categories, filter.categoryId), name(businesses, filter.businessId)].filter((n): n is string => n !== undefined);
}

/** The home page's lists (introductory; basic and intermediate; paid; the first training). */
export interface HomeSections {
  introductory: CourseCardData[];
  basicAndIntermediate: CourseCardData[];
  paid: CourseCardData[];
  firstTraining: CourseCardData | null;
}

/** Splits the viewer's cards into the home page's lists; a paid course appears in the paid list only. */
export function homeSections(cards: CourseCardData[]): HomeSections {
  const free = cards.filter((c) => !isPaid(c.price));
  return {
    introductory: free.filter((c) => c.categoryId === CATEGORY.introductory),
    basicAndIntermediate: free.filter((c) => c.categoryId === CATEGORY.basic || c.categoryId === CATEGORY.intermediate),
    paid: cards.filter((c) => isPaid(c.price)),
    firstTraining: free.find((c) => c.categoryId === CATEGORY.trainings) ?? null,
  };
}

/** A course details page's data, or `null` when the viewer may not know the course exists. */
export interface CourseDetails extends CourseCardData {
  code: string;
  businessName: string;
  prerequisite: { id: number; name: string } | null;
  modules: { id: number; name: string; lessons: { id: number; name: string; summary: string; durationSeconds: number }[] }[];
}

/** The details of a course for a viewer; `null` for unknown, test and unbought buyer-only courses. */
export function courseDetails(s: CatalogSnapshot, id: number, viewer: Viewer, locale: Locale): CourseDetails | null {
  const c = s.byId.get(id);
  if (!c || !isListed(c, viewer)) return null;
  const business = s.businesses.find((b) => b.id === c.businessId);
  const pre = c.prerequisiteCourseId === null ? undefined : s.byId.get(c.prerequisiteCourseId);
  return {
    ...toCard(s, c, viewer, locale),
    code: c.code,
    businessName: business ? pick(business, 'name', locale) : '',
    prerequisite: pre ? { id: pre.id, name: pick(pre, 'name', locale) } : null,
    modules: c.modules.map((m) => ({
      id: m.id,
      name: pick(m, 'name', locale),
      lessons: m.lessons.map((l) => ({ id: l.id, name: pick(l, 'name', locale), summary: pick(l, 'summary', locale), durationSeconds: l.durationSeconds })),
    })),
  };
}

/** Parses a course id from a route parameter: digits only, within integer range; otherwise `null`. */
export function parseCourseId(raw: string | undefined): number | null {
  if (!raw || !/^\d{1,9}$/.test(raw)) return null;
  return Number(raw);
}

/** A duration as "1 h 5 min" / "7 min" / "45 s". */
export function formatDuration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  const h = Math.floor(s / 3600);
  const m = Math.round((s % 3600) / 60);
  return h > 0 ? `${h} h ${m} min` : `${m} min`;
}

/** schema.org `Course` data for a course page (search engines' rich results). */
export function courseJsonLd(c: CourseDetails, url: string, locale: Locale): Record<string, unknown> {
  return {
    '@context': 'https://schema.org',
    '@type': 'Course',
    '@id': url,
    url,
    name: c.name,
    description: c.description,
    courseCode: c.code,
    inLanguage: locale,
    image: c.thumbnail,
    provider: { '@type': 'Organization', name: 'Academia' },
    numberOfCredits: c.lessonCount,
    hasCourseInstance: { '@type': 'CourseInstance', courseMode: 'online', courseWorkload: `PT${Math.max(1, Math.round(c.durationSeconds / 60))}M` },
    offers: { '@type': 'Offer', category: isPaid(c.price) ? 'Paid' : 'Free', price: c.price.toFixed(2), priceCurrency: 'USD' },
    ...(c.prerequisite ? { coursePrerequisites: c.prerequisite.name } : {}),
  };
}

/** A book as the books page shows it. */
export interface BookCard {
  id: number;
  title: string;
  author: string;
  description: string;
  cover: string;
  price: number;
}

/** The books, localised. */
export function bookCards(s: CatalogSnapshot, locale: Locale): BookCard[] {
  return s.books.map((b) => ({ id: b.id, title: pick(b, 'title', locale), author: b.author, description: pick(b, 'description', locale), cover: b.cover, price: b.price }));
}

/** A membership plan with the courses it unlocks for the viewer. */
export interface PlanCard {
  id: number;
  name: string;
  description: string;
  price: number;
  period: 'month' | 'year';
  features: string[];
  unlocks: { categoryId: number; name: string; courseCount: number }[];
}

/** The plans, cheapest first, with what each unlocks (only courses the viewer could see listed). */
export function planCards(s: CatalogSnapshot, viewer: Viewer, locale: Locale): PlanCard[] {
  const listed = s.courses.filter((c) => isListed(c, viewer));
  return s.plans.map((p) => ({
    id: p.id,
    name: pick(p, 'name', locale),
    description: pick(p, 'description', locale),
    price: p.price,
    period: p.period,
    features: locale === 'en' ? p.featuresEn : p.featuresEs,
    unlocks: p.unlocksCategoryIds.flatMap((id) => {
      const cat = s.categories.find((c) => c.id === id);
      return cat ? [{ categoryId: id, name: pick(cat, 'name', locale), courseCount: listed.filter((c) => c.categoryId === id).length }] : [];
    }),
  }));
}
