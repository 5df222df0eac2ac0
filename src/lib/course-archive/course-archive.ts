/**
 * The course archive's format, pure: `course.json` (format `academy-course`, version 1) beside the media
 * it names under `media/`. It carries what moves between academies — texts in es and en, settings,
 * the price in integer cents, the category and business line by code, the outline, each video's or PDF's
 * file and captions, the exam settings and the question bank with explanations — and nothing that
 * means nothing elsewhere (no row ids, no learners, no progress). The README documents it.
 */
import { z } from '~/lib/zod';
import { LIMITS, MAX_PRICE_CENTS, type CourseDoc } from '../authoring/authoring';
import { BANK_LIMITS, SETTING_BOUNDS } from '../question-bank/question-bank';
import type { ZipLimits } from './unzip';

export const ARCHIVE_FORMAT = 'academy-course';
export const ARCHIVE_VERSION = 1;
export const COURSE_JSON = 'course.json';

/** The bounds of an archive: the upload, its entries, and `course.json` itself. */
export const ARCHIVE_LIMITS: ZipLimits & { maxUploadBytes: number; maxJsonBytes: number } = Object.freeze({
  maxUploadBytes: 256 * 1024 * 1024,
  maxEntries: 1000,
  maxEntryBytes: 250 * 1024 * 1024,
  maxTotalBytes: 1024 * 1024 * 1024,
  maxRatio: 100,
  maxJsonBytes: 4 * 1024 * 1024,
});

/** The kinds of stored file an archive may carry, with their file extension. */
export const MEDIA_TYPES: Record<string, string> = {
  'video/mp4': 'mp4',
  'video/webm': 'webm',
  'application/pdf': 'pdf',
  'text/vtt': 'vtt',
  'image/webp': 'webp',
  'image/jpeg': 'jpg',
  'image/png': 'png',
};

/** The most a caption file may weigh (it is read whole to be checked). */
export const MAX_CAPTION_BYTES = 1024 * 1024;

/**
 * Whether a file's first bytes (a caption: all of it) are what its declared type says: `ftyp` for MP4,
 * EBML for WebM, `%PDF-` for PDF, `WEBVTT` with no markup that runs for captions, the picture's own
 * signature for a thumbnail. An HTML page or a script renamed `.mp4` is no video.
 */
export function sniffMedia(contentType: string, bytes: Uint8Array): boolean {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const ascii = (at: number, text: string) => b.toString('latin1', at, at + text.length) === text;
  switch (contentType) {
    case 'video/mp4':
      return ascii(4, 'ftyp');
    case 'video/webm':
      return b.length >= 4 && b.readUInt32BE(0) === 0x1a45dfa3;
    case 'application/pdf':
      return ascii(0, '%PDF-');
    case 'text/vtt': {
      const text = b.toString('utf8').replace(/^\uFEFF/, '');
      return /^WEBVTT(?:[ \t].*)?(?:\r?\n|$)/.test(text) && !/<\s*(script|iframe|object|embed|svg|img|style|link)\b|javascript:/i.test(text);
    }
    case 'image/webp':
      return ascii(0, 'RIFF') && ascii(8, 'WEBP');
    case 'image/jpeg':
      return b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;
    case 'image/png':
      return b.length >= 8 && b.readUInt32BE(0) === 0x89504e47;
    default:
      return false;
  }
}

/** A media path inside the archive: `media/` and one plain file name. */
export const MEDIA_PATH = /^media\/[a-z0-9][a-z0-9._-]{0,99}$/;

/** Why an archive's `course.json` is refused (each is a sentence in both languages). */
export type FormatProblem = 'notJson' | 'format' | 'version' | 'translation' | 'price' | 'invalid';

const required = (max: number) => z.object({ es: z.string().trim().min(1, 'translation').max(max), en: z.string().trim().min(1, 'translation').max(max) });
/** A text that may be empty, but then in both languages. */
const optional = (max: number) =>
  z.object({ es: z.string().max(max), en: z.string().max(max) }).refine((t) => (t.es.trim() === '') === (t.en.trim() === ''), { message: 'translation' });
const mediaPath = z.string().regex(MEDIA_PATH);
const code = z.number().int().positive().max(2_147_483_647);

const fileResource = z.object({
  kind: z.enum(['video', 'pdf']),
  title: required(LIMITS.name),
  file: mediaPath,
  captions: z.object({ es: mediaPath.optional(), en: mediaPath.optional() }).strict().default({}),
});
const linkResource = z.object({ kind: z.literal('link'), title: required(LIMITS.name), url: z.string().url().startsWith('https://').max(LIMITS.url) });

