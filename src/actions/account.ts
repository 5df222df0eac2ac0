/**
 * The logged-in person's own account: their profile (name, gender, birth date), its security (the
 * password, the e-mail address, the open sessions), their consent to be shown to their IBO, and the confirmation of an address by its e-mailed
 * link. Thin calls into `src/lib/identity`; the forms post here with or without JavaScript. Access,
 * limits and language are declared in `access.ts`.
 */
import { ActionError, type ActionAPIContext } from 'astro:actions';
import { action, type Refusals } from './kit';
import { DEFAULT_LOCALE, format, LOCALES, messages, plural } from '~/i18n';
import { SESSION_COOKIE } from '~/lib/http/page-cache';
import {
  changeEmailSchema,
  changePassword,
  changePasswordSchema,
  CHANGE_TTL_HOURS,
  createVerification,
  emailChangeMail,
  emailChangeNotice,
  mailLocale,
  emailTokenSchema,
  endOtherSessions,
  endOwnSession,
  langOnlySchema,
  openEmailLink,
  parseCrop,
  photoRefusalStatus,
  profileSchema,
  removePhoto,
  requestEmailChange,
  savePhoto,
  sessionIdSchema,
  updateProfile,
  verificationMail,
  type EmailLink,
  type PhotoRefusal,
} from '~/lib/identity';
import type { Locale } from '~/i18n/locales';
import type { Runtime } from '~/lib/runtime/runtime.server';
import { localePath, paths } from '~/lib/paths';
import { z } from '~/lib/zod';
import { parseShare, setIboSharing } from '~/lib/business';

/** The consent switch's form: `share` (checked by `parseShare`, so a bad value gets a sentence) and the page's language; nothing names a person. */
const iboSharingSchema = langOnlySchema.extend({ share: z.unknown().optional() });

/** The action error of a refused photo: 413 (too large), 415 (not JPEG, PNG or WebP) or 400, with its sentence. */
function photoError(reason: PhotoRefusal, message: string): ActionError {
  const status = photoRefusalStatus(reason);
  return new ActionError({ code: status === 413 ? 'CONTENT_TOO_LARGE' : status === 415 ? 'UNSUPPORTED_MEDIA_TYPE' : 'BAD_REQUEST', message });
}

/** The 429: "too many attempts, wait N minutes". */
const refusals: Refusals = { tooMany: (t) => t.identity.login.tooManyAttempts };

/** Sends a mail in the background; a failure is logged (the link can be asked for again). */
function sendLater(ctx: ActionAPIContext, runtime: Runtime, mail: Parameters<Runtime['mailer']['send']>[0], what: string): void {
  void runtime.mailer.send(mail).catch((err: unknown) => ctx.logger.error(`${what} not sent: ${(err as Error).message}`));
}

/** The absolute URL of an e-mail link (the site's public origin, never a Host header a stranger chose). */
export function emailLinkUrl(ctx: ActionAPIContext, runtime: Runtime, locale: Locale, token: string): string {
  return new URL(localePath(locale, paths.confirmEmail(token)), runtime.siteOrigin(ctx.url)).href;
}

