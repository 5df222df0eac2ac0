/**
 * Account actions: login, logout, registration, password reset, and the session check islands call
 * (spec "verify"). Each is a thin call into `src/lib/identity`; forms post here with or without
 * JavaScript. Failures carry a sentence in the page's language (the hidden `lang` field) or, for bad
 * input, the field error codes of the form's schema; never a 500.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { ActionError, type ActionAPIContext } from 'astro:actions';
import { defineAction } from './define';
import { format, messages, type Locale } from '~/i18n';
import type { Db } from '~/lib/db';
import { SESSION_COOKIE } from '~/lib/http/page-cache';
import { loginDelayMs } from '~/lib/http/rate-limit';
import type { HitResult, LimitName } from '~/lib/http/rate-limit.server';
import {
  afterLogin,
  attributeReferral,
  authenticate,
  createPasswordReset,
  createSession,
  destroySession,
  hashToken,
  forgotFormSchema,
  loginFormSchema,
  loginUrl,
  minutesFrom,
  passwordResetMail,
  registerAccount,
  registerSchema,
  resetFormSchema,
  resetPassword,
  RESET_TTL_MINUTES,
  sessionCookieOptions,
  storedUser,
  type SessionStart,
} from '~/lib/identity';
import { REFERRAL_COOKIE } from '~/lib/identity/referral';
import { localePath, paths } from '~/lib/paths';
import { z } from '~/lib/zod';

const database = (ctx: ActionAPIContext): Db => ctx.locals.runtime.db;

/** The client's address for per-address limits (behind a proxy, as Astro's allowed domains say). */
export function address(ctx: ActionAPIContext): string {
  try {
    return ctx.clientAddress || 'unknown';
  } catch {
    return 'unknown';
  }
}

/** Counts one attempt against each limit; the first one used up answers 429 with when to retry. */
async function limit(ctx: ActionAPIContext, locale: Locale, checks: [LimitName, string][]): Promise<void> {
  for (const [name, key] of checks) {
    let verdict: HitResult;
    try {
      verdict = await ctx.locals.runtime.rateLimiter.hit(name, key);
    } catch (err) {
      // The limiter's store failed (Redis away and no insurance left): log it, do not lock everyone out.
      ctx.logger.error(`rate limit ${name} unavailable: ${(err as Error).message}`);
      continue;
    }
    if (!verdict.ok) {
      ctx.locals.retryAfterSeconds = verdict.retryAfterSeconds;
      throw new ActionError({ code: 'TOO_MANY_REQUESTS', message: format(messages(locale).identity.login.tooManyAttempts, { minutes: minutesFrom(verdict.retryAfterSeconds) }) });
    }
  }
}

/**
 * Holds a login while its account is under attack: past `loginPerAccount` wrong passwords from all
 * addresses together, each attempt waits longer (`loginDelayMs`), but it is never refused, so nobody
 * can lock the owner out by failing on purpose. A limiter store that fails only skips the wait.
 */
async function holdIfUnderAttack(ctx: ActionAPIContext, account: string): Promise<void> {
  try {
    const limiter = ctx.locals.runtime.rateLimiter;
    const wait = loginDelayMs(await limiter.used('loginPerAccount', account), limiter.limit('loginPerAccount').points);
    if (wait > 0) await sleep(wait);
  } catch (err) {
    ctx.logger.error(`rate limit loginPerAccount unavailable: ${(err as Error).message}`);
  }
}

/** Counts a wrong password against the account from every address (the count behind the wait). */
async function countWrongPassword(ctx: ActionAPIContext, account: string): Promise<void> {
  try {
    await ctx.locals.runtime.rateLimiter.hit('loginPerAccount', account);
  } catch (err) {
    ctx.logger.error(`rate limit loginPerAccount unavailable: ${(err as Error).message}`);
  }
}

/** Replaces whatever session the browser had (no session fixation) with a new one. */
async function startSession(ctx: ActionAPIContext, db: Db, start: SessionStart): Promise<void> {
  await endSession(ctx);
  const { token, expiresAt } = await createSession(db, start);
  ctx.cookies.set(SESSION_COOKIE, token, sessionCookieOptions(ctx.url.protocol === 'https:', expiresAt));
}

/** Ends the browser's session, if any, in the database and in every process's session cache. */
async function endSession(ctx: ActionAPIContext): Promise<void> {
  const token = ctx.cookies.get(SESSION_COOKIE)?.value;
  if (!token) return;
  await destroySession(database(ctx), token);
  await ctx.locals.runtime.sessionChanged({ tokenHash: hashToken(token) });
}

/** The site's public origin for links in e-mails: `PUBLIC_URL`, or an allowed host; never a Host header a stranger chose. */
function publicOrigin(ctx: ActionAPIContext): string {
  return ctx.locals.runtime.siteOrigin(ctx.url);
}

