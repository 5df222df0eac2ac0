/**
 * The rate limits an action declares, and how each is keyed: by the caller's address, their session,
 * their account, their contact or a field of their input (an e-mail), alone or together. Pure: the
 * action kit counts them (`src/actions/kit.ts`) through the runtime's limiter.
 *
 * What happens when the limiter's store fails (the one policy, for every action): **the request is
 * refused as busy** — 503, `Retry-After`, "try again in a few seconds" — and the work the limit guards
 * is not done. Why not let it through, as login once did:
 * - a Redis outage never reaches an action: the limiter counts in the database (or memory) by itself
 *   while Redis is away; what does reach it is the database out of reach, and then the action's own
 *   work (a login reads the account, a message is stored) would fail a moment later anyway;
 * - the limits that guard money (refused payments, coupon guesses) are counted in the database on every
 *   layout precisely so that they hold: letting a payment through uncounted is what they exist to stop;
 * - an honest "busy, try again" is better than a 500, and better than a guard that opens exactly when
 *   the system is struggling.
 * Only what never refuses is best effort: login's slow-down of an account under attack, and forgiving
 * a login's attempts after the right password, skip (and log) a failed store rather than fail a login.
 */
import type { LimitName } from './rate-limit';

/** One part of a limit's key: the caller's address, session, account or contact, or an input field (`input.email`). */
export type KeyPart = 'address' | 'session' | 'user' | 'contact' | `input.${string}`;

/** A limit an action declares: its name, what it is counted per, and who counts it. */
export interface LimitRule {
  name: LimitName;
  /** What the attempts are counted per; several parts count per combination (an account from one address). */
  per: KeyPart | readonly KeyPart[];
  /**
   * `kit` (the default): one attempt is counted for every call that passes the access check and the
   * input's schema, before the handler runs. `handler`: the handler counts it with the kit's limit tools,
   * because only it knows when an attempt counts (a wrong password, a refused card, an unknown code).
   */
  counted?: 'kit' | 'handler';
}

/** What a key can be made of, for one call. */
export interface KeyFacts {
  address: string;
  sessionTokenHash: string | null;
  userId: number | null;
  contactId: number | null;
  input: unknown;
}

/** A field of the input (an object, or a posted form), as text. */
function field(input: unknown, name: string): string | null {
  const value = input instanceof FormData ? input.get(name) : typeof input === 'object' && input !== null ? (input as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : null;
}

/** One part's value, or null when the call has none (no session, no account). */
export function keyPart(part: KeyPart, facts: KeyFacts): string | null {
  if (part === 'address') return facts.address;
  if (part === 'session') return facts.sessionTokenHash;
  if (part === 'user') return facts.userId === null ? null : `user:${facts.userId}`;
  if (part === 'contact') return facts.contactId === null ? null : `contact:${facts.contactId}`;
  // Input fields are e-mails: one account however its address is capitalised.
  return field(facts.input, part.slice('input.'.length))?.toLowerCase() ?? null;
}

/** The key a limit counts this call under, or null when a part is missing (a declaration the access level cannot fill). */
export function limitKey(rule: Pick<LimitRule, 'per'>, facts: KeyFacts): string | null {
  const parts = typeof rule.per === 'string' ? [rule.per] : rule.per;
  const values = parts.map((p) => keyPart(p, facts));
  if (values.some((v) => v === null)) return null;
  return values.length === 1 ? values[0]! : JSON.stringify(values);
}

/** The key parts an access level guarantees (`user` and `contact` need a logged-in user, `session` any session). */
export function partsAvailable(access: string): readonly string[] {
  if (access === 'public') return ['address', 'input'];
  if (access === 'ibo') return ['address', 'input', 'session'];
  return ['address', 'input', 'session', 'user', 'contact'];
}

/** Whole minutes to wait (at least one), for "wait N minutes". */
export function minutesToWait(retryAfterSeconds: number): number {
  return Math.max(1, Math.ceil(retryAfterSeconds / 60));
}
