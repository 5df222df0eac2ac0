/** Catalogue reads. Every function takes the database as a parameter and returns localised shapes. */
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '~/lib/db';
import { categories, businesses, courses } from '~/lib/db/schema';
import type { Locale } from '~/i18n';
import { pick, type CourseCardData, type MenuItem } from './catalog';

/** Categories in menu order. */
export async function listCategories(db: Db, locale: Locale): Promise<MenuItem[]> {
  const rows = await db.select().from(categories).orderBy(asc(categories.position), asc(categories.id));
  return rows.map((r) => ({ id: r.id, name: pick(r, 'name', locale) }));
}

/** Business lines in menu order. */
export async function listBusinesses(db: Db, locale: Locale): Promise<MenuItem[]> {
  const rows = await db.select().from(businesses).orderBy(asc(businesses.position), asc(businesses.id));
  return rows.map((r) => ({ id: r.id, name: pick(r, 'name', locale) }));
}

/**
 * Courses anyone may see listed: never test courses, never courses shown only to their buyers.
 * (Per-person visibility of bought courses is added by the access rules of the catalogue pages.)
 */
export async function listPublicCourseCards(db: Db, locale: Locale): Promise<CourseCardData[]> {
  const rows = await db
    .select({ course: courses, category: categories })
    .from(courses)
    .innerJoin(categories, eq(categories.id, courses.categoryId))
    .where(and(eq(courses.isTest, false), eq(courses.visibleOnlyToBuyers, false)))
    .orderBy(asc(courses.categoryId), asc(courses.id));
  return rows.map(({ course, category }) => ({
    id: course.id,
    name: pick(course, 'name', locale),
    categoryId: category.id,
    categoryName: pick(category, 'name', locale),
    thumbnail: course.thumbnail,
    free: course.allowAll,
    price: Number(course.price),
  }));
}
