/**
 * The limits that keep strangers from testing cards or guessing coupons through the checkout. Each
 * attempt is taken from the limits (the person's account and their address) before the work it
 * guards: before a card reaches the gateway, before a coupon code is looked up. A burst of posts
 * cannot slip between a check and a count, because there is no check: taking an attempt is one atomic
 * step in the limit's store (the database on every layout, see `limitStore`), refused once none is
 * left. What turns out not to count is given back: a paid order, a checkout refused before the gateway,
 * a coupon that exists.
 */
import type { RateLimiter } from '../http/rate-limit.server';
import type { LimitName } from '../http/rate-limit';
import type { CheckoutOutcome } from './checkout.server';

/** One limit and the key it counts under. */
export type LimitKey = [LimitName, string];

/** Refused by a limit: the seconds until an attempt is free again. */
export interface Limited {
  kind: 'limited';
  retryAfterSeconds: number;
}

/** The address a request came from, or `unknown` (a request made inside the server has none). */
export function requestAddress(request: { readonly clientAddress: string }): string {
  try {
    return request.clientAddress || 'unknown';
  } catch {
    return 'unknown';
  }
}

/** The keys refused payments are counted under: the account and the address. */
export function paymentLimitKeys(userId: number, address: string): LimitKey[] {
  return [
    ['paymentFailuresPerAccount', `user:${userId}`],
    ['paymentFailuresPerAddress', address],
  ];
}

/** The keys unknown coupon codes are counted under: the account and the address. */
export function couponLimitKeys(userId: number, address: string): LimitKey[] {
  return [
    ['couponGuessesPerAccount', `user:${userId}`],
    ['couponGuessesPerAddress', address],
  ];
}

/**
 * Takes one attempt from every limit of `keys`, or from none: when one is used up, those already
 * taken are given back and the answer is how long to wait. A store that fails throws (the request
 * fails without the work it guards: the stricter side).
 */
export async function takeAttempt(limiter: RateLimiter, keys: LimitKey[]): Promise<{ kind: 'taken'; giveBack: () => Promise<void> } | Limited> {
  const taken: LimitKey[] = [];
  const giveBack = async () => {
    for (const [name, key] of taken.splice(0)) await limiter.refund(name, key);
  };
  for (const [name, key] of keys) {
    let verdict;
    try {
      verdict = await limiter.hit(name, key);
    } catch (err) {
      await giveBack().catch(() => undefined);
      throw err;
    }
    if (!verdict.ok) {
      await giveBack();
      return { kind: 'limited', retryAfterSeconds: verdict.retryAfterSeconds };
    }
    taken.push([name, key]);
  }
  return { kind: 'taken', giveBack };
}

/**
 * Whether a checkout's outcome keeps the attempt it took: a card the gateway refused (declined, no
 * funds, invalid or expired). A paid order, a checkout refused before the gateway (cart, coupon, key)
 * and a processor's failure (which says nothing about the card) give it back.
 */
export function outcomeCounts(outcome: CheckoutOutcome): boolean {
  return outcome.kind === 'failed' || (outcome.kind === 'refused' && (outcome.reason === 'invalid-card' || outcome.reason === 'expired-card'));
}

/**
 * Runs one checkout (`pay`) within the refused-payment limits: the attempt is taken before the card
 * goes anywhere and given back unless the gateway refused the card. `limited` when the limits are used
 * up: `pay` is not called.
 */
export async function limitedCheckout(limiter: RateLimiter, keys: LimitKey[], pay: () => Promise<CheckoutOutcome>): Promise<CheckoutOutcome | Limited> {
  const attempt = await takeAttempt(limiter, keys);
  if (attempt.kind === 'limited') return attempt;
  // Thrown: whether the card reached the gateway is unknown, so the attempt stays taken.
  const outcome = await pay();
  if (!outcomeCounts(outcome)) await attempt.giveBack();
  return outcome;
}

/**
 * Looks a coupon code up within the coupon-guess limits: an attempt is taken before the look-up and
 * given back when the code exists, so only "does not exist" answers count. `limited` once they are
 * used up, for every code (a known code answered then would tell a guesser it exists).
 */
export async function lookUpCoupon<T>(limiter: RateLimiter, keys: LimitKey[], read: () => Promise<T | null>): Promise<{ kind: 'found'; coupon: T } | { kind: 'unknown' } | Limited> {
  const attempt = await takeAttempt(limiter, keys);
  if (attempt.kind === 'limited') return attempt;
  let coupon: T | null;
  try {
    coupon = await read();
  } catch (err) {
    await attempt.giveBack().catch(() => undefined);
    throw err;
  }
  if (coupon === null) return { kind: 'unknown' };
  await attempt.giveBack();
  return { kind: 'found', coupon };
}