/** Sends the link that confirms the account's address (after sign-up, or asked for again), in the person's preferred language, else `locale` (the page's). */
export function sendVerification(ctx: ActionAPIContext, runtime: Runtime, locale: Locale, link: EmailLink): void {
  const lang = mailLocale(link.locale, locale);
  sendLater(ctx, runtime, verificationMail({ name: link.name, email: link.to }, emailLinkUrl(ctx, runtime, lang, link.token), messages(lang).security.mail), 'address confirmation mail');
}

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
   * Changes the password when the current one is right (400 with a sentence otherwise; every attempt
   * counts against `passwordChangesPerAccount`). Every other session of the person ends, on every
   * process; this one stays.
   */
  changePassword: action('account.changePassword', {
    accept: 'form',
    input: changePasswordSchema,
    refusals,
    handler: async (form, { runtime, person, t, unauthorized }) => {
      const outcome = await changePassword(runtime.db, person.userId, person.session.tokenHash, form.currentPassword, form.password, new Date(), runtime.config.passwordHashCost);
      if (outcome.status === 'gone') throw unauthorized();
      if (outcome.status === 'wrongPassword') throw new ActionError({ code: 'BAD_REQUEST', message: t.security.password.wrongPassword });
      return { message: t.security.password.changed, changed: outcome.changed };
    },
  }),

  /**
   * Asks to move the account to another address: a single-use link goes to the new address, a notice
   * to the current one; nothing changes until the link is opened. A wrong current password: 400; an
   * address another account holds: 409 `emailTaken` (what registration says, no more).
   */
  changeEmail: action('account.changeEmail', {
    accept: 'form',
    input: changeEmailSchema,
    refusals,
    handler: async (form, { ctx, runtime, person, locale, t, unauthorized }) => {
      const outcome = await requestEmailChange(runtime.db, person.userId, form.currentPassword, form.email);
      if (outcome.status === 'gone') throw unauthorized();
      if (outcome.status === 'wrongPassword') throw new ActionError({ code: 'BAD_REQUEST', message: t.security.password.wrongPassword });
      if (outcome.status === 'same') throw new ActionError({ code: 'BAD_REQUEST', message: t.security.email.same });
      if (outcome.status === 'taken') throw new ActionError({ code: 'CONFLICT', message: 'emailTaken' });
      const { link } = outcome;
      // Both in the language the person chose in their profile, else the page's.
      const lang = mailLocale(link.locale, locale);
      const mails = messages(lang).security.mail;
      sendLater(ctx, runtime, emailChangeMail({ name: link.name, email: link.to }, emailLinkUrl(ctx, runtime, lang, link.token), mails), 'address change link');
      sendLater(ctx, runtime, emailChangeNotice({ name: link.name, email: link.current }, link.to, mails), 'address change notice');
      return { message: format(t.security.email.sent, { email: link.to, hours: CHANGE_TTL_HOURS }) };
    },
  }),

  /**
   * Logs out one of the person's sessions, named by its id on the security page. Someone else's (or an
   * unknown) id: 404 with a sentence, nothing ended. Logging out this very session clears its cookie.
   */
  endSession: action('account.endSession', {
    accept: 'form',
    input: sessionIdSchema,
    refusals,
    handler: async ({ session }, { ctx, runtime, person, t }) => {
      const outcome = await endOwnSession(runtime.db, person.userId, session, person.session.tokenHash);
      if (outcome.status === 'notFound') throw new ActionError({ code: 'NOT_FOUND', message: t.security.sessions.notFound });
      if (outcome.current) {
        ctx.cookies.delete(SESSION_COOKIE, { path: '/' });
        ctx.locals.session = null;
        ctx.locals.identity = null;
      }
      return { message: t.security.sessions.ended, current: outcome.current, changed: outcome.changed };
    },
  }),

  /** Logs out every session of the person but this one. */
  endOtherSessions: action('account.endOtherSessions', {
    accept: 'form',
    input: langOnlySchema,
    refusals,
    handler: async (_form, { runtime, person, locale, t }) => {
      const outcome = await endOtherSessions(runtime.db, person.userId, person.session.tokenHash);
      return { message: plural(locale, t.security.sessions.endedOthers, outcome.ended), ended: outcome.ended, changed: outcome.changed };
    },
  }),

  /** Sends the link that confirms the account's address again (an address already confirmed: says so, sends nothing). */
  resendVerification: action('account.resendVerification', {
    accept: 'form',
    input: langOnlySchema,
    refusals,
    handler: async (_form, { ctx, runtime, person, locale, t }) => {
      const link = await createVerification(runtime.db, person.userId);
      if (!link) return { message: t.security.verify.already, sent: false };
      sendVerification(ctx, runtime, locale, link);
      return { message: format(t.security.verify.resent, { email: link.to }), sent: true };
    },
  }),

  /**
   * Opens an e-mailed link: confirms the address, or moves the account to its new one. A reused,
   * expired or unknown link: 400 with a sentence, nothing changed; a new address another account took
   * meanwhile: 409, nothing changed.
   */
  confirmEmail: action('account.confirmEmail', {
    accept: 'form',
    input: emailTokenSchema,
    refusals,
    handler: async ({ token }, { runtime, t }) => {
      const outcome = await openEmailLink(runtime.db, token);
      if (outcome.status === 'invalid') throw new ActionError({ code: 'BAD_REQUEST', message: t.security.verify.invalidLink });
      if (outcome.status === 'taken') throw new ActionError({ code: 'CONFLICT', message: t.security.verify.taken });
      const message = outcome.status === 'verified' ? t.security.verify.verified : format(t.security.verify.changed, { email: outcome.email });
      return { message, status: outcome.status, changed: outcome.changed };
    },
  }),

  /**
   * Keeps a new profile photo (a multipart form, with or without JavaScript): the file's bytes must be
   * JPEG, PNG or WebP of at most `PHOTO_MAX_BYTES` and `PHOTO_MAX_PIXELS`; the server keeps its own
   * square WebP of it. A refusal is a sentence with 400, 413 or 415 and nothing is stored.
   */
  setPhoto: action('account.setPhoto', {
    accept: 'form',
    input: z.object({ photo: z.unknown(), cropX: z.unknown(), cropY: z.unknown(), cropSize: z.unknown(), lang: z.enum(LOCALES).catch(DEFAULT_LOCALE) }),
    refusals,
    handler: async ({ photo, cropX, cropY, cropSize }, { runtime, person, t, unauthorized }) => {
      // The square chosen in the browser (none without JavaScript: the centre), checked against the real picture.
      const crop = parseCrop(cropX, cropY, cropSize);
      if (crop === 'invalid') throw photoError('badCrop', t.identity.photo.errors.badCrop);
      const file = photo instanceof File ? { size: photo.size, bytes: new Uint8Array(await photo.arrayBuffer()) } : null;
      const outcome = await savePhoto(runtime.db, runtime.storage, person.userId, file ?? { size: 0, bytes: new Uint8Array() }, crop);
      if (outcome.status === 'unknownUser') throw unauthorized();
      if (outcome.status === 'refused') throw photoError(outcome.reason, t.identity.photo.errors[outcome.reason]);
      return { imageUrl: outcome.imageUrl, changed: outcome.changed };
    },
  }),

  /**
   * The caller's choice to be shown to the IBOs they are related to (`share=true|false`), stored on their
   * own row only: the session names it, and any other field (a forged `userId` or `contactId`) is
   * ignored. Any other value: 400 with a sentence; a person related to no IBO: 409 with a sentence;
   * nothing stored either way. Recorded in the audit trail.
   */
  setIboSharing: action('account.setIboSharing', {
    accept: 'form',
    input: iboSharingSchema,
    refusals: { tooMany: (t) => t.myData.iboSharing.tooMany },
    handler: async ({ share }, { runtime, person, t, unauthorized }) => {
      const choice = parseShare(share);
      if (choice === null) throw new ActionError({ code: 'BAD_REQUEST', message: t.myData.iboSharing.invalid });
      const outcome = await setIboSharing(runtime.db, person.userId, choice);
      if (outcome.status === 'unknownUser') throw unauthorized();
      if (outcome.status === 'noIbo') throw new ActionError({ code: 'CONFLICT', message: t.myData.iboSharing.noIbo });
      return { sharing: outcome.choice, message: outcome.choice ? t.myData.iboSharing.allowed : t.myData.iboSharing.stopped, changed: outcome.changed };
    },
  }),

  /**
   * Removes the caller's photo (the file and the account's link to it); the header and menu show their
   * initials. Nothing to remove answers the same (`removed: false`). A plain form, without JavaScript too.
   */
  removePhoto: action('account.removePhoto', {
    accept: 'form',
    input: langOnlySchema,
    refusals,
    handler: async (_form, { runtime, person, t, unauthorized }) => {
      const outcome = await removePhoto(runtime.db, runtime.storage, person.userId);
      if (outcome.status === 'unknownUser') throw unauthorized();
      return { removed: outcome.removed, message: t.identity.photo.removed, changed: outcome.changed };
    },
  }),
};
