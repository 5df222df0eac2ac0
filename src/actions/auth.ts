/**
 * Account actions: login, logout, registration, password reset, and the session check islands call
 * (`verify`). Each is a thin call into `src/lib/identity`; forms post here with or without
 * JavaScript. Failures carry a sentence in the page's language (the hidden `lang` field) or, for bad
 * input, the field error codes of the form's schema; never a 500. Access, limits and language are
 * declared in `access.ts`.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { ActionError, type ActionAPIContext } from 'astro:actions';
import { action, clientAddress, type Kit, type Refusals } from './kit';
import { sendVerification } from './account';
import { format, messages } from '~/i18n';
import type { Db } from '~/lib/db';
import { SESSION_COOKIE } from '~/lib/http/page-cache';
import { loginDelayMs } from '~/lib/http/rate-limit';
import type { Change } from '~/lib/runtime/changes';
import {
  afterLogin,
  attributeReferral,
  authenticate,
  createPasswordReset,
  createSession,
  createVerification,
  destroySession,
  forgotFormSchema,
  loginFormSchema,
  loginUrl,
  passwordResetMail,
  registerAccount,
  registerSchema,
  resetFormSchema,
  resetPassword,
  RESET_TTL_MINUTES,
  sessionCookieOptions,
  storedUser,
  type ResetRequest,
  type SessionStart,
} from '~/lib/identity';
import type { Locale } from '~/i18n/locales';
import type { Runtime } from '~/lib/runtime/runtime.server';
import { REFERRAL_COOKIE } from '~/lib/identity/referral';
import { inPreferredLanguage, mailLocale } from '~/lib/identity/account';
import { localePath, paths } from '~/lib/paths';
import { cancelDeletion } from '~/lib/privacy';
import { settleSignUpSharing } from '~/lib/business';
import { factorState, rolesOf } from '~/lib/staff';
import { z } from '~/lib/zod';

/** Every account action's 429: "too many attempts, wait N minutes". */
const refusals: Refusals = { tooMany: (t) => t.identity.login.tooManyAttempts };

/**
 * Holds a login while its account is under attack: past `loginPerAccount` wrong passwords from all
 * addresses together, each attempt waits longer (`loginDelayMs`), but it is never refused, so nobody
 * can lock the owner out by failing on purpose. Never a refusal, so a limiter store that fails only
 * skips the wait (the kit has logged it).
 */
async function holdIfUnderAttack(kit: Kit<'public'>): Promise<void> {
  const { limiter, key } = kit.limits;
  const used = await limiter.used('loginPerAccount', key('loginPerAccount')).catch(() => 0);
  const wait = loginDelayMs(used, limiter.limit('loginPerAccount').points);
  if (wait > 0) await sleep(wait);
}

/** Replaces whatever session the browser had (no session fixation) with a new one; the old one is the change. */
async function startSession(ctx: ActionAPIContext, db: Db, start: SessionStart): Promise<Change[]> {
  const ended = await endSession(ctx, db);
  // Where it was opened from, for the person's list of sessions (a device label, a masked address).
  const origin = { userAgent: ctx.request.headers.get('user-agent'), address: clientAddress(ctx) };
  const { token, expiresAt } = await createSession(db, start, new Date(), origin);
  ctx.cookies.set(SESSION_COOKIE, token, sessionCookieOptions(ctx.url.protocol === 'https:', expiresAt));
  return ended;
}

/** Ends the browser's session, if any, in the database; every process must then forget it. */
function endSession(ctx: ActionAPIContext, db: Db): Promise<Change[]> {
  return destroySession(db, ctx.cookies.get(SESSION_COOKIE)?.value);
}

/**
 * Mails a reset link (in the background: the answer never waits for the mail). The site's public origin:
 * `PUBLIC_URL`, or an allowed host; never a Host header a stranger chose. In the language the person
 * chose in their profile, else `lang` (the page's).
 */
export function sendResetMail(ctx: ActionAPIContext, runtime: Runtime, lang: Locale, reset: ResetRequest): void {
  const mailLang = mailLocale(reset.user.locale, lang);
  const link = new URL(localePath(mailLang, paths.resetPassword(reset.token)), runtime.siteOrigin(ctx.url)).href;
  const mail = passwordResetMail({ name: reset.user.firstName, email: reset.user.email }, link, messages(mailLang).identity.reset.mail);
  void runtime.mailer.send(mail).catch((err: unknown) => ctx.logger.error(`password reset mail for user #${reset.user.id} not sent: ${(err as Error).message}`));
}

