/**
 * The rules of course authoring, pure: a course's document (everything an editor changes, kept as a
 * draft until published), money typed as text and kept as integer cents, the translations a
 * publication needs, and prerequisite chains without loops.
 */
import { z } from '~/lib/zod';

/** The most a course may cost: 100,000.00 USD (anything above is a typing mistake). */
export const MAX_PRICE_CENTS = 10_000_000;
/** Lengths a text may have. */
export const LIMITS = { code: 40, name: 200, summary: 2000, description: 5000, url: 2000, modules: 60, lessons: 200, resources: 20 } as const;

/* ───────────── the document ───────────── */

const text = (max: number) => z.string().max(max);
/** Kinds of lesson resources (`RESOURCE_TYPE`: 1 video, 2 PDF, 3 link). */
export const RESOURCE_KINDS = ['video', 'pdf', 'link'] as const;
export type ResourceKind = (typeof RESOURCE_KINDS)[number];

/**
 * A lesson's resource. `id`: its live row (kept on publication, so captions and links to it survive),
 * null until published. A video or PDF points at a stored file (`mediaFileId`): the seam where a lesson
 * picks its video from the media library; a link has an https `url`.
 */
export const docResourceSchema = z.object({
  key: text(24),
  id: z.number().int().positive().nullable(),
  kind: z.enum(RESOURCE_KINDS),
  titleEs: text(LIMITS.name),
  titleEn: text(LIMITS.name),
  url: text(LIMITS.url).nullable(),
  mediaFileId: z.number().int().positive().nullable(),
});
export const docLessonSchema = z.object({
  key: text(24),
  id: z.number().int().positive().nullable(),
  nameEs: text(LIMITS.name),
  nameEn: text(LIMITS.name),
  summaryEs: text(LIMITS.summary),
  summaryEn: text(LIMITS.summary),
  resources: z.array(docResourceSchema).max(LIMITS.resources),
});
export const docModuleSchema = z.object({
  key: text(24),
  id: z.number().int().positive().nullable(),
  nameEs: text(LIMITS.name),
  nameEn: text(LIMITS.name),
  lessons: z.array(docLessonSchema).max(LIMITS.lessons),
});
/** A course as an editor shapes it: the live course, or its draft. */
export const courseDocSchema = z.object({
  code: text(LIMITS.code),
  nameEs: text(LIMITS.name),
  nameEn: text(LIMITS.name),
  descriptionEs: text(LIMITS.description),
  descriptionEn: text(LIMITS.description),
  thumbnail: text(LIMITS.url),
  categoryId: z.number().int(),
  businessId: z.number().int(),
  priceCents: z.number().int().min(0).max(MAX_PRICE_CENTS),
  allowAll: z.boolean(),
  isTest: z.boolean(),
  visibleOnlyToBuyers: z.boolean(),
  hidden: z.boolean(),
  prerequisiteCourseId: z.number().int().nullable(),
  modules: z.array(docModuleSchema).max(LIMITS.modules),
});
export type CourseDoc = z.infer<typeof courseDocSchema>;
export type DocModule = z.infer<typeof docModuleSchema>;
export type DocLesson = z.infer<typeof docLessonSchema>;
export type DocResource = z.infer<typeof docResourceSchema>;

/** The key of a live row in a document (`m12`, `l40`, `r7`); new items get `n…` keys. */
export const liveKey = (kind: 'm' | 'l' | 'r', id: number): string => `${kind}${id}`;

/* ───────────── money ───────────── */

/** Why a typed price is refused. */
export type PriceProblem = 'format' | 'negative' | 'fraction' | 'tooHigh';

/**
 * Reads a price typed as money (`12.50`, `12,50`, `12`, `$1,250.00` is not: no signs or thousands) into
 * integer cents, exactly: the digits are read as text, never through a float.
 */
export function parsePrice(raw: string): { ok: true; cents: number } | { ok: false; problem: PriceProblem } {
  const typed = raw.trim().replace(',', '.');
  if (/^-\s*\d/.test(typed)) return { ok: false, problem: 'negative' };
  const m = /^(\d{1,12})(?:\.(\d*))?$/.exec(typed);
  if (!m) return { ok: false, problem: 'format' };
  const fraction = (m[2] ?? '').replace(/0+$/, '');
  if (fraction.length > 2) return { ok: false, problem: 'fraction' };
  const whole = m[1]!.replace(/^0+(?=\d)/, '');
  if (whole.length > 6) return { ok: false, problem: 'tooHigh' };
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return cents > MAX_PRICE_CENTS ? { ok: false, problem: 'tooHigh' } : { ok: true, cents };
}

