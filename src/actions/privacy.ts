/**
 * "My data": asking for an archive of one's data, and asking for one's account to be deleted. Thin
 * calls into `src/lib/privacy`; the page's forms post here with or without JavaScript. Access, limits
 * and language are declared in `access.ts`.
 */
import { ActionError } from 'astro:actions';
import { action } from './kit';
import { format } from '~/i18n';
import { currentPasswordSchema, langOnlySchema } from '~/lib/identity';
import { requestDeletion, requestExport } from '~/lib/privacy';

/** A date as the page shows it. */
const day = (locale: string, at: Date) => new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(at);

export const privacy = {
  /** Queues an archive of the caller's data (a job builds and mails it); 429 past `dataExportsPerAccount`. */
  requestExport: action('privacy.requestExport', {
    accept: 'form',
    input: langOnlySchema,
    refusals: { tooMany: (t) => t.myData.exportTooMany },
    handler: async ({ lang }, { runtime, person, ctx, t }) => {
      const { exportId } = await requestExport(runtime.db, runtime.exportLinks, { userId: person.userId, locale: lang, origin: runtime.siteOrigin(ctx.url) });
      return { exportId, message: format(t.myData.exportQueued, { email: person.session.user.email }) };
    },
  }),

  /**
   * Schedules the caller's account deletion in 14 days, with their password: 400 and a sentence for a
   * wrong one, 409 and a sentence when one is already scheduled (nothing scheduled again) or when the
   * caller is the academy's only administrator.
   */
  requestDeletion: action('privacy.requestDeletion', {
    accept: 'form',
    input: currentPasswordSchema,
    refusals: { tooMany: (t) => t.myData.deleteTooMany },
    handler: async ({ password, lang }, { runtime, person, t }) => {
      const outcome = await requestDeletion(runtime.db, { userId: person.userId, password });
      if (outcome.status === 'wrongPassword') throw new ActionError({ code: 'BAD_REQUEST', message: t.myData.wrongPassword });
      if (outcome.status === 'lastAdministrator') throw new ActionError({ code: 'CONFLICT', message: t.myData.lastAdministrator });
      if (outcome.status === 'alreadyScheduled') throw new ActionError({ code: 'CONFLICT', message: format(t.myData.alreadyScheduled, { date: day(lang, outcome.dueAt) }) });
      return { dueAt: outcome.dueAt.toISOString(), message: format(t.myData.scheduled, { date: day(lang, outcome.dueAt) }) };
    },
  }),
};