export const auth = {
  /**
   * Logs in with e-mail and password (a valid e-mail, a password of at least 6 characters). Wrong password, unknown address and a refused
   * user type get the same message after the same work. Limits: wrong passwords per address (each
   * attempt counts up front; the right password gives its attempt back), and wrong passwords per account from one address (429 for that pair only); wrong passwords to an account from
   * every address together only slow its logins down, so a stranger cannot lock the owner out.
   */
  login: action('auth.login', {
    accept: 'form',
    input: loginFormSchema,
    refusals,
    handler: async ({ email, password, lang, next }, kit) => {
      const { ctx, runtime, limits } = kit;
      // The address's and the pair's attempts were counted up front by the kit (so parallel guesses cannot
      // slip past); the right password gives them back.
      await holdIfUnderAttack(kit);
      const db = runtime.db;
      const outcome = await authenticate(db, email, password, runtime.config.passwordHashCost);
      // The right password for a blocked account: told so in words, with the way to the contact page (no session).
      if (outcome.status === 'blocked') throw new ActionError({ code: 'FORBIDDEN', message: kit.t.identity.login.blocked });
      if (outcome.status !== 'ok') {
        // The count behind the wait: a wrong password against the account from every address (never a refusal).
        await limits.limiter.hit('loginPerAccount', limits.key('loginPerAccount')).catch(() => undefined);
        throw new ActionError({ code: 'BAD_REQUEST', message: kit.t.identity.login.invalidCredentials });
      }
      await limits.limiter.forgive('loginPerAccountAddress', limits.key('loginPerAccountAddress')).catch(() => undefined);
      // Only this login's attempt: a classroom behind one router is not locked out by its own logins, and
      // one known password cannot wipe the wrong guesses made from the same address.
      await limits.limiter.refund('loginPerAddress', limits.key('loginPerAddress')).catch(() => undefined);
      const changed = await startSession(ctx, db, { kind: 'user', userId: outcome.user.id });
      await attributeReferral(db, ctx.cookies.get(REFERRAL_COOKIE)?.value, outcome.user.id);
      // In the language the person chose in their profile (the browser remembers it too: `language`).
      const language = outcome.user.locale ?? null;
      // Logging in within the 14 days cancels a pending account deletion; "My data" tells the person so.
      const cancelled = await cancelDeletion(db, outcome.user.id);
      const then = inPreferredLanguage(cancelled ? localePath(lang, paths.myDataDeletionCancelled) : afterLogin(next, localePath(lang, paths.home)), language);
      // Staff: the session is an ordinary learner's until the second factor is proved (or set up).
      const factor = (await rolesOf(db, outcome.user.id)).length ? await factorState(db, outcome.user.id) : null;
      if (factor !== null) {
        // Where the login was going, unless only home: then the back office's dashboard.
        const onward = then === inPreferredLanguage(localePath(lang, paths.home), language) ? undefined : then;
        const page = factor === 'confirmed' ? paths.secondFactor(onward) : paths.secondFactorSetup;
        return { user: storedUser(outcome.user), next: inPreferredLanguage(localePath(lang, page), language), language, changed };
      }
      return { user: storedUser(outcome.user), next: then, language, changed };
    },
  }),

  /** Ends the session (user or IBO); the browser then forgets user, IBO and prospect. */
  logout: action('auth.logout', {
    accept: 'form',
    input: z.object({ lang: loginFormSchema.shape.lang }),
    handler: async ({ lang }, { ctx, runtime }) => {
      const changed = await endSession(ctx, runtime.db);
      ctx.cookies.delete(SESSION_COOKIE, { path: '/' });
      // The page rendered for this request (a post without JavaScript) must not show the old session.
      ctx.locals.session = null;
      ctx.locals.identity = null;
      return { next: localePath(lang, paths.home), changed };
    },
  }),

  /**
   * Creates an account (every rule of `registerSchema`) and logs it in; the link that confirms its
   * address is mailed. An address in use is a field error.
   */
  register: action('auth.register', {
    accept: 'form',
    input: registerSchema,
    refusals,
    handler: async (form, { ctx, runtime, locale }) => {
      const db = runtime.db;
      const outcome = await registerAccount(db, form, runtime.config.passwordHashCost);
      if (outcome.status === 'emailTaken') throw new ActionError({ code: 'CONFLICT', message: 'emailTaken' });
      const changed = await startSession(ctx, db, { kind: 'user', userId: outcome.user.id });
      // The account works at once; purchases and certificates wait for the address to be confirmed.
      const link = await createVerification(db, outcome.user.id);
      if (link) sendVerification(ctx, runtime, locale, link);
      await attributeReferral(db, ctx.cookies.get(REFERRAL_COOKIE)?.value, outcome.user.id);
      // The consent box, stored only when an IBO is involved (the referral just attributed, or the prospect claimed).
      await settleSignUpSharing(db, outcome.user.id, { offered: form.iboSharingOffered, ticked: form.iboSharing });
      return { user: storedUser(outcome.user), next: afterLogin(form.next, localePath(form.lang, paths.home)), changed };
    },
  }),

  /**
   * Sends a single-use reset link to the account of an address. Answers the same whether or not the
   * account exists, and before the mail is out, so neither the text nor the timing tells.
   */
  requestReset: action('auth.requestReset', {
    accept: 'form',
    input: forgotFormSchema,
    refusals,
    handler: async ({ email, lang }, { ctx, runtime, t }) => {
      const reset = await createPasswordReset(runtime.db, email);
      if (reset) sendResetMail(ctx, runtime, lang, reset);
      return { message: format(t.identity.forgot.sent, { email, minutes: RESET_TTL_MINUTES }) };
    },
  }),

  /** Sets a new password with a reset link's token; every session of the account ends. */
  resetPassword: action('auth.resetPassword', {
    accept: 'form',
    input: resetFormSchema,
    refusals,
    handler: async ({ token, password, lang }, { ctx, runtime, t }) => {
      const outcome = await resetPassword(runtime.db, token, password, new Date(), runtime.config.passwordHashCost);
      if (outcome.status !== 'ok') throw new ActionError({ code: 'BAD_REQUEST', message: t.identity.reset.invalidLink });
      // This browser's session, if any, ended with the others (the outcome's change tells every process).
      ctx.cookies.delete(SESSION_COOKIE, { path: '/' });
      return { next: loginUrl(lang, undefined, 'passwordChanged'), changed: outcome.changed };
    },
  }),

  /**
   * Who the session is (`verify`): 401 when there is none, so the island that asked clears the
   * stored identity and goes home. Protected pages check on the server; islands ask this.
   */
  verify: action('auth.verify', {
    handler: (_input, { person, unauthorized }) => {
      const session = person.session;
      if (!session) throw unauthorized();
      return {
        user: session.user ? storedUser(session.user) : null,
        ibo: session.ibo ? { companyName: session.ibo.companyName, code: session.ibo.code, imageUrl: session.ibo.imageUrl } : null,
        contact: session.prospect,
      };
    },
  }),
};
