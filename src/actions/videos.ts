/**
 * The video library's actions (editors): a caption track per language for a converted video, checked
 * by the WebVTT parser before anything is stored. Uploads themselves go through the resumable upload
 * endpoint (`server/handlers/video-uploads.ts`). Access, limits and language are declared in `access.ts`.
 */
import { ActionError } from 'astro:actions';
import { action } from './kit';
import { format } from '~/i18n';
import { DEFAULT_LOCALE, LOCALES } from '~/i18n/locales';
import { z } from '~/lib/zod';
import { saveCaption, videoInLessons } from '~/lib/videos';
import { catalogChange } from '~/lib/runtime/changes';

const captionFormSchema = z.object({
  videoId: z.coerce.number().int().min(1).max(2_147_483_647),
  track: z.enum(['es', 'en']),
  captions: z.unknown(),
  lang: z.enum(LOCALES).catch(DEFAULT_LOCALE),
});

export const videos = {
  /** Stores (or replaces) a video's caption track in one language; a refused file writes nothing. */
  saveCaption: action('videos.saveCaption', {
    accept: 'form',
    input: captionFormSchema,
    handler: async ({ videoId, track, captions }, { person, runtime, t }) => {
      const c = t.videos.captions.errors;
      // Read no more than the limit allows (plus one byte, to tell a file over it); no file is an empty one.
      const bytes = captions instanceof File ? new Uint8Array(await captions.slice(0, 512 * 1024 + 1).arrayBuffer()) : new Uint8Array();
      const outcome = await saveCaption(runtime.db, runtime.storage, person.userId, videoId, track, bytes);
      if (outcome.status === 'unknownVideo') throw new ActionError({ code: 'NOT_FOUND', message: t.videos.refusals.unknownVideo });
      if (outcome.status === 'notReady') throw new ActionError({ code: 'CONFLICT', message: c.notReady });
      if (outcome.status === 'invalid') throw new ActionError({ code: 'BAD_REQUEST', message: captions instanceof File ? format(c[outcome.problem], { line: outcome.line }) : c.noFile });
      // Lessons playing this video list its caption tracks: their pages are drawn again.
      const changed = (await videoInLessons(runtime.db, videoId)) ? [catalogChange()] : [];
      return { message: format(t.videos.captions.saved, { count: outcome.cues }), changed };
    },
  }),
};
