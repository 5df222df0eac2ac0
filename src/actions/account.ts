/**
 * The logged-in person's own account: changing their profile (name, gender, birth date). A thin call
 * into `src/lib/identity`; the profile form posts here with or without JavaScript. Access, limits and
 * language are declared in `access.ts`.
 */
import { ActionError } from 'astro:actions';
import { action, type Refusals } from './kit';
import { photoRefusalStatus, profileSchema, savePhoto, updateProfile, type PhotoRefusal } from '~/lib/identity';
import { LOCALES, DEFAULT_LOCALE } from '~/i18n';
import { z } from '~/lib/zod';

/** The action error of a refused photo: 413 (too large), 415 (not JPEG, PNG or WebP) or 400, with its sentence. */
function photoError(reason: PhotoRefusal, message: string): ActionError {
  const status = photoRefusalStatus(reason);
  return new ActionError({ code: status === 413 ? 'CONTENT_TOO_LARGE' : status === 415 ? 'UNSUPPORTED_MEDIA_TYPE' : 'BAD_REQUEST', message });
}

/** The 429: "too many attempts, wait N minutes". */
const refusals: Refusals = { tooMany: (t) => t.identity.login.tooManyAttempts };

export const account = {
  /**
   * Stores the caller's profile on their own account (the session names it, never the form): 400 with
   * field codes for bad input (nothing stored), 401 without a learner's session, `{ updated: true }`
   * otherwise. Their sessions are told, so the header shows the new name on the next page.
   */
  updateProfile: action('account.updateProfile', {
    accept: 'form',
    input: profileSchema,
    refusals,
    handler: async (form, { runtime, person, unauthorized }) => {
      const outcome = await updateProfile(runtime.db, person.userId, form);
      if (outcome.status !== 'ok') throw unauthorized();
      return { updated: true as const, changed: outcome.changed };
    },
  }),

  /**
   * Keeps a new profile photo (a multipart form, with or without JavaScript): the file's bytes must be
   * JPEG, PNG or WebP of at most `PHOTO_MAX_BYTES` and `PHOTO_MAX_PIXELS`; the server keeps its own
   * square WebP of it. A refusal is a sentence with 400, 413 or 415 and nothing is stored.
   */
  setPhoto: action('account.setPhoto', {
    accept: 'form',
    input: z.object({ photo: z.unknown(), lang: z.enum(LOCALES).catch(DEFAULT_LOCALE) }),
    refusals,
    handler: async ({ photo }, { runtime, person, t, unauthorized }) => {
      const file = photo instanceof File ? { size: photo.size, bytes: new Uint8Array(await photo.arrayBuffer()) } : null;
      const outcome = await savePhoto(runtime.db, runtime.config.dataDir, person.userId, file ?? { size: 0, bytes: new Uint8Array() });
      if (outcome.status === 'unknownUser') throw unauthorized();
      if (outcome.status === 'refused') throw photoError(outcome.reason, t.identity.photo.errors[outcome.reason]);
      return { imageUrl: outcome.imageUrl, changed: outcome.changed };
    },
  }),
};
