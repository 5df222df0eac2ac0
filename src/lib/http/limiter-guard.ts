/**
 * The runtime's limiter under the actions' one policy for a failing store (see `action-limits.ts`):
 * every call that fails is turned into the refusal `refuse` makes (the kit's "busy, try again"), after
 * `log` has noted it. Counting never silently stops.
 */
import type { LimitName } from './rate-limit';
import type { RateLimiter } from './rate-limit.server';

export function guardLimiter(limiter: RateLimiter, refuse: (name: LimitName, err: unknown) => Error, log: (name: LimitName, err: unknown) => void = () => undefined): RateLimiter {
  const guard =
    <A extends unknown[], R>(call: (name: LimitName, ...rest: A) => Promise<R>) =>
    async (name: LimitName, ...rest: A): Promise<R> => {
      try {
        return await call(name, ...rest);
      } catch (err) {
        log(name, err);
        throw refuse(name, err);
      }
    };
  return {
    hit: guard((name, key: string) => limiter.hit(name, key)),
    forgive: guard((name, key: string) => limiter.forgive(name, key)),
    used: guard((name, key: string) => limiter.used(name, key)),
    refund: guard((name, key: string) => limiter.refund(name, key)),
    limit: (name) => limiter.limit(name),
    store: (name) => limiter.store(name),
    close: () => limiter.close(),
  };
}
