/**
 * The one way to write an action. `action('area.name', { input, accept, handler })` reads the action's
 * declaration (`access.ts`: who may call it, its rate limits, where its language comes from) and, before
 * the handler runs:
 * - answers a caller without the access 401 (no session of the kind it needs) or 403 (logged in, but
 *   without the role), with a sentence in the action's language;
 * - counts one attempt against each declared limit (after the input's schema and the access check, so
 *   neither bad input nor a refused caller uses one up) and answers 429 once one is used up, with
 *   `Retry-After` and the minutes to wait in words;
 * - refuses the call as busy (503, "try again in a few seconds") when the limiter's store fails: the one
 *   policy for every limit, explained in `lib/http/action-limits.ts`;
 * and hands the handler a typed context: the person the access level guarantees, the language, its
 * messages, the runtime and the limit tools. A handler (or the domain function it calls) returns
 * `changed: Change[]` (`lib/runtime/changes.ts`) and the kit tells every process; the answer goes out
 * without it. A refusal that changed something first (a check that graded an exam attempt whose time
 * was up) is thrown as `refusal(error, changed)`: the kit tells those changes before it refuses.
 * Failures of the database answer 503 as `define.ts` says.
 */
import { ActionError, defineAction as astroDefineAction, type ActionAPIContext } from 'astro:actions';
import type * as z from 'zod/v4/core';
import { defineAction, DatabaseBusy } from './define';
import { ruleOf, type ActionName, type ActionRule, ACTION_RULES } from './access';
import { isLocale, messages, plural, type Locale, type Plural } from '~/i18n';
import type { Messages } from '~/i18n/types';
import { accessVerdict, callerOf } from '~/lib/access/policy';
import { keyPart, limitKey, minutesToWait, type KeyFacts } from '~/lib/http/action-limits';
import { guardLimiter } from '~/lib/http/limiter-guard';
import type { LimitName } from '~/lib/http/rate-limit';
import type { RateLimiter } from '~/lib/http/rate-limit.server';
import { requestLocale } from '~/lib/http/locale';
import { tellChanges, type Change } from '~/lib/runtime/changes';
import type { Runtime } from '~/lib/runtime/runtime.server';
import type { SessionInfo } from '~/lib/identity/session.server';
import { DEFAULT_LOCALE } from '~/i18n';
import { splitLocale } from '~/lib/paths';

/** The limiter's store failed: answered as busy (503) by the middleware; its message is for the log. */
export class LimiterUnavailable extends DatabaseBusy {}

/** Anyone: their session, if any. */
export interface PublicPerson {
  userId: number | null;
  contactId: number | null;
  session: SessionInfo | null;
}
/** A logged-in user (a learner, or staff). */
export interface UserPerson {
  userId: number;
  /** The user's own contact (progress, certificates); null for an account that has none. */
  contactId: number | null;
  session: SessionInfo & { user: NonNullable<SessionInfo['user']> };
}
/** A session opened with an IBO code. */
export interface IboPerson {
  iboId: number;
  /** The session's prospect, once confirmed. */
  contactId: number | null;
  tokenHash: string;
  ibo: NonNullable<SessionInfo['ibo']>;
  session: SessionInfo;
}

type AccessOf<N extends ActionName> = (typeof ACTION_RULES)[N]['access'];
type PersonFor<A> = A extends 'public' ? PublicPerson : A extends 'ibo' ? IboPerson : UserPerson;

/** The limit tools of a handler, keyed as the action declares. */
export interface LimitTools {
  /** The runtime's limiter under the kit's failing-store policy (a failure answers busy). */
  limiter: RateLimiter;
  /** The key a declared limit counts this call under. */
  key(name: LimitName): string;
  /** `[name, key]` of declared limits, for the commerce limits' take-and-give-back. */
  keys(...names: LimitName[]): [LimitName, string][];
  /** Counts one attempt against a declared limit; throws the 429 once it is used up. */
  hit(name: LimitName): Promise<void>;
}

