/**
 * The people area's actions (support staff and administrators): mail a person the link that confirms
 * their address or a password reset (the identity's own links and mails), end their sessions, block and
 * unblock them, change their user type, grant them a course with a reason. Forms are plain posts that
 * work without JavaScript. Every refusal is a sentence in the page's language with a 4xx (an id that is
 * not one 400, an unknown person 404, a conflict 409) and nothing is written; every change is in the
 * audit trail. Access, limits and language: `access.ts`.
 */
import { ActionError } from 'astro:actions';
import { action } from './kit';
import { sendVerification } from './account';
import { sendResetMail } from './auth';
import { DEFAULT_LOCALE, format, LOCALES } from '~/i18n';
import type { Messages } from '~/i18n/types';
import { createPasswordReset, createVerification } from '~/lib/identity';
import {
  blockPerson,
  endPersonSessions,
  grantCourse,
  personForMail,
  readPersonId,
  readPersonType,
  readReason,
  recordMailSent,
  setPersonType,
  unblockPerson,
} from '~/lib/people';
import { z } from '~/lib/zod';

const lang = z.enum(LOCALES).catch(DEFAULT_LOCALE);
/** Every field is read by the pure readers (`people.ts`), which say what is wrong in the staff's words. */
const anything = z.unknown();
const personSchema = z.object({ id: anything, lang });

const bad = (message: string) => new ActionError({ code: 'BAD_REQUEST', message });
const gone = (t: Messages) => new ActionError({ code: 'NOT_FOUND', message: t.people.refusals.unknown });
const conflict = (message: string) => new ActionError({ code: 'CONFLICT', message });

/** The person's id of a form, or the 400 of one that is not an id. */
function idOf(t: Messages, raw: unknown): number {
  const id = readPersonId(raw);
  if (!id.ok) throw bad(t.people.refusals.badId);
  return id.id;
}

/** The 409 of a change that would lock out oneself or the last administrator. */
function lockout(t: Messages, status: 'self' | 'lastAdministrator'): ActionError {
  return conflict(status === 'self' ? t.people.refusals.self : t.people.refusals.lastAdministrator);
}

export const people = {
  /** Mails a new link that confirms the person's address (only while it is not confirmed). */
  resendVerification: action('people.resendVerification', {
    accept: 'form',
    input: personSchema,
    handler: async (input, { ctx, person, runtime, locale, t }) => {
      const id = idOf(t, input.id);
      const target = await personForMail(runtime.db, id);
      if (!target) throw gone(t);
      if (target.emailVerifiedAt !== null) throw conflict(t.people.refusals.alreadyVerified);
      const link = await createVerification(runtime.db, id);
      if (!link) throw conflict(t.people.refusals.alreadyVerified);
      await recordMailSent(runtime.db, person.userId, id, 'verification');
      sendVerification(ctx, runtime, locale, link);
      return { message: format(t.people.done.verification, { email: link.to }) };
    },
  }),

  /** Mails the person a single-use password reset link (an account that may log in only). */
  sendReset: action('people.sendReset', {
    accept: 'form',
    input: personSchema,
    handler: async (input, { ctx, person, runtime, locale, t }) => {
      const id = idOf(t, input.id);
      const target = await personForMail(runtime.db, id);
      if (!target) throw gone(t);
      const reset = await createPasswordReset(runtime.db, target.email);
      if (!reset) throw conflict(t.people.refusals.noReset);
      await recordMailSent(runtime.db, person.userId, id, 'reset');
      sendResetMail(ctx, runtime, locale, reset);
      return { message: format(t.people.done.reset, { email: reset.user.email }) };
    },
  }),

  /** Ends every session of the person, on every process. */
  endSessions: action('people.endSessions', {
    accept: 'form',
    input: personSchema,
    handler: async (input, { person, runtime, locale, t }) => {
      const outcome = await endPersonSessions(runtime.db, person.userId, idOf(t, input.id));
      if (outcome.status === 'unknown') throw gone(t);
      return { message: format(t.people.done.sessionsEnded, { count: new Intl.NumberFormat(locale).format(outcome.ended) }), changed: outcome.changed };
    },
  }),

  /** Blocks the person: no login, and their open sessions end at once. */
  block: action('people.block', {
    accept: 'form',
    input: personSchema,
    handler: async (input, { person, runtime, t }) => {
      const outcome = await blockPerson(runtime.db, person.userId, idOf(t, input.id));
      if (outcome.status === 'unknown') throw gone(t);
      if (outcome.status === 'self' || outcome.status === 'lastAdministrator') throw lockout(t, outcome.status);
      return { message: outcome.status === 'blocked' ? t.people.done.blocked : t.people.done.alreadyBlocked, changed: outcome.changed };
    },
  }),

  /** Lets a blocked person log in again. */
  unblock: action('people.unblock', {
    accept: 'form',
    input: personSchema,
    handler: async (input, { person, runtime, t }) => {
      const outcome = await unblockPerson(runtime.db, person.userId, idOf(t, input.id));
      if (outcome.status === 'unknown') throw gone(t);
      return { message: outcome.status === 'unblocked' ? t.people.done.unblocked : t.people.done.notBlocked };
    },
  }),

  /** Sets the person's user type (one of the academy's: learner, refused, administrator, prospect). */
  setType: action('people.setType', {
    accept: 'form',
    input: z.object({ id: anything, type: anything, lang }),
    handler: async (input, { person, runtime, t }) => {
      const id = idOf(t, input.id);
      const type = readPersonType(input.type);
      if (!type) throw bad(t.people.refusals.badType);
      const outcome = await setPersonType(runtime.db, person.userId, id, type);
      if (outcome.status === 'unknown') throw gone(t);
      if (outcome.status === 'self' || outcome.status === 'lastAdministrator') throw lockout(t, outcome.status);
      return { message: format(outcome.status === 'changed' ? t.people.done.type : t.people.done.sameType, { type: t.people.types[type] }), changed: outcome.changed };
    },
  }),

  /** Gives the person a published course, with a reason kept with the grant. */
  grantCourse: action('people.grantCourse', {
    accept: 'form',
    input: z.object({ id: anything, course: anything, reason: anything, lang }),
    handler: async (input, { person, runtime, t }) => {
      const id = idOf(t, input.id);
      const course = readPersonId(input.course);
      if (!course.ok) throw bad(t.people.refusals.badCourse);
      const reason = readReason(input.reason);
      if (!reason.ok) throw bad(t.people.reasonProblems[reason.problem]);
      const outcome = await grantCourse(runtime.db, person.userId, id, course.id, reason.reason);
      if (outcome.status === 'unknown') throw gone(t);
      if (outcome.status === 'unknownCourse') throw new ActionError({ code: 'NOT_FOUND', message: t.people.refusals.unknownCourse });
      if (outcome.status === 'unpublished') throw bad(t.people.refusals.unpublished);
      if (outcome.status === 'held') throw conflict(t.people.refusals.held);
      return { message: t.people.done.granted, grantId: outcome.grantId, changed: outcome.changed };
    },
  }),
};