const option = z.object({ text: required(BANK_LIMITS.option), correct: z.boolean() });
const question = z.object({
  kind: z.enum(['single', 'multiple', 'true-false']),
  prompt: required(BANK_LIMITS.prompt),
  explanation: optional(BANK_LIMITS.explanation),
  options: z.array(option).min(BANK_LIMITS.minOptions).max(BANK_LIMITS.maxOptions),
});
const bound = ([min, max]: readonly [number, number]) => z.number().int().min(min).max(max);

export const archiveSchema = z.object({
  format: z.literal(ARCHIVE_FORMAT),
  version: z.literal(ARCHIVE_VERSION),
  exportedAt: z.string().max(40),
  course: z.object({
    code: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9-]*$/).max(LIMITS.code),
    name: required(LIMITS.name),
    description: optional(LIMITS.description),
    thumbnail: z.object({ sitePath: z.string().max(LIMITS.url), file: mediaPath.nullable() }),
    category: z.object({ code, name: z.object({ es: z.string(), en: z.string() }) }),
    business: z.object({ code, name: z.object({ es: z.string(), en: z.string() }) }),
    priceCents: z.number('price').int('price').min(0, 'price').max(MAX_PRICE_CENTS, 'price'),
    allowAll: z.boolean(),
    isTest: z.boolean(),
    visibleOnlyToBuyers: z.boolean(),
    hidden: z.boolean(),
    prerequisiteCode: z.string().max(LIMITS.code).nullable(),
    modules: z
      .array(
        z.object({
          name: required(LIMITS.name),
          lessons: z
            .array(z.object({ name: required(LIMITS.name), summary: optional(LIMITS.summary), resources: z.array(z.discriminatedUnion('kind', [fileResource, linkResource])).max(LIMITS.resources) }))
            .max(LIMITS.lessons),
        }),
      )
      .max(LIMITS.modules),
    exam: z
      .object({
        attempts: bound(SETTING_BOUNDS.attempts),
        questions: bound(SETTING_BOUNDS.questions),
        minutes: bound(SETTING_BOUNDS.minutes),
        minimumScore: bound(SETTING_BOUNDS.minimumScore),
        bank: z.array(question).max(BANK_LIMITS.questions),
      })
      .nullable(),
  }),
  media: z
    .array(z.object({ path: mediaPath, contentType: z.string().refine((t) => t in MEDIA_TYPES), sizeBytes: z.number().int().min(0), durationSeconds: z.string().regex(/^\d{1,8}(\.\d{1,2})?$/).nullable() }))
    .max(ARCHIVE_LIMITS.maxEntries),
});
export type CourseArchive = z.infer<typeof archiveSchema>;
export type ArchiveMedia = CourseArchive['media'][number];
export type ArchiveResource = CourseArchive['course']['modules'][number]['lessons'][number]['resources'][number];
export type ArchiveQuestion = NonNullable<CourseArchive['course']['exam']>['bank'][number];

/** Reads `course.json`'s text: the archive, or the first problem with where it is. */
export function parseArchiveJson(text: string): { ok: true; archive: CourseArchive } | { ok: false; problem: FormatProblem; path: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, problem: 'notJson', path: '' };
  }
  const head = z.object({ format: z.literal(ARCHIVE_FORMAT), version: z.unknown() }).safeParse(raw);
  if (!head.success) return { ok: false, problem: 'format', path: '' };
  if (head.data.version !== ARCHIVE_VERSION) return { ok: false, problem: 'version', path: '' };
  const parsed = archiveSchema.safeParse(raw);
  if (parsed.success) return { ok: true, archive: parsed.data };
  const issue = parsed.error.issues.find((i) => i.message === 'translation' || i.message === 'price') ?? parsed.error.issues[0]!;
  const problem: FormatProblem = issue.message === 'translation' || issue.message === 'price' ? issue.message : 'invalid';
  return { ok: false, problem, path: issue.path.join('.') };
}

/** Every media path the course names (thumbnail, files, captions), once each. */
export function referencedMedia(archive: CourseArchive): string[] {
  const c = archive.course;
  const paths = new Set<string>();
  if (c.thumbnail.file) paths.add(c.thumbnail.file);
  for (const r of c.modules.flatMap((m) => m.lessons.flatMap((l) => l.resources))) {
    if (r.kind === 'link') continue;
    paths.add(r.file);
    if (r.captions.es) paths.add(r.captions.es);
    if (r.captions.en) paths.add(r.captions.en);
  }
  return [...paths];
}