/** What a handler is handed besides its input. */
export interface Kit<A> {
  /** The person the access level guarantees. */
  person: PersonFor<A>;
  locale: Locale;
  t: Messages;
  runtime: Runtime;
  /** The client's address (behind a proxy, as Astro's allowed domains say), or `unknown`. */
  address: string;
  limits: LimitTools;
  /** Astro's context: cookies, the URL, `locals`. */
  ctx: ActionAPIContext;
  /** A 401 with `message` (default: the action's "log in" sentence). */
  unauthorized(message?: string): ActionError;
  /** A 429 with `sentence` (the form for the whole minutes to wait; default: the action's), and Retry-After. */
  tooMany(retryAfterSeconds: number, sentence?: Plural | string): ActionError;
}

/** The sentences an action uses instead of the kit's own. */
export interface Refusals {
  /** 401: what to do to be allowed ("log in to take the exam"). */
  unauthorized?: (t: Messages) => string;
  /** 429: a sentence, or one that names the minutes to wait (`{ one, other }` with `{count}`). */
  tooMany?: (t: Messages) => Plural | string;
}

type InputOf<S> = S extends z.$ZodType ? z.output<S> : FormData;
/** What the caller gets: the handler's answer without its `changed`. */
type Answer<T> = T extends { changed?: readonly Change[] } ? Omit<T, 'changed'> : T;

interface Spec<N extends ActionName, TOutput, TAccept, S> {
  accept?: TAccept;
  input?: S;
  refusals?: Refusals;
  handler: (input: InputOf<S>, kit: Kit<AccessOf<N>>) => Promise<TOutput> | TOutput;
}

/** What each refusal made with `refusal` changed (beside the error: Astro sends an error's own fields to the caller). */
const refusalChanges = new WeakMap<object, readonly Change[]>();

/**
 * `error`, a refusal the handler throws after a domain function changed something anyway (`changed`,
 * as the domain function returned it): the kit tells every process of the changes, then refuses.
 */
export function refusal(error: ActionError, changed: readonly Change[]): ActionError {
  if (changed.length > 0) refusalChanges.set(error, changed);
  return error;
}

/** The client's address for per-address limits, or `unknown` (a request made inside the server has none). */
export function clientAddress(ctx: { readonly clientAddress: string }): string {
  try {
    return ctx.clientAddress || 'unknown';
  } catch {
    return 'unknown';
  }
}

/** The action's language: the input field its declaration names, else the page that called it, else the browser's. */
function localeOf(rule: ActionRule, input: unknown, ctx: ActionAPIContext): Locale {
  const named = rule.locale === 'request' ? null : keyPart(`input.${rule.locale}`, { address: '', sessionTokenHash: null, userId: null, contactId: null, input });
  if (isLocale(named)) return named;
  const referer = ctx.request.headers.get('referer');
  if (referer && URL.canParse(referer) && new URL(referer).origin === ctx.url.origin) {
    const from = splitLocale(new URL(referer).pathname).locale;
    if (from !== DEFAULT_LOCALE) return from;
  }
  return requestLocale(ctx.url, ctx.request.headers);
}

/** The person for an allowed caller of `access`. */
function personOf(access: string, session: SessionInfo | null): PublicPerson | UserPerson | IboPerson {
  if (access === 'public') return { userId: session?.user ? session.user.id : null, contactId: session?.identity.contactId ?? null, session };
  if (access === 'ibo') return { iboId: session!.ibo!.id, contactId: session!.identity.contactId, tokenHash: session!.tokenHash, ibo: session!.ibo!, session: session! };
  return { userId: session!.user!.id, contactId: session!.identity.contactId, session: session as UserPerson['session'] };
}

