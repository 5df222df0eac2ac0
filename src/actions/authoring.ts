/**
 * Course authoring (editors; administrators hold the editor's grants): create a course, change its
 * draft (settings, modules, lessons, links, order), publish the draft or discard it. Each refusal is a
 * sentence in the page's language with a 4xx; each change is in the audit trail. A publication
 * answers a catalogue change, which the kit tells every process. Access, limits and language are
 * declared in `access.ts`.
 */
import { ActionError } from 'astro:actions';
import { action } from './kit';
import { plural } from '~/i18n';
import type { Messages } from '~/i18n/types';
import {
  addLesson,
  addLessonSchema,
  addLink,
  addLinkSchema,
  addModule,
  addModuleSchema,
  arrangeOutline,
  arrangeSchema,
  courseOnlySchema,
  createCourse,
  createCourseSchema,
  discardDraft,
  editDraft,
  editLesson,
  editLessonSchema,
  editorChoices,
  isHttpsUrl,
  itemSchema,
  moveLesson,
  moveLessonSchema,
  newKey,
  parsePrice,
  prerequisiteMap,
  prerequisiteProblem,
  publishDraft,
  removeLesson,
  removeModule,
  removeResource,
  renameModule,
  isVideoFile,
  setThumbnail,
  setVideo,
  setVideoSchema,
  renameModuleSchema,
  settingsSchema,
  stepLesson,
  stepModule,
  stepSchema,
  type CourseDoc,
  type EditResult,
} from '~/lib/authoring';
import type { Db } from '~/lib/db/client';
import { photoRefusalStatus } from '~/lib/identity/photo';
import { z } from '~/lib/zod';

const bad = (message: string) => new ActionError({ code: 'BAD_REQUEST', message });
const notFound = (message: string) => new ActionError({ code: 'NOT_FOUND', message });
const conflict = (message: string) => new ActionError({ code: 'CONFLICT', message });

/** Saves one edit to the course's draft, or refuses it in words. */
async function edit(db: Db, t: Messages, actorId: number, courseId: number, what: string, facts: Record<string, unknown>, change: (doc: CourseDoc) => EditResult) {
  const outcome = await editDraft(db, actorId, courseId, { action: what, facts }, change);
  const r = t.authoring.refusals;
  if (outcome.status === 'unknownCourse') throw notFound(r.unknownCourse);
  if (outcome.status === 'refused') {
    const p = outcome.problem;
    if (p === 'unknownModule' || p === 'unknownLesson' || p === 'unknownResource') throw notFound(r[p]);
    throw bad(r[p]);
  }
  return { message: t.authoring.done.saved };
}

/** Two-language names from a form. */
const both = (es: string, en: string) => ({ es, en });

