/**
 * IBO actions: entering with an IBO code, looking a prospect up, confirming a prospect. Access, limits
 * and language are declared in `access.ts`.
 */
import { ActionError } from 'astro:actions';
import { action, type Refusals } from './kit';
import { z } from '~/lib/zod';
import { format, LOCALES, messages, type Locale } from '~/i18n';
import { SESSION_COOKIE } from '~/lib/http/page-cache';
import { INVALID_CHARACTERS } from '~/lib/forms/forms';
import {
  canConfirmProspect,
  checkIboCode,
  confirmProspect,
  createSession,
  customerExists,
  destroySession,
  findActiveIbo,
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

/** Every IBO action's 429: "too many attempts, wait a few minutes" (its 401 is the kit's "enter with an IBO code first"). */
const refusals: Refusals = { tooMany: (t) => t.ibo.tooMany };

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
  enter: action('ibo.enter', {
    accept: 'form',
    input: z.object({ code: text(50), lang }),
    refusals,
    handler: async ({ code }, { ctx, runtime, limits, t: messages, tooMany }) => {
      const t = messages.ibo;
      if (iboCodeProblem(code) === 'required') throw new ActionError({ code: 'BAD_REQUEST', message: t.required });
      const { db } = runtime;
      // Invalid codes count per address (`codePerAddress`, shared with affiliate links); a valid one gives its attempt back.
      const checked = await checkIboCode(db, limits.limiter, code, limits.key('codePerAddress'));
      if (checked.status === 'limited') throw tooMany(checked.retryAfterSeconds);
      if (checked.status === 'invalid') throw new ActionError({ code: 'NOT_FOUND', message: t.notFound });
      const found = checked.ibo;
      const changed = await destroySession(db, ctx.cookies.get(SESSION_COOKIE)?.value);
      const { token, expiresAt } = await createSession(db, { kind: 'ibo', iboId: found.id });
      ctx.cookies.set(SESSION_COOKIE, token, sessionCookieOptions(ctx.url.protocol === 'https:', expiresAt));
      return { ibo: { companyName: found.companyName, code: found.code, imageUrl: found.imageUrl }, message: format(t.welcome, { company: found.companyName }), changed };
    },
  }),

  /** Whether a customer with this e-mail exists (yes or no only), for the prospect form. */
  lookup: action('ibo.lookup', {
    accept: 'json',
    input: z.object({ email: z.string().max(400), lang }),
    refusals,
    handler: async ({ email }, { locale, runtime }) => {
      const parsed = prospectEmailSchema.safeParse(email);
      if (!parsed.success) throw new ActionError({ code: 'BAD_REQUEST', message: fieldMessage(locale, 'email', parsed.error.issues[0]?.message ?? 'email') });
      return { found: await customerExists(runtime.db, parsed.data) };
    },
  }),

  /**
   * Confirms the prospect of the IBO session: creates the IBO's prospect, or reuses its own. An e-mail
   * of anyone else (a registered customer, another IBO's prospect) is refused with one message that
   * does not say which, and the session keeps no one. Limited per session and per address.
   */
  confirmProspect: action('ibo.confirmProspect', {
    accept: 'form',
    input: z.object({ firstName: text(PROSPECT_LIMITS.name), lastName: text(PROSPECT_LIMITS.name), email: text(PROSPECT_LIMITS.email), lang }),
    refusals,
    handler: async (input, { locale, person, runtime }) => {
      const t = messages(locale).ibo;
      const { db } = runtime;
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
      const full = await findActiveIbo(db, person.ibo.code);
      if (!full) throw new ActionError({ code: 'UNAUTHORIZED', message: t.notFound });
      const outcome = await confirmProspect(db, { tokenHash: person.tokenHash, ibo: full }, data);
      if (outcome.status === 'not-own-prospect') throw new ActionError({ code: 'CONFLICT', message: t.notYourProspect });
      if (outcome.status !== 'confirmed') throw new ActionError({ code: 'BAD_REQUEST', message: t.unknownCustomer });
      // The session now names its prospect: the outcome's change has every process read it again.
      return { contact: outcome.contact, message: t.confirmed, changed: outcome.changed };
    },
  }),
};