/** Cents as the `numeric(10,2)` column's text (`1250` → `12.50`). */
export function centsToNumeric(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new RangeError(`not a price in cents: ${cents}`);
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** The `numeric` column's text (or a number the driver gave) as cents, exactly (`'12.5'` → 1250). */
export function numericToCents(value: string | number): number {
  const m = /^(\d+)(?:\.(\d{0,2})\d*)?$/.exec(String(value).trim());
  if (!m) throw new RangeError(`not a price: ${value}`);
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

/** Cents as an editor types them back (`1250` → `12.50`). */
export const priceText = (cents: number): string => centsToNumeric(cents);

/* ───────────── links ───────────── */

/** An https address a learner may be sent to (no credentials in it, a real host). */
export function isHttpsUrl(raw: string): boolean {
  if (!URL.canParse(raw)) return false;
  const url = new URL(raw);
  return url.protocol === 'https:' && url.hostname.includes('.') && url.username === '' && url.password === '' && raw.length <= LIMITS.url;
}

/* ───────────── what a publication needs ───────────── */

/** A text that is missing in one language: where it is (for the editor's list) and which language lacks it. */
export interface MissingText {
  /** `course`, or the key of the module, lesson or resource. */
  where: 'course' | string;
  kind: 'course' | 'module' | 'lesson' | 'resource';
  field: 'name' | 'description' | 'summary' | 'title';
  lang: 'es' | 'en';
  /** The text in the other language, to say which item it is. */
  other: string;
}

/**
 * Every text written in one language and missing in the other (a summary or description left empty in
 * both is fine; a name is needed in both). A course with any is never published.
 */
export function missingTranslations(doc: CourseDoc): MissingText[] {
  const out: MissingText[] = [];
  const pair = (where: string, kind: MissingText['kind'], field: MissingText['field'], es: string, en: string, required: boolean) => {
    const hasEs = es.trim() !== '';
    const hasEn = en.trim() !== '';
    if (!hasEs && (hasEn || required)) out.push({ where, kind, field, lang: 'es', other: en });
    if (!hasEn && (hasEs || required)) out.push({ where, kind, field, lang: 'en', other: es });
  };
  pair('course', 'course', 'name', doc.nameEs, doc.nameEn, true);
  pair('course', 'course', 'description', doc.descriptionEs, doc.descriptionEn, false);
  for (const m of doc.modules) {
    pair(m.key, 'module', 'name', m.nameEs, m.nameEn, true);
    for (const l of m.lessons) {
      pair(l.key, 'lesson', 'name', l.nameEs, l.nameEn, true);
      pair(l.key, 'lesson', 'summary', l.summaryEs, l.summaryEn, false);
      for (const r of l.resources) pair(r.key, 'resource', 'title', r.titleEs, r.titleEn, true);
    }
  }
  return out;
}

/** Why a prerequisite is refused: the course itself, a course that does not exist, or one that (through its own) needs this course. */
export type PrerequisiteProblem = 'self' | 'unknown' | 'cycle';

/**
 * Whether `courseId` may require `prerequisiteId`, given every course's current prerequisite
 * (`prerequisites`: course id → its prerequisite or null). Following the chain from the new
 * prerequisite must never come back to the course.
 */
export function prerequisiteProblem(courseId: number, prerequisiteId: number | null, prerequisites: ReadonlyMap<number, number | null>): PrerequisiteProblem | null {
  if (prerequisiteId === null) return null;
  if (prerequisiteId === courseId) return 'self';
  if (!prerequisites.has(prerequisiteId)) return 'unknown';
  const seen = new Set<number>();
  for (let at: number | null | undefined = prerequisiteId; at !== null && at !== undefined; at = prerequisites.get(at)) {
    if (at === courseId) return 'cycle';
    if (seen.has(at)) break;
    seen.add(at);
  }
  return null;
}

/** The state of a course in the editors' list. */
export interface CourseState {
  /** Learners see it in the catalogue (not hidden, not a test course). */
  live: boolean;
  hidden: boolean;
  /** Changes saved and not published. */
  draft: boolean;
}

/** What the list says of a course. */
export function courseStateOf(course: { hidden: boolean; isTest: boolean }, hasDraft: boolean): CourseState {
  return { live: !course.hidden && !course.isTest, hidden: course.hidden, draft: hasDraft };
}

/** Whether a course's names match a search typed in the list (either language, any case or accent). */
export function matchesSearch(course: { code: string; nameEs: string; nameEn: string }, query: string): boolean {
  const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  const q = fold(query.trim());
  return q === '' || [course.code, course.nameEs, course.nameEn].some((s) => fold(s).includes(q));
}