export const authoring = {
  /**
   * The course's thumbnail (a multipart form): re-encoded by the server as a 960×540 WebP and set in the
   * draft. A picture that is not a JPEG, PNG or WebP, too large or unreadable: 413/415/400 in words.
   */
  uploadThumbnail: action('authoring.uploadThumbnail', {
    accept: 'form',
    input: courseOnlySchema.extend({ thumbnail: z.unknown().optional() }),
    handler: async ({ courseId, thumbnail }, { person, runtime, t }) => {
      const file = thumbnail instanceof File && thumbnail.size > 0 ? { size: thumbnail.size, bytes: new Uint8Array(await thumbnail.arrayBuffer()) } : null;
      const outcome = await setThumbnail(runtime.db, runtime.storage, person.userId, courseId, file);
      if (outcome.status === 'unknownCourse') throw notFound(t.authoring.refusals.unknownCourse);
      if (outcome.status === 'refused') {
        const status = photoRefusalStatus(outcome.reason);
        throw new ActionError({ code: status === 413 ? 'CONTENT_TOO_LARGE' : status === 415 ? 'UNSUPPORTED_MEDIA_TYPE' : 'BAD_REQUEST', message: t.authoring.thumbnail.refusals[outcome.reason] });
      }
      return { message: t.authoring.thumbnail.saved, changed: [] };
    },
  }),

  /** A new course: hidden, with an empty draft. Answers its id (the page goes to its editor). */
  create: action('authoring.create', {
    accept: 'form',
    input: createCourseSchema,
    handler: async (input, { person, runtime, t }) => {
      const outcome = await createCourse(runtime.db, person.userId, input);
      const r = t.authoring.refusals;
      if (outcome.status === 'codeTaken') throw conflict(r.codeTaken);
      if (outcome.status === 'unknownCategory' || outcome.status === 'unknownBusiness') throw bad(r[outcome.status]);
      return { message: t.authoring.list.created, courseId: outcome.courseId };
    },
  }),

  /** The course's names, descriptions, category, business line, price, flags and prerequisite, to the draft. */
  saveSettings: action('authoring.saveSettings', {
    accept: 'form',
    input: settingsSchema,
    handler: async (input, { person, runtime, t }) => {
      const r = t.authoring.refusals;
      const price = parsePrice(input.price);
      if (!price.ok) throw bad(r[(`price${price.problem[0]!.toUpperCase()}${price.problem.slice(1)}`) as 'priceFormat' | 'priceNegative' | 'priceFraction' | 'priceTooHigh']);
      const choices = await editorChoices(runtime.db);
      if (!choices.categories.some((c) => c.id === input.categoryId)) throw bad(r.unknownCategory);
      if (!choices.businesses.some((b) => b.id === input.businessId)) throw bad(r.unknownBusiness);
      if (!choices.courses.some((c) => c.id === input.courseId)) throw notFound(r.unknownCourse);
      const problem = prerequisiteProblem(input.courseId, input.prerequisiteCourseId, await prerequisiteMap(runtime.db));
      if (problem) throw bad(r[`prerequisite${problem[0]!.toUpperCase()}${problem.slice(1)}` as 'prerequisiteSelf' | 'prerequisiteUnknown' | 'prerequisiteCycle']);
      const settings = {
        nameEs: input.nameEs,
        nameEn: input.nameEn,
        descriptionEs: input.descriptionEs,
        descriptionEn: input.descriptionEn,
        categoryId: input.categoryId,
        businessId: input.businessId,
        priceCents: price.cents,
        allowAll: input.allowAll,
        isTest: input.isTest,
        visibleOnlyToBuyers: input.visibleOnlyToBuyers,
        hidden: input.hidden,
        prerequisiteCourseId: input.prerequisiteCourseId,
      };
      const { nameEs: _es, nameEn: _en, descriptionEs: _des, descriptionEn: _den, ...facts } = settings;
      return edit(runtime.db, t, person.userId, input.courseId, 'settings', facts, (doc) => ({ ok: true, doc: { ...doc, ...settings } }));
    },
  }),

  addModule: action('authoring.addModule', {
    accept: 'form',
    input: addModuleSchema,
    handler: ({ courseId, nameEs, nameEn }, { person, runtime, t }) => edit(runtime.db, t, person.userId, courseId, 'module.added', {}, (doc) => addModule(doc, both(nameEs, nameEn), newKey)),
  }),
  renameModule: action('authoring.renameModule', {
    accept: 'form',
    input: renameModuleSchema,
    handler: ({ courseId, key, nameEs, nameEn }, { person, runtime, t }) => edit(runtime.db, t, person.userId, courseId, 'module.renamed', { key }, (doc) => renameModule(doc, key, both(nameEs, nameEn))),
  }),
  removeModule: action('authoring.removeModule', {
    accept: 'form',
    input: itemSchema,
    handler: ({ courseId, key }, { person, runtime, t }) => edit(runtime.db, t, person.userId, courseId, 'module.removed', { key }, (doc) => removeModule(doc, key)),
  }),
  stepModule: action('authoring.stepModule', {
    accept: 'form',
    input: stepSchema,
    handler: ({ courseId, key, direction }, { person, runtime, t }) => edit(runtime.db, t, person.userId, courseId, 'module.moved', { key, direction }, (doc) => stepModule(doc, key, direction)),
  }),
  addLesson: action('authoring.addLesson', {
    accept: 'form',
    input: addLessonSchema,
    handler: ({ courseId, moduleKey, nameEs, nameEn }, { person, runtime, t }) => edit(runtime.db, t, person.userId, courseId, 'lesson.added', { module: moduleKey }, (doc) => addLesson(doc, moduleKey, both(nameEs, nameEn), newKey)),
  }),
  editLesson: action('authoring.editLesson', {
    accept: 'form',
    input: editLessonSchema,
    handler: ({ courseId, key, nameEs, nameEn, summaryEs, summaryEn }, { person, runtime, t }) =>
      edit(runtime.db, t, person.userId, courseId, 'lesson.edited', { key }, (doc) => editLesson(doc, key, { names: both(nameEs, nameEn), summary: both(summaryEs, summaryEn) })),
  }),
  removeLesson: action('authoring.removeLesson', {
    accept: 'form',
    input: itemSchema,
    handler: ({ courseId, key }, { person, runtime, t }) => edit(runtime.db, t, person.userId, courseId, 'lesson.removed', { key }, (doc) => removeLesson(doc, key)),
  }),
  stepLesson: action('authoring.stepLesson', {
    accept: 'form',
    input: stepSchema,
    handler: ({ courseId, key, direction }, { person, runtime, t }) => edit(runtime.db, t, person.userId, courseId, 'lesson.moved', { key, direction }, (doc) => stepLesson(doc, key, direction)),
  }),
  /** A lesson to another module of the same course (another course's module: 404 in words). */
  moveLesson: action('authoring.moveLesson', {
    accept: 'form',
    input: moveLessonSchema,
    handler: ({ courseId, key, moduleKey, index }, { person, runtime, t }) => edit(runtime.db, t, person.userId, courseId, 'lesson.moved', { key, module: moduleKey, index }, (doc) => moveLesson(doc, key, moduleKey, index)),
  }),
  /** The whole outline as drag and drop (or the keyboard) left it. */
  arrangeOutline: action('authoring.arrangeOutline', {
    accept: 'json',
    input: arrangeSchema,
    handler: ({ courseId, outline }, { person, runtime, t }) => edit(runtime.db, t, person.userId, courseId, 'outline.arranged', {}, (doc) => arrangeOutline(doc, outline)),
  }),
  /** The lesson's video, picked from the media library (or none). */
  setVideo: action('authoring.setVideo', {
    accept: 'form',
    input: setVideoSchema,
    handler: async ({ courseId, lessonKey, mediaFileId }, { person, runtime, t }) => {
      if (mediaFileId !== null && !(await isVideoFile(runtime.db, mediaFileId))) throw notFound(t.authoring.refusals.unknownVideo);
      return edit(runtime.db, t, person.userId, courseId, 'video.set', { lesson: lessonKey, mediaFileId }, (doc) => setVideo(doc, lessonKey, mediaFileId, newKey));
    },
  }),
  addLink: action('authoring.addLink', {
    accept: 'form',
    input: addLinkSchema,
    handler: ({ courseId, lessonKey, titleEs, titleEn, url }, { person, runtime, t }) => {
      if (!isHttpsUrl(url)) throw bad(t.authoring.refusals.badUrl);
      return edit(runtime.db, t, person.userId, courseId, 'resource.added', { lesson: lessonKey, url }, (doc) => addLink(doc, lessonKey, both(titleEs, titleEn), url, newKey));
    },
  }),
  removeResource: action('authoring.removeResource', {
    accept: 'form',
    input: itemSchema,
    handler: ({ courseId, key }, { person, runtime, t }) => edit(runtime.db, t, person.userId, courseId, 'resource.removed', { key }, (doc) => removeResource(doc, key)),
  }),

  /** Makes the draft live at once in every process; refused while a translation is missing. */
  publish: action('authoring.publish', {
    accept: 'form',
    input: courseOnlySchema,
    handler: async ({ courseId }, { person, runtime, t, locale }) => {
      const outcome = await publishDraft(runtime.db, person.userId, courseId);
      const r = t.authoring.refusals;
      switch (outcome.status) {
        case 'ok':
          return { message: t.authoring.done.published, version: outcome.version, changed: outcome.changed };
        case 'unknownCourse':
          throw notFound(r.unknownCourse);
        case 'noDraft':
          throw conflict(r.noDraft);
        case 'stale':
          throw conflict(r.stale);
        case 'forgedItem':
          throw conflict(r.forgedItem);
        case 'unknownCategory':
          throw bad(r.unknownCategory);
        case 'missingTranslations':
          throw conflict(plural(locale, r.missingTranslations, outcome.missing.length));
        case 'prerequisite':
          throw bad(r[`prerequisite${outcome.problem[0]!.toUpperCase()}${outcome.problem.slice(1)}` as 'prerequisiteSelf' | 'prerequisiteUnknown' | 'prerequisiteCycle']);
      }
    },
  }),

  /** Forgets the draft; the live course is untouched. */
  discard: action('authoring.discard', {
    accept: 'form',
    input: courseOnlySchema,
    handler: async ({ courseId }, { person, runtime, t }) => {
      if (!(await discardDraft(runtime.db, person.userId, courseId))) throw conflict(t.authoring.refusals.noDraft);
      return { message: t.authoring.done.discarded };
    },
  }),
};
