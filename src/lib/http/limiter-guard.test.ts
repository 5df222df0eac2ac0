import { describe, expect, it } from 'vitest';
import { guardLimiter } from './limiter-guard';
import { createRateLimiter, type RateLimiter } from './rate-limit.server';

class Refused extends Error {}

/** A limiter whose store has failed: every count throws. */
const broken: RateLimiter = {
  ...createRateLimiter(),
  hit: () => Promise.reject(new Error('connect ECONNREFUSED')),
  forgive: () => Promise.reject(new Error('connect ECONNREFUSED')),
  used: () => Promise.reject(new Error('connect ECONNREFUSED')),
  refund: () => Promise.reject(new Error('connect ECONNREFUSED')),
};

describe('the limiter under the failing-store policy', () => {
  it('turns every failed call into the refusal, after logging it, whatever the limit', async () => {
    const logged: string[] = [];
    const guarded = guardLimiter(broken, (name, err) => new Refused(`${name}: ${(err as Error).message}`), (name) => logged.push(name));
    await expect(guarded.hit('loginPerAddress', 'a')).rejects.toThrow(Refused);
    await expect(guarded.hit('paymentFailuresPerAccount', 'user:1')).rejects.toThrow('paymentFailuresPerAccount: connect ECONNREFUSED');
    await expect(guarded.used('loginPerAccount', 'a')).rejects.toThrow(Refused);
    await expect(guarded.forgive('loginPerAccountAddress', 'a')).rejects.toThrow(Refused);
    await expect(guarded.refund('codePerAddress', 'a')).rejects.toThrow(Refused);
    expect(logged).toEqual(['loginPerAddress', 'paymentFailuresPerAccount', 'loginPerAccount', 'loginPerAccountAddress', 'codePerAddress']);
  });

  it('counts as the limiter does while its store answers', async () => {
    const limiter = createRateLimiter({ spec: () => ({ points: 1, durationSeconds: 60 }) });
    const guarded = guardLimiter(limiter, () => new Refused('never'));
    expect(await guarded.hit('contactPerAddress', 'x')).toEqual({ ok: true });
    expect(await guarded.hit('contactPerAddress', 'x')).toMatchObject({ ok: false });
    expect(await guarded.used('contactPerAddress', 'x')).toBe(2);
    await guarded.refund('contactPerAddress', 'x');
    expect(await guarded.used('contactPerAddress', 'x')).toBe(1);
    await guarded.forgive('contactPerAddress', 'x');
    expect(await guarded.used('contactPerAddress', 'x')).toBe(0);
    expect(guarded.limit('contactPerAddress')).toEqual({ points: 1, durationSeconds: 60 });
  });
});
