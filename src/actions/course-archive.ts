/**
 * Importing a course archive (editors; administrators hold the editor's grants): the uploaded .zip
 * becomes a new hidden course with a draft, all or nothing. Each refusal is a sentence in the page's
 * language with a 4xx (413 for an upload over the limit); the import is in the audit trail and answers
 * a catalogue change. Access, limits and language are declared in `access.ts`.
 */
import { ActionError } from 'astro:actions';
import { action } from './kit';
import { format } from '~/i18n';
import { ARCHIVE_LIMITS } from '~/lib/course-archive';
import { importCourse } from '~/lib/course-archive/import.server';

function refused(message: string, code: 'BAD_REQUEST' | 'CONTENT_TOO_LARGE' = 'BAD_REQUEST'): ActionError {
  return Object.assign(new ActionError({ code, message }), { fields: { file: [message] } });
}

export const courseArchive = {
  /** A course archive (`file`) as a new hidden course with its draft; answers its id and code. */
  import: action('courseArchive.import', {
    accept: 'form',
    handler: async (form: FormData, { person, runtime, t }) => {
      const r = t.courseArchive.refusals;
      const file = form.get('file');
      if (!(file instanceof File) || file.size === 0) throw refused(r.noFile);
      if (file.size > ARCHIVE_LIMITS.maxUploadBytes) throw refused(format(r.tooLargeUpload, { max: ARCHIVE_LIMITS.maxUploadBytes / 1024 / 1024 }), 'CONTENT_TOO_LARGE');
      const outcome = await importCourse(runtime.db, runtime.storage, person.userId, new Uint8Array(await file.arrayBuffer()));
      if (outcome.status === 'refused') throw refused(format(r[outcome.problem], { detail: outcome.detail.slice(0, 120) }));
      return { message: format(t.courseArchive.imported, { code: outcome.code }), courseId: outcome.courseId, code: outcome.code, changed: outcome.changed };
    },
  }),
};
