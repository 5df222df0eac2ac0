/**
 * Finance staff's memberships (and administrators, through the policy): extend by some days, cancel now,
 * cancel at the period's end, undo that cancellation. Forms are posts that work without JavaScript; each
 * carries a reason and its key (drawn with the page), so a form posted twice is one change, answered
 * again. Every refusal is a sentence in the page's language with a 4xx and nothing written: days out of
 * range 400, an unknown membership 404, a change its state does not allow 409 (an ended membership, a
 * cancellation made twice). The member's access changes in every process at once (`changed`). Access,
 * limits and language: `access.ts`.
 */
import { ActionError } from 'astro:actions';
import { action } from './kit';
import { format, type Locale } from '~/i18n';
import type { Messages } from '~/i18n/types';
import { changeMembership, type ChangeOutcome } from '~/lib/commerce/membership-admin.server';
import { changeFormSchema, extendFormSchema, readDays, type MembershipChange } from '~/lib/commerce/membership-admin';
import { accessUntil } from '~/lib/commerce/membership';
import { formatInstant } from '~/lib/dates/dates';

/** The answer of an outcome: the sentence of what was done, or the refusal thrown. */
function answer(outcome: ChangeOutcome, change: MembershipChange, t: Messages, locale: Locale) {
  const words = t.membershipAdmin;
  if (outcome.status === 'unknown') throw new ActionError({ code: 'NOT_FOUND', message: words.refusals.unknown });
  if (outcome.status === 'refused') throw new ActionError({ code: 'CONFLICT', message: words.refusals[outcome.refusal] });
  const { membership: m } = outcome;
  const date = formatInstant(accessUntil(m), locale, 'date');
  const message = outcome.repeated ? words.done.repeated : format(words.done[change], { days: outcome.change.days ?? 0, date });
  return { message, id: m.id, changed: outcome.changed };
}

export const memberships = {
  /** Moves the period's end (and the renewal with it) by 1 to 366 days. */
  extend: action('memberships.extend', {
    accept: 'form',
    input: extendFormSchema,
    handler: async ({ id, days, reason, key }, { person, runtime, t, locale }) => {
      const n = readDays(days);
      if (n === null) throw new ActionError({ code: 'BAD_REQUEST', message: t.membershipAdmin.refusals.days });
      return answer(await changeMembership(runtime.db, person.userId, id, 'extend', { days: n, reason, key }), 'extend', t, locale);
    },
  }),
  /** Ends access at once: no grace, no renewal. */
  cancelNow: action('memberships.cancelNow', {
    accept: 'form',
    input: changeFormSchema,
    handler: async ({ id, reason, key }, { person, runtime, t, locale }) => answer(await changeMembership(runtime.db, person.userId, id, 'cancelNow', { reason, key }), 'cancelNow', t, locale),
  }),
  /** No renewal: access until the period's end. */
  cancelAtEnd: action('memberships.cancelAtEnd', {
    accept: 'form',
    input: changeFormSchema,
    handler: async ({ id, reason, key }, { person, runtime, t, locale }) => answer(await changeMembership(runtime.db, person.userId, id, 'cancelAtEnd', { reason, key }), 'cancelAtEnd', t, locale),
  }),
  /** Undoes a cancellation at the period's end before the end: it renews again. */
  resume: action('memberships.resume', {
    accept: 'form',
    input: changeFormSchema,
    handler: async ({ id, reason, key }, { person, runtime, t, locale }) => answer(await changeMembership(runtime.db, person.userId, id, 'resume', { reason, key }), 'resume', t, locale),
  }),
};