export const auth = {
  /**
   * Logs in with e-mail and password (spec section 5). Wrong password, unknown address and a refused
   * user type get the same message after the same work. Limits: attempts per address, and wrong
   * passwords per account from one address (429 for that pair only); wrong passwords to an account from
   * every address together only slow its logins down, so a stranger cannot lock the owner out.
   */
  login: defineAction({
    accept: 'form',
    input: loginFormSchema,
    handler: async ({ email, password, lang, next }, ctx) => {
      const t = messages(lang).identity;
      const account = email.toLowerCase();
      const pair = JSON.stringify([account, address(ctx)]);
      // The pair's attempt is counted up front (so parallel guesses cannot slip past) and forgiven on success.
      await limit(ctx, lang, [
        ['loginPerAddress', address(ctx)],
        ['loginPerAccountAddress', pair],
      ]);
      await holdIfUnderAttack(ctx, account);
      const db = database(ctx);
      const outcome = await authenticate(db, email, password);
      if (outcome.status !== 'ok') {
        await countWrongPassword(ctx, account);
        throw new ActionError({ code: 'BAD_REQUEST', message: t.login.invalidCredentials });
      }
      await ctx.locals.runtime.rateLimiter.forgive('loginPerAccountAddress', pair).catch(() => undefined);
      await startSession(ctx, db, { kind: 'user', userId: outcome.user.id });
      await attributeReferral(db, ctx.cookies.get(REFERRAL_COOKIE)?.value, outcome.user.id);
      return { user: storedUser(outcome.user), next: afterLogin(next, localePath(lang, paths.home)) };
    },
  }),

  /** Ends the session (user or IBO); the browser then forgets user, IBO and prospect. */
  logout: defineAction({
    accept: 'form',
    input: z.object({ lang: loginFormSchema.shape.lang }),
    handler: async ({ lang }, ctx) => {
      await endSession(ctx);
      ctx.cookies.delete(SESSION_COOKIE, { path: '/' });
      // The page rendered for this request (a post without JavaScript) must not show the old session.
      ctx.locals.session = null;
      ctx.locals.identity = null;
      return { next: localePath(lang, paths.home) };
    },
  }),

  /** Creates an account (spec section 5 rules) and logs it in. An address in use is a field error. */
  register: defineAction({
    accept: 'form',
    input: registerSchema,
    handler: async (form, ctx) => {
      await limit(ctx, form.lang, [['registerPerAddress', address(ctx)]]);
      const db = database(ctx);
      const outcome = await registerAccount(db, form);
      if (outcome.status === 'emailTaken') throw new ActionError({ code: 'CONFLICT', message: 'emailTaken' });
      await startSession(ctx, db, { kind: 'user', userId: outcome.user.id });
      await attributeReferral(db, ctx.cookies.get(REFERRAL_COOKIE)?.value, outcome.user.id);
      return { user: storedUser(outcome.user), next: afterLogin(form.next, localePath(form.lang, paths.home)) };
    },
  }),

  /**
   * Sends a single-use reset link to the account of an address. Answers the same whether or not the
   * account exists, and before the mail is out, so neither the text nor the timing tells.
   */
  requestReset: defineAction({
    accept: 'form',
    input: forgotFormSchema,
    handler: async ({ email, lang }, ctx) => {
      const t = messages(lang).identity;
      await limit(ctx, lang, [
        ['resetPerAddress', address(ctx)],
        ['resetPerAccount', email.toLowerCase()],
      ]);
      const reset = await createPasswordReset(database(ctx), email);
      if (reset) {
        const link = new URL(localePath(lang, paths.resetPassword(reset.token)), publicOrigin(ctx)).href;
        const mail = passwordResetMail({ name: reset.user.firstName, email: reset.user.email }, link, t.reset.mail);
        void ctx.locals.runtime.mailer.send(mail).catch((err: unknown) => ctx.logger.error(`password reset mail for user #${reset.user.id} not sent: ${(err as Error).message}`));
      }
      return { message: format(t.forgot.sent, { email, minutes: RESET_TTL_MINUTES }) };
    },
  }),

  /** Sets a new password with a reset link's token; every session of the account ends. */
  resetPassword: defineAction({
    accept: 'form',
    input: resetFormSchema,
    handler: async ({ token, password, lang }, ctx) => {
      await limit(ctx, lang, [['resetPerAddress', address(ctx)]]);
      const outcome = await resetPassword(database(ctx), token, password);
      if (outcome.status !== 'ok') throw new ActionError({ code: 'BAD_REQUEST', message: messages(lang).identity.reset.invalidLink });
      // Every process forgets the account's sessions at once (their sockets are hung up too).
      await ctx.locals.runtime.sessionChanged({ userId: outcome.userId });
      // This browser's session, if any, ended with the others.
      ctx.cookies.delete(SESSION_COOKIE, { path: '/' });
      return { next: loginUrl(lang, undefined, 'passwordChanged') };
    },
  }),

  /**
   * Who the session is (spec "verify"): 401 when there is none, so the island that asked clears the
   * stored identity and goes home. Protected pages check on the server; islands ask this.
   */
  verify: defineAction({
    handler: async (_input, ctx) => {
      const session = ctx.locals.session;
      if (!session) throw new ActionError({ code: 'UNAUTHORIZED', message: 'session' });
      return {
        user: session.user ? storedUser(session.user) : null,
        ibo: session.ibo ? { companyName: session.ibo.companyName, code: session.ibo.code, imageUrl: session.ibo.imageUrl } : null,
        contact: session.prospect,
      };
    },
  }),
};
