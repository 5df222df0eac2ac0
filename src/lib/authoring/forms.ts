/**
 * The schemas of the authoring forms (every action's input): course ids, item keys, texts in both
 * languages. Error codes are the form kit's (`forms.errors`); a price is read by `parsePrice` in the
 * action, which answers its own sentences (negative, fractions of a cent, too high).
 */
import { formText } from '../forms/forms';
import { DEFAULT_LOCALE, LOCALES } from '~/i18n/locales';
import { z } from '~/lib/zod';
import { LIMITS } from './authoring';

const lang = z.enum(LOCALES).catch(DEFAULT_LOCALE);
const id = z.coerce.number({ error: 'invalidOption' }).int('invalidOption').positive('invalidOption').max(2_147_483_647, 'invalidOption');
/** A module, lesson or resource of a draft: `m12`, `l40`, `r7`, or `n` and hex for a new one. */
export const itemKey = z.string({ error: 'invalidOption' }).regex(/^(?:[mlr][1-9]\d{0,9}|n[0-9a-f]{12})$/, 'invalidOption');
const required = (max: number) => formText({ error: 'required' }).trim().min(1, 'required').max(max, 'tooLong');
/** A text that may be left empty (a form sends an empty field as null: read as ''). */
const optional = (max: number) => z.preprocess((v) => v ?? '', formText({ error: 'required', multiline: true }).trim().max(max, 'tooLong'));
/** A checkbox: present (`on`) or absent. */
const flag = z.preprocess((v) => v === 'on' || v === 'true' || v === true, z.boolean());
const direction = z.enum(['up', 'down'], { error: 'invalidOption' });

/** A course's code: letters, digits and dashes (`REAL-VISION-3`), stored upper-case. */
export const courseCode = z
  .string({ error: 'required' })
  .trim()
  .min(1, 'required')
  .max(LIMITS.code, 'tooLong')
  .regex(/^[A-Za-z0-9][A-Za-z0-9-]*$/, 'invalidCharacters')
  .transform((v) => v.toUpperCase());

export const createCourseSchema = z.object({ code: courseCode, nameEs: required(LIMITS.name), nameEn: required(LIMITS.name), categoryId: id, businessId: id, lang });

/** The course's own settings. Names may be left empty in one language (the page flags it, publishing waits). */
export const settingsSchema = z.object({
  courseId: id,
  nameEs: optional(LIMITS.name),
  nameEn: optional(LIMITS.name),
  descriptionEs: optional(LIMITS.description),
  descriptionEn: optional(LIMITS.description),
  categoryId: id,
  businessId: id,
  price: z.string({ error: 'required' }).max(40, 'tooLong'),
  allowAll: flag,
  isTest: flag,
  visibleOnlyToBuyers: flag,
  hidden: flag,
  prerequisiteCourseId: z.preprocess((v) => (v === '' || v === undefined || v === null ? null : v), id.nullable()),
  lang,
});

const names = { nameEs: optional(LIMITS.name), nameEn: optional(LIMITS.name) };
export const addModuleSchema = z.object({ courseId: id, ...names, lang });
export const renameModuleSchema = z.object({ courseId: id, key: itemKey, ...names, lang });
export const itemSchema = z.object({ courseId: id, key: itemKey, lang });
export const stepSchema = z.object({ courseId: id, key: itemKey, direction, lang });
export const addLessonSchema = z.object({ courseId: id, moduleKey: itemKey, ...names, lang });
export const editLessonSchema = z.object({ courseId: id, key: itemKey, ...names, summaryEs: optional(LIMITS.summary), summaryEn: optional(LIMITS.summary), lang });
export const moveLessonSchema = z.object({ courseId: id, key: itemKey, moduleKey: itemKey, index: z.coerce.number({ error: 'invalidOption' }).int('invalidOption').min(0, 'invalidOption').max(LIMITS.lessons, 'invalidOption'), lang });
/** The outline as drag and drop leaves it (sent by the island as JSON). */
export const arrangeSchema = z.object({
  courseId: id,
  outline: z.array(z.object({ module: itemKey, lessons: z.array(itemKey).max(LIMITS.lessons) })).max(LIMITS.modules),
  lang,
});
export const addLinkSchema = z.object({
  courseId: id,
  lessonKey: itemKey,
  titleEs: optional(LIMITS.name),
  titleEn: optional(LIMITS.name),
  // Checked by the action (`isHttpsUrl`), which says what an address must be.
  url: z.string({ error: 'required' }).trim().min(1, 'required').max(LIMITS.url, 'tooLong'),
  lang,
});
/** A lesson's video from the media library; empty for none. */
export const setVideoSchema = z.object({ courseId: id, lessonKey: itemKey, mediaFileId: z.preprocess((v) => (v === '' || v === undefined || v === null ? null : v), id.nullable()), lang });
export const courseOnlySchema = z.object({ courseId: id, lang });