/** What a media file is in the academy, for the path rule below. */
export interface MediaSource {
  mimeType: string;
  sizeBytes: number;
  durationSeconds: string | null;
}

/** The archive path a stored file gets: `media/<n>.<ext>` (its number in the archive, never its key or name here). */
export const mediaPathOf = (n: number, mimeType: string): string => `media/${n}.${MEDIA_TYPES[mimeType] ?? 'bin'}`;

/**
 * The course document an imported archive becomes, with `mediaIds` (archive path → media file id here)
 * and `keys` for each item; the course is given `code`, its category and business line, and `prerequisiteId`.
 */
export function archiveToDoc(archive: CourseArchive, refs: { code: string; thumbnail: string; prerequisiteId: number | null; mediaIds: ReadonlyMap<string, number> }, key: () => string): CourseDoc {
  const c = archive.course;
  return {
    code: refs.code,
    nameEs: c.name.es,
    nameEn: c.name.en,
    descriptionEs: c.description.es,
    descriptionEn: c.description.en,
    thumbnail: refs.thumbnail,
    categoryId: c.category.code,
    businessId: c.business.code,
    priceCents: c.priceCents,
    allowAll: c.allowAll,
    isTest: c.isTest,
    visibleOnlyToBuyers: c.visibleOnlyToBuyers,
    hidden: c.hidden,
    prerequisiteCourseId: refs.prerequisiteId,
    modules: c.modules.map((m) => ({
      key: key(),
      id: null,
      nameEs: m.name.es,
      nameEn: m.name.en,
      lessons: m.lessons.map((l) => ({
        key: key(),
        id: null,
        nameEs: l.name.es,
        nameEn: l.name.en,
        summaryEs: l.summary.es,
        summaryEn: l.summary.en,
        resources: l.resources.map((r) =>
          r.kind === 'link'
            ? { key: key(), id: null, kind: 'link' as const, titleEs: r.title.es, titleEn: r.title.en, url: r.url, mediaFileId: null }
            : { key: key(), id: null, kind: r.kind, titleEs: r.title.es, titleEn: r.title.en, url: null, mediaFileId: refs.mediaIds.get(r.file)! },
        ),
      })),
    })),
  };
}

/**
 * The code an imported course gets: its own when free here, else the first free `CODE-2`, `CODE-3` …
 * (shortened so the suffix fits the code's length). Never an existing course's code.
 */
export function freeCode(wanted: string, taken: ReadonlySet<string>): string {
  const lower = (s: string) => s.toLowerCase();
  if (!taken.has(lower(wanted))) return wanted;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const candidate = `${wanted.slice(0, LIMITS.code - suffix.length)}${suffix}`;
    if (!taken.has(lower(candidate))) return candidate;
  }
}

/** A question of the archive as the bank's draft (for the bank's own checks and its insert). */
export const questionDraftOf = (q: ArchiveQuestion) => ({
  kind: q.kind,
  promptEs: q.prompt.es,
  promptEn: q.prompt.en,
  explanationEs: q.explanation.es,
  explanationEn: q.explanation.en,
  options: q.options.map((o) => ({ textEs: o.text.es, textEn: o.text.en, correct: o.correct })),
});

/** A picture of the site itself (`public/images/courses/…`): every academy has it, so a course names it by path. */
export const SITE_PICTURE = /^\/images\/courses\/[A-Za-z0-9._-]+\.(webp|jpg|png)$/;

/**
 * How long an import may take at most: the stored files of a batch older than this that no row names
 * were left by an import that died (a `kill -9` between storing the media and committing the course).
 */
export const IMPORT_ABANDONED_MS = 60 * 60_000;

/** The storage folder of an import's media: `imports/<start, base 36>-<random>/`. */
export const importFolder = (startedAt: Date, random: string): string => `imports/${startedAt.getTime().toString(36)}-${random}/`;

/** When the import that stored `key` (under `imports/`) started, or null when its folder does not say (an older import's). */
export function importStartedAt(key: string): number | null {
  const m = /^imports\/([0-9a-z]{1,12})-[0-9a-f]+\//.exec(key);
  return m ? parseInt(m[1]!, 36) : null;
}
