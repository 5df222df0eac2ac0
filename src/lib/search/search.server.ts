/**
 * Course search in the database: trigram matching (pg_trgm) on accent-free, lower-case text
 * (`search_fold`, an IMMUTABLE wrapper of `unaccent` with GIN indexes: migration 0002_search).
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { categories, courses } from '../db/schema';
import { isListed, type Viewer } from '../access';
import type { Locale } from '~/i18n';
import { DEFAULT_LIMIT, MAX_RESULTS, MIN_QUERY_LENGTH, containsPattern, nameThreshold, normalizeQuery, type SearchResult } from './search';

/** Descriptions are long and full of short words: they match only on a (near) whole word. */
const DESCRIPTION_THRESHOLD = 0.75;
/** How much a match counts, by where it was found: the name in the asked language ranks first. */
const WEIGHT = { otherName: 0.6, description: 0.5, otherDescription: 0.4 } as const;

/** What to search for, in which language, for whom. */
export interface SearchOptions {
  /** The raw query as typed; normalised here (under 3 characters: no results). */
  q: string;
  locale: Locale;
  viewer: Viewer;
  /** Most results (1–100, default 8; the endpoint allows 1–20). */
  limit?: number | undefined;
}

interface Row {
  id: number;
  name: string;
  category_name: string;
  thumbnail: string;
  score: number | string;
  is_test: boolean;
  visible_only_to_buyers: boolean;
  allow_all: boolean;
  price: string;
  prerequisite_course_id: number | null;
  category_id: number;
}

/**
 * Courses whose name (in `locale` first, then the other language) or description resembles the
 * query, best first. Insensitive to case and accents, tolerant of a typo. Never returns a test course
 * or a buyer-only course the viewer has not bought (filtered in SQL and again by the access rules).
 */
export async function searchCourses(db: Db, { q, locale, viewer, limit = DEFAULT_LIMIT }: SearchOptions): Promise<SearchResult[]> {
  const query = normalizeQuery(q);
  if (query.length < MIN_QUERY_LENGTH) return [];
  const max = Math.min(MAX_RESULTS, Math.max(1, Math.trunc(limit) || DEFAULT_LIMIT));
  const en = locale === 'en';
  // Columns are chosen here from the schema (never from input); every value below is a bound parameter.
  const name = en ? courses.nameEn : courses.nameEs;
  const otherName = en ? courses.nameEs : courses.nameEn;
  const description = en ? courses.descriptionEn : courses.descriptionEs;
  const otherDescription = en ? courses.descriptionEs : courses.descriptionEn;
  const categoryName = en ? categories.nameEn : categories.nameEs;
  const purchased = `{${[...viewer.purchased].filter(Number.isInteger).join(',')}}`;

  // Fixed numbers are written into the SQL text; only the query and the purchases are parameters.
  const [nameT, descriptionT] = [sql.raw(String(nameThreshold(query))), sql.raw(String(DESCRIPTION_THRESHOLD))];
  const weight = (w: keyof typeof WEIGHT) => sql.raw(String(WEIGHT[w]));
  const term = sql`search_fold(${query}::text)`;
  const pattern = sql`search_fold(${containsPattern(query)}::text)`;
  const nameScore = (column: typeof name) =>
    sql`(case when search_fold(${column}) like ${pattern} then 1 else 0 end + word_similarity(${term}, search_fold(${column})))`;
  const descriptionScore = (column: typeof description) =>
    sql`(case when word_similarity(${term}, search_fold(${column})) >= ${descriptionT} then word_similarity(${term}, search_fold(${column})) else 0 end)`;

  const rows = await db.transaction(async (tx) => {
    // The `<%` operator (which the GIN indexes serve) compares with this setting; set_config(…, true)
    // keeps it to this transaction, so a pooled connection goes back unchanged.
    await tx.execute(sql`select set_config('pg_trgm.word_similarity_threshold', ${nameT}::text, true)`);
    const result = await tx.execute(sql`
      select ${courses.id} as id, ${name} as name, ${categoryName} as category_name, ${courses.thumbnail} as thumbnail,
        ${courses.isTest} as is_test, ${courses.visibleOnlyToBuyers} as visible_only_to_buyers, ${courses.allowAll} as allow_all,
        ${courses.price} as price, ${courses.prerequisiteCourseId} as prerequisite_course_id, ${courses.categoryId} as category_id,
        round(greatest(
          ${nameScore(name)},
          ${weight('otherName')} * ${nameScore(otherName)},
          ${weight('description')} * ${descriptionScore(description)},
          ${weight('otherDescription')} * ${descriptionScore(otherDescription)}
        )::numeric, 3)::float8 as score
      from ${courses}
      join ${categories} on ${categories.id} = ${courses.categoryId}
      where ${courses.isTest} = false and ${courses.hidden} = false
        and (${courses.visibleOnlyToBuyers} = false or ${courses.id} = any(${purchased}::int[]))
        and (
          ${term} <% search_fold(${name}) or search_fold(${name}) like ${pattern}
          or ${term} <% search_fold(${otherName}) or search_fold(${otherName}) like ${pattern}
          or (${term} <% search_fold(${description}) and word_similarity(${term}, search_fold(${description})) >= ${descriptionT})
          or (${term} <% search_fold(${otherDescription}) and word_similarity(${term}, search_fold(${otherDescription})) >= ${descriptionT})
        )
      order by score desc, similarity(${term}, search_fold(${name})) desc, ${courses.id}
      limit ${max}`);
    return (result as unknown as { rows: Row[] }).rows;
  });

  return rows
    .filter((r) =>
      isListed(
        {
          id: r.id,
          isTest: r.is_test,
          visibleOnlyToBuyers: r.visible_only_to_buyers,
          allowAll: r.allow_all,
          price: Number(r.price),
          prerequisiteCourseId: r.prerequisite_course_id,
          categoryId: r.category_id,
        },
        viewer,
      ),
    )
    .map((r) => ({ id: r.id, name: r.name, categoryName: r.category_name, thumbnail: r.thumbnail, score: Number(r.score) }));
}
