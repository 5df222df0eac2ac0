/** IBO actions: entering with an IBO code, looking a prospect up, confirming a prospect. */
import { ActionError, type ActionAPIContext } from 'astro:actions';
import { defineAction } from './define';
import { z } from '~/lib/zod';
import { address } from './auth';
import { format, LOCALES, messages, type Locale } from '~/i18n';
import { SESSION_COOKIE } from '~/lib/http/page-cache';
import type { LimitName } from '~/lib/http/rate-limit.server';
import { INVALID_CHARACTERS } from '~/lib/forms/forms';
import {
  canConfirmProspect,
  checkIboCode,
  confirmProspect,
  createSession,
  customerExists,
  destroySession,
  findActiveIbo,
  hashToken,
  iboCodeProblem,
  PROSPECT_LIMITS,
  prospectEmailSchema,
  prospectSchema,
  sessionCookieOptions,
} from '~/lib/identity';

const lang = z.enum(LOCALES).default('es');
/** Overlong input is cut to a bound the rules then refuse, so nothing huge reaches the database. */
const text = (max: number) =>
  z
    .string()
    .max(max * 4)
    .nullish()
    .transform((v) => v ?? '');

function ibosOnly(ctx: ActionAPIContext, locale: Locale) {
  const session = ctx.locals.session;
  if (!session || session.identity.kind !== 'ibo' || !session.ibo) throw new ActionError({ code: 'UNAUTHORIZED', message: messages(locale).ibo.needsIbo });
  return { session, ibo: session.ibo };
}

/** Counts one attempt against each limit; the first one used up answers 429 in the page's language. */
async function limited(ctx: ActionAPIContext, locale: Locale, checks: [LimitName, string][]) {
  for (const [name, key] of checks) {
    const r = await ctx.locals.runtime.rateLimiter.hit(name, key);
    if (!r.ok) {
      ctx.locals.retryAfterSeconds = r.retryAfterSeconds;
      throw new ActionError({ code: 'TOO_MANY_REQUESTS', message: messages(locale).ibo.tooMany });
    }
  }
}

/** The sentence for a prospect field's error code ("{field} field is required" …). */
function fieldMessage(locale: Locale, field: 'firstName' | 'lastName' | 'email', code: string): string {
  const t = messages(locale).ibo;
  if (code === 'required') return format(t.fieldRequired, { field: t[field] });
  if (code === INVALID_CHARACTERS) return format(t.invalidCharacters, { field: t[field] });
  if (code === 'tooLong') return format(t.tooLong, { max: field === 'email' ? PROSPECT_LIMITS.email : PROSPECT_LIMITS.name });
  return t.emailInvalid;
}

export const ibo = {
  /** Starts an IBO session from a code (welcome modal, /guest); invalid codes count per address. */
  enter: defineAction({
    accept: 'form',
    input: z.object({ code: text(50), lang }),
    handler: async ({ code, lang: locale }, ctx) => {
      const t = messages(locale).ibo;
      if (iboCodeProblem(code) === 'required') throw new ActionError({ code: 'BAD_REQUEST', message: t.required });
      const { db, rateLimiter } = ctx.locals.runtime;
      const checked = await checkIboCode(db, rateLimiter, code, address(ctx));
      if (checked.status === 'limited') throw new ActionError({ code: 'TOO_MANY_REQUESTS', message: t.tooMany });
      if (checked.status === 'invalid') throw new ActionError({ code: 'NOT_FOUND', message: t.notFound });
      const found = checked.ibo;
      const old = ctx.cookies.get(SESSION_COOKIE)?.value;
      if (old) {
        await destroySession(db, old);
        await ctx.locals.runtime.sessionChanged({ tokenHash: hashToken(old) });
      }
      const { token, expiresAt } = await createSession(db, { kind: 'ibo', iboId: found.id });
      ctx.cookies.set(SESSION_COOKIE, token, sessionCookieOptions(ctx.url.protocol === 'https:', expiresAt));
      return { ibo: { companyName: found.companyName, code: found.code, imageUrl: found.imageUrl }, message: format(t.welcome, { company: found.companyName }) };
    },
  }),

  /** Whether a customer with this e-mail exists (yes or no only), for the prospect form. */
  lookup: defineAction({
    accept: 'json',
    input: z.object({ email: z.string().max(400), lang }),
    handler: async ({ email, lang: locale }, ctx) => {
      ibosOnly(ctx, locale);
      const parsed = prospectEmailSchema.safeParse(email);
      if (!parsed.success) throw new ActionError({ code: 'BAD_REQUEST', message: fieldMessage(locale, 'email', parsed.error.issues[0]?.message ?? 'email') });
      await limited(ctx, locale, [['lookupPerAddress', address(ctx)]]);
      return { found: await customerExists(ctx.locals.runtime.db, parsed.data) };
    },
  }),

  /**
   * Confirms the prospect of the IBO session: creates the IBO's prospect, or reuses its own. An e-mail
   * of anyone else (a registered customer, another IBO's prospect) is refused with one message that
   * does not say which, and the session keeps no one. Limited per session and per address.
   */
  confirmProspect: defineAction({
    accept: 'form',
    input: z.object({ firstName: text(PROSPECT_LIMITS.name), lastName: text(PROSPECT_LIMITS.name), email: text(PROSPECT_LIMITS.email), lang }),
    handler: async (input, ctx) => {
      const locale = input.lang;
      const t = messages(locale).ibo;
      const { session, ibo: current } = ibosOnly(ctx, locale);
      await limited(ctx, locale, [
        ['confirmPerSession', session.tokenHash],
        ['confirmPerAddress', address(ctx)],
      ]);
      const { db } = ctx.locals.runtime;
      const emailOnly = prospectEmailSchema.safeParse(input.email);
      const found = emailOnly.success && (await customerExists(db, emailOnly.data));
      if (!canConfirmProspect(input, found)) {
        const field = (['firstName', 'lastName', 'email'] as const).find((f) => input[f].trim() === '') ?? 'email';
        throw new ActionError({ code: 'BAD_REQUEST', message: fieldMessage(locale, field, 'required') });
      }
      let data: { email: string } | z.infer<typeof prospectSchema>;
      if (found && emailOnly.success) data = { email: emailOnly.data };
      else {
        const parsed = prospectSchema.safeParse(input);
        if (!parsed.success) {
          const issue = parsed.error.issues[0]!;
          throw new ActionError({ code: 'BAD_REQUEST', message: fieldMessage(locale, issue.path[0] as 'firstName', issue.message) });
        }
        data = parsed.data;
      }
      const full = await findActiveIbo(db, current.code);
      if (!full) throw new ActionError({ code: 'UNAUTHORIZED', message: t.notFound });
      const outcome = await confirmProspect(db, { tokenHash: session.tokenHash, ibo: full }, data);
      if (outcome.status === 'not-own-prospect') throw new ActionError({ code: 'CONFLICT', message: t.notYourProspect });
      if (outcome.status !== 'confirmed') throw new ActionError({ code: 'BAD_REQUEST', message: t.unknownCustomer });
      // The session now names its prospect: every process reads it again.
      await ctx.locals.runtime.sessionChanged({ tokenHash: session.tokenHash });
      return { contact: outcome.contact, message: t.confirmed };
    },
  }),
};