/** Defines action `name` as its declaration says (see the top of this file). */
export function action<N extends ActionName, TOutput, TAccept extends 'form' | 'json' | undefined = undefined, S extends z.$ZodType | undefined = undefined>(name: N, spec: Spec<N, TOutput, TAccept, S>) {
  const rule = ruleOf(name);
  if (!rule) throw new Error(`action ${name} declares no access: add it to src/actions/access.ts`);
  const handler = async (input: InputOf<S>, ctx: ActionAPIContext) => {
    const { runtime, session } = ctx.locals;
    const locale = localeOf(rule, input, ctx);
    const t = messages(locale);
    const tooMany = (retryAfterSeconds: number, sentence?: Plural | string) => {
      ctx.locals.retryAfterSeconds = retryAfterSeconds;
      const minutes = minutesToWait(retryAfterSeconds);
      const text = sentence ?? spec.refusals?.tooMany?.(t) ?? t.refusals.tooMany;
      return new ActionError({ code: 'TOO_MANY_REQUESTS', message: typeof text === 'string' ? text : plural(locale, text, minutes) });
    };
    const unauthorized = (message?: string) =>
      new ActionError({ code: 'UNAUTHORIZED', message: message ?? spec.refusals?.unauthorized?.(t) ?? (rule.access === 'ibo' ? t.ibo.needsIbo : t.refusals.login) });

    const verdict = accessVerdict(rule.access, callerOf(session));
    if (verdict === 'unauthorized') throw unauthorized();
    if (verdict === 'forbidden') throw new ActionError({ code: 'FORBIDDEN', message: t.refusals.forbidden });
    const person = personOf(rule.access, session);

    const address = clientAddress(ctx);
    const facts: KeyFacts = { address, sessionTokenHash: session?.tokenHash ?? null, userId: session?.user?.id ?? null, contactId: session?.identity.contactId ?? null, input };
    const limiter = guardLimiter(
      runtime.rateLimiter,
      (limit, err) => Object.assign(new LimiterUnavailable({ code: 'SERVICE_UNAVAILABLE', message: `rate limit ${limit} unavailable: ${(err as Error).message}` }), { cause: err }),
      (limit, err) => runtime.logger.error({ err, action: name }, `rate limit ${limit} unavailable`),
    );
    const key = (limit: LimitName): string => {
      const declared = rule.limits.find((l) => l.name === limit);
      if (!declared) throw new Error(`action ${name} counts ${limit}, which it does not declare in src/actions/access.ts`);
      const k = limitKey(declared, facts);
      if (k === null) throw new Error(`action ${name} cannot key ${limit} per ${String(declared.per)} for this caller`);
      return k;
    };
    const hit = async (limit: LimitName) => {
      const verdict = await limiter.hit(limit, key(limit));
      if (!verdict.ok) throw tooMany(verdict.retryAfterSeconds);
    };
    for (const l of rule.limits) if ((l.counted ?? 'kit') === 'kit') await hit(l.name);

    const kit: Kit<AccessOf<N>> = {
      person: person as PersonFor<AccessOf<N>>,
      locale,
      t,
      runtime,
      address,
      ctx,
      limits: { limiter, key, keys: (...names) => names.map((n) => [n, key(n)]), hit },
      unauthorized,
      tooMany,
    };
    let result: TOutput;
    try {
      result = await spec.handler(input, kit);
    } catch (err) {
      const changed = typeof err === 'object' && err !== null ? refusalChanges.get(err) : undefined;
      if (changed) await tellChanges(runtime, changed);
      throw err;
    }
    if (result && typeof result === 'object' && 'changed' in result) {
      const { changed, ...answer } = result as { changed?: readonly Change[] };
      if (changed?.length) await tellChanges(runtime, changed);
      return answer as Answer<TOutput>;
    }
    return result as Answer<TOutput>;
  };
  return defineAction({ accept: spec.accept, input: spec.input, handler } as never) as unknown as ReturnType<typeof astroDefineAction<Answer<TOutput>, TAccept, S extends z.$ZodType ? S : TAccept extends 'form' ? z.$ZodType<FormData> : undefined>>;
}
