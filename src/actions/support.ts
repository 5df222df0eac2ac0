/**
 * The support inbox's actions (support staff and administrators): change a message's status, assign it,
 * add an internal note, reply by e-mail. Forms are plain posts that work without JavaScript. A message
 * that no longer exists (deleted with its sender's account) is a 404 in words with nothing written; a
 * reply posted twice from the same form (its key) is one reply and one mail. Access, limits and
 * language: `access.ts`.
 */
import { ActionError } from 'astro:actions';
import { action } from './kit';
import { format } from '~/i18n';
import { addNote, assignFormSchema, assignMessage, noteFormSchema, replyFormSchema, replyToMessage, setMessageStatus, statusFormSchema } from '~/lib/support';
import type { Messages } from '~/i18n/types';

const gone = (t: Messages) => new ActionError({ code: 'NOT_FOUND', message: t.support.refusals.unknown });

export const support = {
  /** Sets a message's status (new, in progress, answered, closed). */
  setStatus: action('support.setStatus', {
    accept: 'form',
    input: statusFormSchema,
    handler: async ({ id, status }, { person, runtime, t }) => {
      const outcome = await setMessageStatus(runtime.db, person.userId, id, status);
      if (outcome.status === 'unknown') throw gone(t);
      return { message: format(t.support.done.status, { status: t.support.statuses[status] }) };
    },
  }),

  /** Assigns a message to someone holding the support or administrator role, or to nobody. */
  assign: action('support.assign', {
    accept: 'form',
    input: assignFormSchema,
    handler: async ({ id, assignee }, { person, runtime, t }) => {
      const outcome = await assignMessage(runtime.db, person.userId, id, assignee);
      if (outcome.status === 'unknown') throw gone(t);
      if (outcome.status === 'notAssignable') throw new ActionError({ code: 'BAD_REQUEST', message: t.support.refusals.notAssignable });
      return { message: outcome.assignee ? format(t.support.done.assigned, { name: outcome.assignee.name }) : t.support.done.unassigned };
    },
  }),

  /** Adds an internal note to a message's thread. */
  note: action('support.note', {
    accept: 'form',
    input: noteFormSchema,
    handler: async ({ id, body }, { person, runtime, t }) => {
      const outcome = await addNote(runtime.db, person.userId, id, body);
      if (outcome.status === 'unknown') throw gone(t);
      return { message: t.support.done.note };
    },
  }),

  /** Stores a reply in the thread and mails it to the sender once (the form's key makes a double submit one reply). */
  reply: action('support.reply', {
    accept: 'form',
    input: replyFormSchema,
    handler: async ({ id, body, key }, { person, runtime, t }) => {
      const outcome = await replyToMessage(runtime.db, person.userId, id, body, key);
      if (outcome.status === 'unknown') throw gone(t);
      return { message: t.support.done.reply, entryId: outcome.entryId };
    },
  }),
};
