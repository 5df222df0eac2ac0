/**
 * The IBO's business actions: the owner of an active IBO nudges one of their people; the person, from
 * the link in the nudge's mail, asks for no more. The IBO is the
 * one the account owns, read fresh (a suspension counts at once); the person must be one the IBO may
 * see (anyone else is "not among your people", whatever the id). Access, limits and language: `access.ts`.
 */
import { ActionError } from 'astro:actions';
import { action } from './kit';
import { format } from '~/i18n';
import { ownedIbo } from '~/lib/business/business.server';
import { NUDGE_STOP_PURPOSE, nudgePerson, stopNudges } from '~/lib/business/nudge.server';
import { NUDGE_REFUSAL_STATUS, nudgeFormSchema, nudgeStopSchema } from '~/lib/business/people';

const CODES = { 404: 'NOT_FOUND', 409: 'CONFLICT', 429: 'TOO_MANY_REQUESTS' } as const;

export const business = {
  /** Asks the academy to e-mail one of the IBO's people a reminder, in their language (once per form key). */
  nudge: action('business.nudge', {
    accept: 'form',
    input: nudgeFormSchema,
    handler: async ({ person: contactId, key }, { person, runtime, t, locale, ctx }) => {
      const ibo = await ownedIbo(runtime.db, person.userId);
      if (!ibo) throw new ActionError({ code: 'FORBIDDEN', message: t.business.refusals.notOwner });
      if (ibo.status !== 'active') throw new ActionError({ code: 'FORBIDDEN', message: t.business.refusals.suspended });
      const outcome = await nudgePerson(runtime.db, { iboId: ibo.id, contactId, key, locale, origin: runtime.siteOrigin(ctx.url) });
      if (outcome.status === 'refused') throw new ActionError({ code: CODES[NUDGE_REFUSAL_STATUS[outcome.reason]], message: t.businessPeople.nudge.refusals[outcome.reason] });
      return { message: format(t.businessPeople.nudge.sent, { name: outcome.firstName }), nudgeId: outcome.nudgeId };
    },
  }),

  /** The link in a nudge's mail, confirmed: no more nudges to that person from any IBO (the token proves the link came from the mail). */
  stopNudges: action('business.stopNudges', {
    accept: 'form',
    input: nudgeStopSchema,
    handler: async ({ c, t: token }, { runtime, t }) => {
      if (!runtime.exportLinks.verify(NUDGE_STOP_PURPOSE, c, token)) throw new ActionError({ code: 'BAD_REQUEST', message: t.businessPeople.stop.invalid });
      const stopped = await stopNudges(runtime.db, c);
      return { message: stopped ? t.businessPeople.stop.done : t.businessPeople.stop.already };
    },
  }),
};
